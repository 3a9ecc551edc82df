import { credentialStream } from '../../../src/credential/decider';
import type { EventMetadata } from '../../../src/stores/ports';
import { approvedMember } from '../../support/credentials';
import { expectRefusal, logInAdmin, startPlatform, TestPlatform } from '../../support/platform';

const API = '/api/v1';

// A platform for each test: the unreadable event halts the credentials read model, which the next one needs.
let t: TestPlatform;
beforeEach(async () => {
  t = await startPlatform();
});
afterEach(() => t.close());

describe('a credential history holding an event this version cannot read', () => {
  it('lists it marked invalid, answers the state before it, and refuses the state after it with 409 history_unreadable', async () => {
    const { member } = await approvedMember(t);
    const before = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    // What a newer release, rolled back, leaves in the log: a type this version does not know.
    const time = new Date().toISOString();
    await t.platform.stores.events.append(
      credentialStream(member.id),
      [
        {
          type: 'CredentialSuspended',
          data: { member_id: member.id, reason: 'newer release' },
          metadata: { actor: { kind: 'admin', id: 1 }, request_id: 'rollback', time },
        },
      ],
      'any',
    );
    const auditor = t.client();
    await logInAdmin(auditor);
    const history = (asOf?: string) =>
      auditor.get(`${API}/credentials/${member.id}/history`).query(asOf === undefined ? {} : { as_of: asOf });

    const all = (await history().expect(200)).body.data;
    expect(all.events.at(-1)).toMatchObject({
      type: 'CredentialSuspended',
      invalid: expect.stringContaining('no event of this type'),
    });
    expect((await history(before).expect(200)).body.data.state.credential.status).toBe('approved');
    const refused = await expectRefusal(t, () => history(time), 409, 'history_unreadable');
    expect(refused.body.message).toContain('CredentialSuspended');
  });

  // Written by other means than this service: metadata without actor or time, or none at all.
  it.each([
    ['names no actor and no time', { request_id: 'foreign' }],
    ['is no object', null],
  ])('lists an event whose metadata %s as it is stored, in the history and in the export', async (_, stored) => {
    const { member } = await approvedMember(t);
    const before = await t.platform.stores.events.headPosition();
    const metadata = stored as unknown as EventMetadata;
    await t.platform.stores.events.append(
      credentialStream(member.id),
      [{ type: 'CredentialRejected', data: { member_id: member.id, reason: 'by hand' }, metadata }],
      'any',
    );
    const auditor = t.client();
    await logInAdmin(auditor);

    const listed = (await auditor.get(`${API}/credentials/${member.id}/history`).expect(200)).body.data.events.at(-1);
    expect(listed).toMatchObject({
      type: 'CredentialRejected',
      time: null,
      actor: null,
      reason: 'by hand',
      invalid: expect.stringContaining('metadata'),
    });
    const after = await auditor
      .get(`${API}/credentials/${member.id}/history`)
      .query({ as_of: new Date().toISOString() });
    expect([after.status, after.body.data.error]).toEqual([409, 'history_unreadable']);
    const exported = await auditor
      .get(`${API}/audit/events`)
      .query({ from: before })
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => done(null, text));
      });
    expect(exported.status).toBe(200);
    const lines = String(exported.body)
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ type: 'CredentialRejected', time: null, actor: null });
    expect(lines.at(-1)).toHaveProperty('next');
  });
});
