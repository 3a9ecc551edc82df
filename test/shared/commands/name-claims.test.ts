import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError } from '../../../src/shared/domain/decider';
import { lookAlikeKeys, readAlike } from '../../../src/shared/domain/labels';
import { ABANDONED_AFTER_MS } from '../../../src/shared/domain/name-claims';
import { claimName, underClaim } from '../../../src/shared/commands/name-claims';
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
  const claimantWrites = (claimant: string) => () =>
    stores.events.append(
      claimant,
      [
        {
          type: 'PlatformSeeded',
          data: {},
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
    await underClaim(
      stores.events,
      MEMBER_NAMES,
      { name: 'paypaI', claimant: 'member-b' },
      ctx(),
      refuse,
      claimantWrites('member-b'),
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
});
