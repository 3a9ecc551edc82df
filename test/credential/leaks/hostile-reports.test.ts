import { startPlatform, TestPlatform } from '../../support/platform';
import { GITHUB_TEST_VECTOR, postScanningReport, scanningKeysFile } from '../../support/secret-scanning';
import { UNSIGNED_POSTS } from '../../../src/credential';

const { payload, identifier, signature } = GITHUB_TEST_VECTOR;

describe('hostile posts to the secret-scanning endpoint', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startPlatform({ SECRET_SCANNING_KEYS_FILE: scanningKeysFile(), BODY_LIMIT_KB: 1 });
  });
  afterAll(() => t.close());

  it('refuses a body over BODY_LIMIT_KB before checking it, and records nothing', async () => {
    const before = (await t.allEvents()).length;
    const big = JSON.stringify([{ token: 'x'.repeat(900), type: 't', url: 'u'.repeat(400), source: 'content' }]);
    const res = await postScanningReport(t, big, identifier, signature).expect(413);
    expect(res.body.data.error).toBe('payload_too_large');
    expect((await t.allEvents()).length).toBe(before);
  });

  it("never lets one body's signature pass for another, and answers the genuine one", async () => {
    await postScanningReport(t, `${payload} `, identifier, signature).expect(401);
    await postScanningReport(t, payload.replace('some_url', 'another_url'), identifier, signature).expect(401);
    await postScanningReport(t, payload, identifier, signature).expect(200);
  });

  it('limits unsigned posts per address, and refuses no signed one from it', async () => {
    let refusal;
    for (let i = 0; i <= UNSIGNED_POSTS.points + 1 && !refusal; i++) {
      const res = await postScanningReport(t, payload, identifier, 'bm90IGEgc2lnbmF0dXJl');
      if (res.status === 429) refusal = res;
      else expect(res.status).toBe(401);
    }
    expect(refusal?.body.data.error).toBe('too_many_unsigned_posts');
    expect(Number(refusal?.headers['retry-after'])).toBeGreaterThan(0);
    // GitHub's own posts, signed, are neither counted nor refused with the address.
    await postScanningReport(t, payload, identifier, signature).expect(200);
  });
});
