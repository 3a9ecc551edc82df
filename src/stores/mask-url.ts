/**
 * A store URL fit for logs and error messages: without its user name and password, and with the
 * value of every option that carries a secret masked (MongoDB's authMechanismProperties, which may
 * hold an AWS session token, TLS key passwords, proxy passwords). Every log line and message that
 * names a store's URL goes through this.
 */
export function maskUrl(url: string): string {
  // Up to the last @ of the authority: a password may hold an unencoded @ of its own.
  const withoutCredentials = url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#]*@/, '$1');
  const query = withoutCredentials.indexOf('?');
  if (query === -1) return withoutCredentials;
  const options = withoutCredentials
    .slice(query + 1)
    .split('&')
    .map((option) => {
      const equals = option.indexOf('=');
      if (equals === -1) return option;
      const name = option.slice(0, equals);
      return isSecretOption(name) ? `${name}=***` : option;
    });
  return `${withoutCredentials.slice(0, query)}?${options.join('&')}`;
}

/**
 * Option names that carry a secret, compared as the clients compare them (case, - and _ ignored):
 * any password (tlsCertificateKeyFilePassword, sslPass, proxyPassword, password), token or secret,
 * and authMechanismProperties.
 */
function isSecretOption(name: string): boolean {
  const plain = safeDecode(name).toLowerCase().replace(/[_-]/g, '');
  return /pass(word)?$|secret|token|authmechanismproperties|credential/.test(plain);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
