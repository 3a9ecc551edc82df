import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may not point at unless WEBHOOK_ALLOW_PRIVATE=true: loopback, private,
 * shared, link-local and unspecified, and those that reach no single public host (multicast,
 * broadcast and reserved, protocol assignments, benchmarking), or that embed an IPv4 address a
 * gateway may forward to, private ones included (IPv4-compatible, NAT64 well-known and local,
 * 6to4, Teredo).
 */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2001::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv6');
}

/** Whether an address (IPv4, IPv6 or IPv4-mapped IPv6) is one a webhook may not reach. */
export function isPrivate(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return PRIVATE.check(mapped, 'ipv4');
  return PRIVATE.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

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
  const addresses = isIP(host) ? [host] : await lookup(host, { all: true }).then((found) => found.map((a) => a.address), () => null);
  if (addresses === null) return `url's host ${host} does not resolve`;
  if (addresses.some(isPrivate)) return 'url points at a loopback, private or otherwise reserved address (set WEBHOOK_ALLOW_PRIVATE=true to allow it)';
  return null;
}
