import { NewEvent } from '../../../src/stores/ports';
import { approvedMember, claim, openCall, rotate } from '../../support/credentials';
import { startPlatform, TestPlatform } from '../../support/platform';

const API = '/api/v1';

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform({ READ_WAIT_MS: 300 });
});
afterAll(() => t.close());

/**
 * A member registration the members projection cannot apply (its member id is not a number),
 * appended straight to the log as a faulty writer would: the members projection halts on it,
 * while the key ring has nothing to do with it.
 */
async function haltTheMembersProjection(): Promise<void> {
  const poison: NewEvent = {
    type: 'MemberRegistered',
    data: { member_id: 'seven', username: 'poison' },
    metadata: {
      actor: { kind: 'system', id: null },
      request_id: 'poison',
      time: '2025-06-01T00:00:00.000Z',
      schema_version: 1,
    },
  };
  await t.platform.stores.events.append('member-poison', [poison], 'no_stream');
}

describe('a claim or rotation while an unrelated projection is halted', () => {
  it('answers 200 with a key that works, and the rotated key works too', async () => {
    const { developer, member } = await approvedMember(t);
    await haltTheMembersProjection();
    // The halt is in the health report before the claim, so the claim really comes after it.
    for (let i = 0; (await t.client().get(`${API}/health`)).status === 200; i++) expect(i).toBeLessThan(100);

    const { apiid, apikey } = await claim(developer, member);
    await openCall(t, '/open/addons', apiid, apikey).expect(403); // accepted: only the scope is missing

    const rotated = await rotate({ developer } as Parameters<typeof rotate>[0]);
    await openCall(t, '/open/addons', apiid, rotated).expect(403);
    await openCall(t, '/open/addons', apiid, apikey).expect(401);
  });
});
