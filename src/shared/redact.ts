// In the kernel, because no slice may keep a clear key: the credential slice's api-key.ts makes
// keys of this shape (`sk_…`). Anything a key could be, mistyped ones included: a key pasted where
// it does not belong.
const KEY_LIKE = /sk_[A-Za-z0-9_-]{16,}/g;

/**
 * The text with anything shaped like an API key masked: for what a client sends that the service
 * echoes or logs (a path, a request id), where a key put by mistake must not be kept in clear.
 */
export function withoutApiKeys(text: string): string {
  const masked = text.includes('sk_') ? text.replace(KEY_LIKE, 'sk_[redacted]') : text;
  // A key may come percent-encoded (`%73k_…`), even twice (`%2573k_…`): decoded until nothing is
  // left to decode, a text that then holds a key is given in that form, masked.
  let plain = masked;
  for (let round = 0; round < 3 && plain.includes('%'); round++) {
    const decoded = plain.replace(/%([2-7][0-9A-Fa-f])/g, (_encoded, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
    if (decoded === plain) break;
    plain = decoded;
    const unmasked = plain.replace(KEY_LIKE, 'sk_[redacted]');
    if (unmasked !== plain) return unmasked;
  }
  return masked;
}
