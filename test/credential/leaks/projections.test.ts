import { apiKeysProjection } from '../../../src/credential/projections/api-keys';
import { credentialsProjection } from '../../../src/credential/projections/credentials';
import { issuedKeysProjection } from '../../../src/credential/projections/issued-keys';
import { CredentialEvent } from '../../../src/credential/events';
import { at, project } from '../../support/projection-spec';
import { activeLog, APIID, M, rotated } from '../fixtures';

const report = (key_digest: string, accepted: boolean, quarantined = accepted): CredentialEvent => ({
  type: 'KeyLeakReported',
  data: {
    member_id: M,
    apiid: APIID,
    key_digest,
    key_fingerprint: key_digest.slice(0, 8),
    url: 'https://github.com/octo/leaky/blob/1/.env',
    source: 'content',
    note: null,
    accepted,
    quarantined,
  },
});

describe('a key found in public, in the read models', () => {
  it('quarantines the key in the key ring, and keeps it refused after a rotation with a grace period', () => {
    const log = activeLog().credential(3, report('k1', true));
    expect(project(apiKeysProjection, log.events).get(String(M))?.leaked).toEqual(['k1']);
    log.credential(4, rotated(APIID, 'k2', 'k1', '2099-01-01T00:00:00.000Z'));
    const doc = project(apiKeysProjection, log.events).get(String(M))!;
    expect(doc.keys.map((key) => key.digest)).toEqual(['k2', 'k1']);
    expect(doc.leaked).toEqual(['k1']);
  });

  it('leaves the key ring alone when the report only tells (LEAKED_KEY_ACTION=notify)', () => {
    const log = activeLog().credential(3, report('k1', true, false));
    expect(project(apiKeysProjection, log.events).get(String(M))?.leaked).toBeUndefined();
  });

  it("shows the member's dashboard where the key was found until the member rotates", () => {
    const log = activeLog().credential(3, report('k1', true));
    expect(project(credentialsProjection, log.events).get(String(M))?.leak).toEqual({
      key_fingerprint: 'k1',
      url: 'https://github.com/octo/leaky/blob/1/.env',
      source: 'content',
      reported_at: at(3),
      quarantined: true,
    });
    log.credential(4, rotated(APIID, 'k2', 'k1', null));
    expect(project(credentialsProjection, log.events).get(String(M))?.leak).toBeNull();
  });

  it('finds every issued key by its digest, a rotated-away one too', () => {
    const log = activeLog().credential(4, rotated(APIID, 'k2', 'k1', null));
    const issued = project(issuedKeysProjection, log.events);
    expect(issued.get('k1')).toEqual({ member_id: M, apiid: APIID });
    expect(issued.get('k2')).toEqual({ member_id: M, apiid: APIID });
  });
});
