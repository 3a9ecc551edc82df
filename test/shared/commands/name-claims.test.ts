import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError } from '../../../src/shared/domain/decider';
import { lookAlikeKeys, readAlike } from '../../../src/shared/domain/labels';
import { ABANDONED_AFTER_MS } from '../../../src/shared/domain/name-claims';
import { claimName, releaseClaim, underClaim } from '../../../src/shared/commands/name-claims';
import { CommandContext } from '../../../src/shared/commands/context';
import { MEMBER_NAMES } from '../../../src/member/names';
import { openSqliteStores } from '../../../src/stores/sqlite';
import { Stores } from '../../../src/stores/ports';

describe('what a name reads as (UTS #39 skeletons, case aside)', () => {
  it.each([
    ['adrnin', 'admin'],
    ['\u0410uditors', 'Auditors'],
    ['g00gle', 'Google'],
    ['paypaI', 'paypal'],
    ['ADMIN', 'admin'],
    ['ｆｕｌｌ', 'full'],
  ])('%s reads like %s', (name, other) => {
    expect(readAlike(name, other)).toBe(true);
    expect(readAlike(other, name)).toBe(true);
  });

  it.each([
    ['alice', 'alicia'],
    ['paypai', 'paypal'],
    ['Reviewers', 'Auditors'],
  ])('%s does not read like %s', (name, other) => {
    expect(readAlike(name, other)).toBe(false);
  });

  it('has at most two keys: case folded before the mapping, and after it', () => {
    expect(lookAlikeKeys('admin')).toHaveLength(1);
    expect(lookAlikeKeys('paypaI')).toHaveLength(2);
  });
});

describe('claims of names in the event store', () => {
  let dir: string;
  let stores: Stores;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'name-claims-'));
    stores = await openSqliteStores(dir);
  });
  afterEach(async () => {
    await stores.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ctx = (now = new Date()): CommandContext => ({
    actor: { kind: 'system', id: 'test' },
    requestId: `r-${Math.random()}`,
    now,
  });
  const refuse = (taken: string) => new DomainError('name_taken', `"${taken}" reads alike`);
  /** The claimant's creation: its first event, holding its name as a member's registration does. */
  const created = (claimant: string, username: string) =>
    stores.events.append(
      claimant,
      [
        {
          type: 'MemberRegistered',
          data: { username },
          metadata: { actor: { kind: 'system', id: 't' }, request_id: 'r', time: new Date().toISOString() },
        },
      ],
      'no_stream',
    );

  it('lets one of many look-alike names claimed at the same instant through', async () => {
    const names = ['cm-one', 'crn-one', 'CM-one', 'cM-one', 'crn-One', 'CRN-ONE'];
    const outcomes = await Promise.allSettled(
      names.map((name, i) => claimName(stores.events, MEMBER_NAMES, { name, claimant: `member-x${i}` }, ctx(), refuse)),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes.filter((o) => o.status === 'rejected'))
      expect((o as PromiseRejectedResult).reason).toMatchObject({ error: 'name_taken' });
  });

  it('gives the name back when what it was for could not be created', async () => {
    const failing = underClaim(
      stores.events,
      MEMBER_NAMES,
      { name: 'paypal', claimant: 'member-a' },
      ctx(),
      refuse,
      () => Promise.reject(new Error('store outage')),
    );
    await expect(failing).rejects.toThrow('store outage');
    await underClaim(stores.events, MEMBER_NAMES, { name: 'paypaI', claimant: 'member-b' }, ctx(), refuse, () =>
      created('member-b', 'paypaI'),
    );
    await expect(
      claimName(stores.events, MEMBER_NAMES, { name: 'PAYPAL', claimant: 'member-c' }, ctx(), refuse),
    ).rejects.toMatchObject({ error: 'name_taken', message: '"paypaI" reads alike' });
  });

  it('frees a claim whose claimant was never written once it is abandoned, and only then', async () => {
    const start = new Date();
    await claimName(stores.events, MEMBER_NAMES, { name: 'orphan', claimant: 'member-never' }, ctx(start), refuse);
    const soon = new Date(start.getTime() + ABANDONED_AFTER_MS / 2);
    await expect(
      claimName(stores.events, MEMBER_NAMES, { name: '0rphan', claimant: 'member-d' }, ctx(soon), refuse),
    ).rejects.toMatchObject({ error: 'name_taken' });
    const later = new Date(start.getTime() + ABANDONED_AFTER_MS + 1000);
    await expect(
      claimName(stores.events, MEMBER_NAMES, { name: '0rphan', claimant: 'member-d' }, ctx(later), refuse),
    ).resolves.toMatchObject({ name: '0rphan' });
  });

  it('lets a retry of the same creation (the same claimant) claim again within the minute', async () => {
    await claimName(stores.events, MEMBER_NAMES, { name: 'retried', claimant: 'member-retried' }, ctx(), refuse);
    await expect(
      claimName(stores.events, MEMBER_NAMES, { name: 'Retried', claimant: 'member-retried' }, ctx(), refuse),
    ).resolves.toMatchObject({ name: 'Retried' });
    await expect(
      claimName(stores.events, MEMBER_NAMES, { name: 'RETRIED', claimant: 'member-other' }, ctx(), refuse),
    ).rejects.toMatchObject({ error: 'name_taken' });
  });

  it('keeps the key of the creation that won a race for the same stream, and frees one whose claimant holds another name', async () => {
    const first = await claimName(
      stores.events,
      MEMBER_NAMES,
      { name: 'racer', claimant: 'member-racer' },
      ctx(),
      refuse,
    );
    const second = await claimName(
      stores.events,
      MEMBER_NAMES,
      { name: 'Racer', claimant: 'member-racer' },
      ctx(),
      refuse,
    );
    await created('member-racer', 'racer');
    // The loser gives back what it took: the winner's creation keeps the key all the same.
    await releaseClaim(stores.events, second, ctx());
    await releaseClaim(stores.events, first, ctx());
    await expect(
      claimName(stores.events, MEMBER_NAMES, { name: 'RACER', claimant: 'member-other' }, ctx(), refuse),
    ).rejects.toMatchObject({ error: 'name_taken', message: '"racer" reads alike' });
    // A group's id taken by another group: the claim's claimant holds a name that reads otherwise.
    await claimName(stores.events, MEMBER_NAMES, { name: 'Deployers', claimant: 'group-9' }, ctx(), refuse);
    await created('group-9', 'Operators');
    await expect(
      claimName(stores.events, MEMBER_NAMES, { name: 'Dep1oyers', claimant: 'group-10' }, ctx(), refuse),
    ).resolves.toMatchObject({ name: 'Dep1oyers' });
  });
});
