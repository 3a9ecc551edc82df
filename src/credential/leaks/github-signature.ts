import { verify } from 'node:crypto';
import { HttpError } from '../../shared/http/envelope';
import { AppContext } from '../../shared/http/context';
import { SignatureCheck } from '../../shared/http/signed-body';
import { ScanningKeys, ScanningKeysUnavailable } from './github-keys';

export const KEY_ID_HEADER = 'GITHUB-PUBLIC-KEY-IDENTIFIER';
export const SIGNATURE_HEADER = 'GITHUB-PUBLIC-KEY-SIGNATURE';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

const unsigned = (why: string) =>
  new HttpError(401, 'signature_invalid', `${why}: reports are accepted signed by GitHub's secret-scanning keys only`);

/**
 * GitHub's secret-scanning signature: ECDSA with P-256 and SHA-256, DER-encoded and in base64,
 * over the raw body, by the key the identifier header names. `failed` is told of each refusal
 * (the per-address limit on unsigned posts), and may refuse in its turn.
 */
export function githubSignature(keys: ScanningKeys, failed: (ctx: AppContext) => Promise<void>): SignatureCheck {
  return async (raw, ctx) => {
    const identifier = ctx.get(KEY_ID_HEADER);
    const signature = ctx.get(SIGNATURE_HEADER);
    const refuse = async (why: string): Promise<never> => {
      await failed(ctx);
      throw unsigned(why);
    };
    if (!identifier || !signature) return refuse(`${KEY_ID_HEADER} and ${SIGNATURE_HEADER} are required`);
    if (!BASE64.test(signature)) return refuse(`${SIGNATURE_HEADER} is not base64`);
    let key;
    try {
      key = await keys.keyFor(identifier);
    } catch (err) {
      if (err instanceof ScanningKeysUnavailable)
        throw new HttpError(
          503,
          'scanning_keys_unavailable',
          "GitHub's secret-scanning keys cannot be read now: retry later",
          undefined,
          { 'Retry-After': '60' },
        );
      throw err;
    }
    if (!key) return refuse(`no secret-scanning key has the identifier ${identifier.slice(0, 80)}`);
    const holds = verify('sha256', raw, { key, dsaEncoding: 'der' }, Buffer.from(signature, 'base64'));
    if (!holds) return refuse('the signature does not match the body');
  };
}
