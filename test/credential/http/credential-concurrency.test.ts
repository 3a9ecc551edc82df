import { approvedMember } from '../../support/credentials';
import { csrfOf, logInAdmin, registerMember, startPlatform, TestPlatform } from '../../support/platform';

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform();
});
afterAll(() => t.close());

const API = '/api/v1';

async function eventsOf(memberId: number, type: string) {
  const stream = await t.platform.stores.events.readStream(`credential-${memberId}`);
  return stream.filter((e) => e.type === type);
}

describe('concurrent credential commands', () => {
  it('ten simultaneous claims after one approval issue exactly one key', async () => {
    const { developer, member } = await approvedMember(t);
    const token = await csrfOf(developer);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => developer.post(`${API}/developer/claim`).set('X-CSRF-Token', token).send({})),
    );
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    expect(won[0]!.body.data.apikey).toMatch(/^sk_/);
    for (const lost of answers.filter((a) => a.status !== 200)) {
      expect(lost.status).toBe(422);
      expect(lost.body.data.error).toBe('credential_already_claimed');
      expect(JSON.stringify(lost.body)).not.toContain('sk_');
    }
    expect(await eventsOf(member.id, 'CredentialClaimed')).toHaveLength(1);
  });

  it('two administrators approving the same scope at once append one decision', async () => {
    const { developer, member, admin, adminToken } = await approvedMember(t);
    await developer.post(`${API}/developer/claim`).set('X-CSRF-Token', member.token).send({}).expect(200);
    await developer
      .post(`${API}/developer/scopes`)
      .set('X-CSRF-Token', member.token)
      .send({ scopes: ['addons.read'], reason: 'catalogue sync' })
      .expect(200);
    const second = t.client();
    const secondToken = await logInAdmin(second);

    const approve = (client: typeof admin, token: string) =>
      client.post(`${API}/credentials/${member.id}/scopes/addons.read/approve`).set('X-CSRF-Token', token).send({});
    const answers = await Promise.all([approve(admin, adminToken), approve(second, secondToken)]);

    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    expect(answers.find((a) => a.status === 422)!.body.data.error).toBe('scope_not_pending');
    expect(await eventsOf(member.id, 'ScopeApproved')).toHaveLength(1);
  });

  it('simultaneous approve and reject of one application: one decision wins, the other is refused', async () => {
    const developer = t.client();
    const member = await registerMember(developer);
    await developer.post(`${API}/developer/credential`).set('X-CSRF-Token', member.token).send({}).expect(200);
    const [a, b] = [t.client(), t.client()];
    const [tokenA, tokenB] = [await logInAdmin(a), await logInAdmin(b)];
    const answers = await Promise.all([
      a.post(`${API}/credentials/${member.id}/approve`).set('X-CSRF-Token', tokenA).send({}),
      b.post(`${API}/credentials/${member.id}/reject`).set('X-CSRF-Token', tokenB).send({ reason: 'incomplete' }),
    ]);
    expect(answers.map((x) => x.status).sort()).toEqual([200, 422]);
    const decisions = [
      ...(await eventsOf(member.id, 'CredentialApproved')),
      ...(await eventsOf(member.id, 'CredentialRejected')),
    ];
    expect(decisions).toHaveLength(1);
  });
});
