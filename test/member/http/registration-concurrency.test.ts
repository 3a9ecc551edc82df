import { csrfOf, startPlatform, TestPlatform, uniqueUsername } from '../../support/platform';

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform();
});
afterAll(() => t.close());

/** N clients, each with its own session and token, ready to fire at the same moment. */
async function clients(n: number) {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const client = t.client();
      return { client, token: await csrfOf(client) };
    }),
  );
}

describe('simultaneous registrations over HTTP', () => {
  it('of one username in twenty letter cases: exactly one succeeds, the rest are told it is taken', async () => {
    const base = uniqueUsername('race');
    const ready = await clients(20);
    const responses = await Promise.all(
      ready.map(({ client, token }, i) => {
        const username = i % 2 ? base.toUpperCase() : base;
        return client
          .post('/api/v1/developer/register')
          .set('X-CSRF-Token', token)
          .send({ username, password: 'secret1', email: `r${i}@example.com` });
      }),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(19).fill(422)]);
    for (const r of responses.filter((r) => r.status === 422)) expect(r.body.data.error).toBe('username_taken');

    const registered = (await t.allEvents()).filter(
      (e) => e.type === 'MemberRegistered' && String(e.data.username).toLowerCase() === base.toLowerCase(),
    );
    expect(registered).toHaveLength(1);
  });

  it('of twenty different usernames: all succeed with twenty distinct ids', async () => {
    const ready = await clients(20);
    const responses = await Promise.all(
      ready.map(({ client, token }) =>
        client
          .post('/api/v1/developer/register')
          .set('X-CSRF-Token', token)
          .send({ username: uniqueUsername('many'), password: 'secret1', mobile: '+441234567890' }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const ids = new Set(responses.map((r) => r.body.data.id));
    expect(ids.size).toBe(20);
  });
});
