import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

// IANA's global unicast allocation: every other IPv6 block (::/8 with its IPv4-compatible
// addresses, 100::/64, 5f00::/16, fec0::/10…) is reserved, whatever name a classification gives it.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * The address as the connection reads it: through the URL parser, which writes an IPv6 address
 * with an IPv4 tail (`::1.2.3.4`) in hexadecimal. ipaddr.js would read that one as IPv4-mapped.
 */
function canonical(address: string): string {
  if (!address.includes(':')) return address;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

/**
 * Whether a webhook may not reach an address (IPv4, IPv6, IPv4-mapped IPv6) unless
 * WEBHOOK_ALLOW_PRIVATE=true: everything but globally routable unicast, by the range names of
 * ipaddr.js (loopback, private, carrier-grade NAT, link-local, multicast, broadcast, reserved,
 * documentation, benchmarking, 6to4, Teredo, NAT64, IPv4-translated, discard, site-local,
 * segment routing…), an IPv4-mapped address judged as the IPv4 address it maps.
 */
export function isPrivate(address: string): boolean {
  const text = canonical(address);
  if (!ipaddr.isValid(text)) return true;
  const ip = ipaddr.process(text);
  if (ip.range() !== 'unicast') return true;
  return ip.kind() === 'ipv6' && !ip.match(GLOBAL_UNICAST_V6);
}

/**
 * What refusedUrl asks of a URL's form, for the contract: an http or https URL with no
 * credentials (no `@` before the path). The addresses it reaches are checked on registration only.
 */
export const WEBHOOK_URL_FORM = { format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#@]+([/?#]|$)' } as const;

/** Why a webhook URL is refused, or null when it may be registered. */
export async function refusedUrl(raw: string, allowPrivate: boolean): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'url must be http or https';
  if (url.username || url.password) return 'url must not carry credentials';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host)
    ? [host]
    : await lookup(host, { all: true }).then(
        (found) => found.map((a) => a.address),
        () => null,
      );
  if (addresses === null) return `url's host ${host} does not resolve`;
  if (addresses.some(isPrivate))
    return 'url points at a loopback, private or otherwise reserved address (set WEBHOOK_ALLOW_PRIVATE=true to allow it)';
  return null;
}
