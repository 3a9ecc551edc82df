import ipaddr from 'ipaddr.js';
import type { Settings } from '../../config';

/** The key a client address is counted under by the per-address limits. */
export type AddressKey = (address: string) => string;

/**
 * One IPv6 subscriber is handed a whole prefix (a /64 at least, RFC 6177): counted per address, it
 * would hold 2^64 buckets of every limit. IPv6 addresses are counted per prefix of
 * `IPV6_PREFIX_BITS` bits; an IPv4 address (an IPv4-mapped one too) by itself.
 */
export function addressKeyOf(settings: Pick<Settings, 'IPV6_PREFIX_BITS'>): AddressKey {
  const bits = settings.IPV6_PREFIX_BITS;
  return (address) => {
    if (!ipaddr.isValid(address)) return address;
    const ip = ipaddr.process(address);
    if (ip.kind() === 'ipv4') return ip.toString();
    return `${ipaddr.IPv6.networkAddressFromCIDR(`${ip.toString()}/${bits}`).toString()}/${bits}`;
  };
}
