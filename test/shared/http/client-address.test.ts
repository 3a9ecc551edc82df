import { addressKeyOf } from '../../../src/shared/http/client-address';

describe('the key a client address is counted under', () => {
  const key = addressKeyOf({ IPV6_PREFIX_BITS: 64 });

  it('counts every address of an IPv6 /64 as one', () => {
    expect(key('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(key('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(key('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });

  it('counts an IPv4 address, mapped into IPv6 or not, by itself', () => {
    expect(key('192.0.2.7')).toBe('192.0.2.7');
    expect(key('::ffff:192.0.2.7')).toBe('192.0.2.7');
  });

  it('counts an IPv4 address written another way (octal, hexadecimal parts) as the address it names', () => {
    expect(key('0300.0.2.07')).toBe('192.0.2.7');
    expect(key('0xc0.0.2.7')).toBe('192.0.2.7');
    expect(key('255.255.255.255')).toBe('255.255.255.255');
  });

  it('takes the prefix length from IPV6_PREFIX_BITS', () => {
    expect(addressKeyOf({ IPV6_PREFIX_BITS: 56 })('2001:db8:1:2ff::1')).toBe('2001:db8:1:200::/56');
    expect(addressKeyOf({ IPV6_PREFIX_BITS: 128 })('2001:db8::1')).toBe('2001:db8::1/128');
  });
});
