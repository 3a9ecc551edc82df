import { credentialDecider, CredentialCommand, credentialStream } from '../../src/credential/decider';
import { CredentialEvent } from '../../src/credential/events';
import { MAX_GRACE_SECONDS } from '../../src/credential/grace-period';
import { given } from '../support/decider-spec';
import {
  member_id,
  APIID,
  NEW_APIID,
  KEY,
  NEW_KEY,
  NOW,
  events,
  applied,
  approved,
  claimed,
  revoked,
  active,
  statusOf,
  decide,
} from './decider-support';

describe('RotateKey', () => {
  const rotate = (grace_seconds: number, key_digest = NEW_KEY): CredentialCommand => ({
    type: 'RotateKey',
    data: { member_id, key_digest, grace_seconds, now: NOW },
  });

  it.each<[number, string | null]>([
    [0, null],
    [1, '2025-03-01T10:00:01.000Z'],
    [3600, '2025-03-01T11:00:00.000Z'],
    [MAX_GRACE_SECONDS, '2025-03-02T10:00:00.000Z'],
  ])('with grace_seconds %p keeps the previous key valid until %p', (grace, until) => {
    given(credentialDecider, active)
      .when(rotate(grace))
      .then([events.rotated(APIID, NEW_KEY, KEY, until)]);
  });

  it.each([-1, MAX_GRACE_SECONDS + 1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses grace_seconds %p',
    (grace) => {
      given(credentialDecider, active)
        .when(rotate(grace))
        .thenRefuses('invalid_grace_seconds', `grace_seconds must be an integer from 0 to ${MAX_GRACE_SECONDS}`);
    },
  );

  describe('the keys of earlier rotations', () => {
    const minutesAfter = (minutes: number) => new Date(Date.parse(NOW) + minutes * 60_000).toISOString();
    const rotateAt = (minute: number, grace_seconds: number, key_digest: string): CredentialCommand => ({
      type: 'RotateKey',
      data: { member_id, key_digest, grace_seconds, now: minutesAfter(minute) },
    });
    /** The active credential rotated once a minute from NOW with these grace periods; rotation i issues key i. */
    const rotated = (graces: number[]): CredentialEvent[] =>
      graces.reduce<CredentialEvent[]>(
        (history, grace, i) => [...history, ...decide(history, rotateAt(i, grace, String(i).repeat(64)))],
        [...active],
      );
    const earlierAfter = (history: CredentialEvent[], command: CredentialCommand) =>
      (decide(history, command)[0]?.data as { earlier_keys: unknown }).earlier_keys;

    it('all stop with a rotation that gives no grace period, as the previous key does', () => {
      expect(earlierAfter(rotated([3600]), rotateAt(2, 0, 'c'.repeat(64)))).toEqual([]);
    });

    it('stay no longer than the previous key, and only the two most recent', () => {
      const history = rotated([3600, 3600, 3600]);
      expect(earlierAfter(history, rotateAt(3, 60, 'c'.repeat(64)))).toEqual([
        { digest: '1'.repeat(64), valid_until: minutesAfter(4) },
        { digest: '0'.repeat(64), valid_until: minutesAfter(4) },
      ]);
    });

    it('keep their own end when it comes sooner, and are dropped once it has passed', () => {
      const history = rotated([120]);
      expect(earlierAfter(history, rotateAt(1, 3600, 'c'.repeat(64)))).toEqual([
        { digest: KEY, valid_until: minutesAfter(2) },
      ]);
      expect(earlierAfter(history, rotateAt(2, 3600, 'c'.repeat(64)))).toEqual([]);
    });

    it('start again with each claim', () => {
      const history = [...rotated([3600]), revoked, applied, approved, claimed(NEW_APIID, NEW_KEY)];
      expect(earlierAfter(history, rotateAt(2, 3600, 'c'.repeat(64)))).toEqual([]);
    });
  });

  it('a second rotation names the key of the first as the previous one', () => {
    const firstRotation = decide(active, rotate(0));
    const [second] = decide([...active, ...firstRotation], rotate(0, 'c'.repeat(64)));
    expect(second?.data).toMatchObject({ apiid: APIID, previous_key_digest: NEW_KEY, key_digest: 'c'.repeat(64) });
    expect(statusOf([...active, ...firstRotation])).toBe('active');
  });
});

describe('credential stream', () => {
  it('is one stream per member', () => {
    expect(credentialStream(7)).toBe('credential-7');
  });
});
