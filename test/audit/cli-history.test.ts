import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { credentialStream } from '../../src/credential/decider';
import { memberStream } from '../../src/member/decider';
import { EventMetadata, RecordedEvent } from '../../src/stores/ports';
import { openSqliteStores } from '../../src/stores/sqlite';
import { expectRefused } from '../support/cli';
import { platformInProcess } from '../support/cli-in-process';
import { activePartner, Partner } from '../support/credentials';
import { startPlatform } from '../support/platform';

// The CLI reads the embedded store the service below wrote.
delete process.env.EVENTSTORE_URL;
delete process.env.MONGODB_URL;

const dir = mkdtempSync(join(tmpdir(), 'platform-history-'));
let partner: Partner;
let stream: RecordedEvent[];
/** The one-time password an administrator gave the member, which no line may show. */
let oneTime: string;

beforeAll(async () => {
  const t = await startPlatform({}, dir);
  try {
    partner = await activePartner(t, ['addons.read']);
    await partner.admin
      .post(`/api/v1/credentials/${partner.member.id}/revoke`)
      .set('X-CSRF-Token', partner.adminToken)
      .send({ reason: 'contract ended' })
      .expect(200);
    const reset = await partner.admin
      .post(`/api/v1/members/${partner.member.id}/password-reset`)
      .set('X-CSRF-Token', partner.adminToken)
      .send({})
      .expect(200);
    oneTime = reset.body.data.password as string;
    const { events } = t.platform.stores;
    stream = [
      ...(await events.readStream(memberStream(partner.member.username))),
      ...(await events.readStream(credentialStream(partner.member.id))),
    ];
  } finally {
    await t.close();
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const timeOf = (type: string) => stream.find((e) => e.type === type)!.metadata.time;
/** How the history words the expiry an event set. */
const expiryOf = (type: string) => {
  const at = stream.find((e) => e.type === type)!.data.expires_at;
  return typeof at === 'string' ? `the key expires at ${at}` : 'the key never expires';
};

describe('platform history', () => {
  it('prints every event about the member as a timeline, account and credential: time, actor, what happened, reason', async () => {
    const run = await platformInProcess(dir, ['history', '--member', String(partner.member.id)]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const { id, username } = partner.member;
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`History of member ${id} (${username}): 8 events`);
    expect(lines[1]).toMatch(/^TIME +ACTOR +WHAT HAPPENED +REASON$/);
    const rows = lines.slice(2);
    const expected: [string, string, RegExp][] = [
      [
        'MemberRegistered',
        `member ${username} (#${id})`,
        new RegExp(`registered as member ${id} with the username ${username}$`),
      ],
      ['CredentialApplied', `member ${username} (#${id})`, /applied for API credentials$/],
      [
        'CredentialApproved',
        'admin admin (#1)',
        new RegExp(`approved the application; ${expiryOf('CredentialApproved')}$`),
      ],
      [
        'CredentialClaimed',
        `member ${username} (#${id})`,
        new RegExp(`claimed the credential, API id ${partner.apiid}$`),
      ],
      ['ScopeRequested', `member ${username} (#${id})`, /requested the scope addons\.read +integration$/],
      ['ScopeApproved', 'admin admin (#1)', /approved the scope addons\.read$/],
      ['CredentialRevoked', 'admin admin (#1)', /revoked the credential and its live scopes +contract ended$/],
      [
        'PasswordResetByAdministrator',
        'admin admin (#1)',
        new RegExp(
          `administrator 1 reset member ${id}'s password to a one-time password; every session of theirs ended$`,
        ),
      ],
    ];
    expect(rows).toHaveLength(expected.length);
    expected.forEach(([type, actor, what], i) => {
      expect(rows[i]!.startsWith(`${timeOf(type)}  ${actor} `)).toBe(true);
      expect(rows[i]).toMatch(what);
    });
    const digest = String(stream.find((e) => e.type === 'CredentialClaimed')!.data.key_digest);
    const hashes = stream.flatMap((e) => (typeof e.data.password_hash === 'string' ? [e.data.password_hash] : []));
    expect(hashes).toHaveLength(2);
    for (const secret of [digest, partner.apikey, oneTime, ...hashes]) expect(run.stdout).not.toContain(secret);
  });

  it('with --as-of, prints the timeline up to that instant and the state then', async () => {
    const instant = timeOf('ScopeApproved');
    const run = await platformInProcess(dir, ['history', '--member', String(partner.member.id), '--as-of', instant]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain(`up to ${instant}: 6 events`);
    expect(run.stdout).not.toContain('revoked the credential');
    expect(
      run.stdout.endsWith(
        `State at ${instant}:\n  credential: active, API id ${partner.apiid}\n  scope addons.read: approved\n`,
      ),
    ).toBe(true);

    const before = new Date(Date.parse(timeOf('CredentialApplied')) - 1000).toISOString();
    const none = await platformInProcess(dir, ['history', '--member', String(partner.member.id), '--as-of', before]);
    expect(none.stdout).not.toContain('applied for API credentials');
    expect(none.stdout).toContain('credential: none (not applied yet)');
  });

  it('prints an event whose metadata holds no time or actor as it is stored, marked invalid', async () => {
    const stores = openSqliteStores(dir);
    try {
      const applied = { actor: { kind: 'member' as const, id: 777 }, request_id: 'r', time: new Date().toISOString() };
      await stores.events.append(
        credentialStream(777),
        [
          { type: 'CredentialApplied', data: { member_id: 777, username: 'foreign' }, metadata: applied },
          // Written by other means than this service.
          {
            type: 'CredentialRejected',
            data: { member_id: 777, reason: 'by hand' },
            metadata: { request_id: 'x' } as unknown as EventMetadata,
          },
        ],
        'no_stream',
      );
    } finally {
      await stores.close();
    }
    const run = await platformInProcess(dir, ['history', '--member', '777']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/\(no time recorded\) +\(no actor recorded\) .*stored event invalid/);
  });

  it('refuses an unknown member, a malformed id and a time without a zone, in one line', async () => {
    // One after the other: each run takes this process's stdout and stderr while it runs.
    const unknown = await platformInProcess(dir, ['history', '--member', '999']);
    const malformed = await platformInProcess(dir, ['history', '--member', 'abc']);
    const zoneless = await platformInProcess(dir, ['history', '--member', '1', '--as-of', '2026-11-22T04:18:52']);
    expectRefused(unknown, /no member has the id 999: there is no history \(member_not_found\)\n$/);
    expectRefused(malformed, /whole number/);
    expectRefused(zoneless, /ISO 8601 time with a zone/);
  });
});
