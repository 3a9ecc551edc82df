import type { Settings } from '../../config';
import type { LimitPolicy, RateLimiter } from '../../stores/ports';
import type { AddressKey } from '../../shared/http/client-address';
import { perAddress } from '../../shared/http/address-limits';
import type { LeakReporting } from '../endpoints/leaks';
import { scanningKeysFromFile, scanningKeysFromUrl } from './github-keys';

/**
 * Posts whose signature failed, per client address: a flood of unsigned reports costs a signature
 * check each, then a counter; GitHub's own posts, signed, are never counted.
 */
export const UNSIGNED_POSTS: LimitPolicy = {
  name: 'secret-scanning-unsigned',
  points: 30,
  windowSeconds: 60,
  blockSeconds: 300,
};

type LeakSettings = Pick<
  Settings,
  'LEAKED_KEY_ACTION' | 'SECRET_SCANNING_KEYS_FILE' | 'SECRET_SCANNING_KEYS_URL' | 'BODY_LIMIT_KB'
>;

/** Leak reports as the settings say: the action, where GitHub's keys come from, the body limit. */
export function leakReporting(settings: LeakSettings, unsigned: RateLimiter, addressKey: AddressKey): LeakReporting {
  return {
    leakedKeyAction: settings.LEAKED_KEY_ACTION,
    scanningKeys: settings.SECRET_SCANNING_KEYS_FILE
      ? scanningKeysFromFile(settings.SECRET_SCANNING_KEYS_FILE)
      : scanningKeysFromUrl(settings.SECRET_SCANNING_KEYS_URL),
    bodyLimitKb: settings.BODY_LIMIT_KB,
    unsignedPost: perAddress(
      unsigned,
      UNSIGNED_POSTS,
      addressKey,
      'too_many_unsigned_posts',
      'too many posts with no valid signature from this address',
    ),
  };
}
