import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logIn, registerMember, startPlatform } from '../../support/platform';

describe('a restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'platform-restart-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every member: they log in and see their dashboard on the new process', async () => {
    const first = await startPlatform({}, dir);
    const members = [await registerMember(first.client()), await registerMember(first.client())];
    await first.close();

    const second = await startPlatform({}, dir);
    try {
      for (const member of members) {
        const client = second.client();
        await logIn(client, member);
        const dashboard = await client.get('/api/v1/developer/dashboard').expect(200);
        expect(dashboard.body.data.member).toMatchObject({ id: member.id, username: member.username });
      }
      const next = await registerMember(second.client());
      expect(next.id).toBe(Math.max(...members.map((m) => m.id)) + 1);
    } finally {
      await second.close();
    }
  });
});
