import { randomBytes } from 'node:crypto';
import { DomainError } from '../../src/shared/domain/decider';
import { claimName } from '../../src/shared/commands/name-claims';
import type { NameSpace } from '../../src/shared/domain/name-claims';
import type { EventStore } from '../../src/stores/ports';
import { MEMBER_NAMES } from '../../src/member/names';
import { StoreFixture, useStore } from './fixture';

/** Members' usernames: a space whose events the member slice registers. */
const SPACE: NameSpace = MEMBER_NAMES;

const ctx = () => ({
  actor: { kind: 'system' as const, id: 'contract' },
  requestId: `claim-${randomBytes(6).toString('hex')}`,
  now: new Date(),
});

/**
 * Names unique as they read (src/shared/commands/name-claims.ts) rest on the adapter's expected
 * revision alone: whichever adapter, of look-alike names claimed at the same instant one wins.
 */
export function nameClaimsContract(open: () => Promise<StoreFixture<EventStore>>): void {
  const store = useStore(open);

  it('lets one of many look-alike names claimed at the same instant through, the others refused', async () => {
    // A base of its own per run: a server's log keeps the claims of earlier runs.
    const base = `x${randomBytes(5).toString('hex').replace(/[0-9]/g, 'q')}`;
    const names = [`cm${base}`, `crn${base}`, `CM${base}`, `cM${base}`, `\u0441m${base}`, `CRN${base}`];
    const outcomes = await Promise.allSettled(
      names.map((name, i) =>
        claimName(store(), SPACE, { name, claimant: `member-contract-${base}-${i}` }, ctx(), (taken) => {
          return new DomainError('name_taken', `reads like ${taken}`);
        }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect((o.reason as DomainError).error).toBe('name_taken');
  });
}
