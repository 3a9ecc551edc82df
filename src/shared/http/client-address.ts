import ipaddr from 'ipaddr.js';
import type { IncomingMessage } from 'node:http';
import type { Settings } from '../../config';

/** The key a client address is counted under by the per-address limits. */
export type AddressKey = (address: string) => string;

/** An IPv4 address as a socket gives it, its own key: parsed, it would come out as it went in. */
const CANONICAL_IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/**
 * One IPv6 subscriber is handed a whole prefix (a /64 at least, RFC 6177): counted per address, it
 * would hold 2^64 buckets of every limit. IPv6 addresses are counted per prefix of
 * `IPV6_PREFIX_BITS` bits; an IPv4 address (an IPv4-mapped one too) by itself.
 */
export function addressKeyOf(settings: Pick<Settings, 'IPV6_PREFIX_BITS'>): AddressKey {
  const bits = settings.IPV6_PREFIX_BITS;
  return (address) => {
    // Every refused partner call asks this: parsing took a twentieth of a 401's CPU.
    if (CANONICAL_IPV4.test(address)) return address;
    if (!ipaddr.isValid(address)) return address;
    const ip = ipaddr.process(address);
    if (ip.kind() === 'ipv4') return ip.toString();
    return `${ipaddr.IPv6.networkAddressFromCIDR(`${ip.toString()}/${bits}`).toString()}/${bits}`;
  };
}

/**
 * The client address of a request koa never sees (the partner lane's), as koa's `ctx.ip` gives it
 * (createHttpApp: `app.proxy` TRUST_PROXY, `maxIpsCount` 1): behind the proxy, the last
 * X-Forwarded-For entry, the one it appended; else the peer's.
 */
export function clientAddressOf(trustProxy: boolean): (req: IncomingMessage) => string {
  return (req) => {
    const forwarded = trustProxy ? req.headers['x-forwarded-for'] : undefined;
    const last = typeof forwarded === 'string' ? forwarded.split(/\s*,\s*/).at(-1) : undefined;
    return last || req.socket.remoteAddress || '';
  };
}
