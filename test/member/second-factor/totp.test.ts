import { generate, stringToBytes } from 'otplib';
import { totpStepOf } from '../../../src/member/second-factor/totp';
import { recoveryCodeDigest, newRecoveryCodes } from '../../../src/member/second-factor/recovery-codes';

describe("the TOTP verifier's core", () => {
  it('gives RFC 6238\'s published SHA-1 test vectors at 8 digits (seed "12345678901234567890")', async () => {
    const seed = stringToBytes('12345678901234567890');
    // RFC 6238, Appendix B: T=59 → 94287082, T=1111111109 → 07081804, T=2000000000 → 69279037.
    expect(await totpStepOf(seed, '94287082', 59, 8)).toBe(1);
    expect(await totpStepOf(seed, '07081804', 1111111109, 8)).toBe(37037036);
    expect(await totpStepOf(seed, '69279037', 2000000000, 8)).toBe(66666666);
    expect(await totpStepOf(seed, '94287083', 59, 8)).toBeNull();
  });

  it('accepts the step either side of the clock and refuses two steps away', async () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const now = 1_800_000_015; // a clock set by the test: step 60000000, 15 s into it
    const at = (epoch: number) => generate({ secret, epoch });
    expect(await totpStepOf(secret, await at(now), now)).toBe(60_000_000);
    expect(await totpStepOf(secret, await at(now - 30), now)).toBe(59_999_999);
    expect(await totpStepOf(secret, await at(now + 30), now)).toBe(60_000_001);
    expect(await totpStepOf(secret, await at(now - 60), now)).toBeNull();
    expect(await totpStepOf(secret, await at(now + 60), now)).toBeNull();
    expect(await totpStepOf(secret, 'abcdef', now)).toBeNull();
    expect(await totpStepOf(secret, '12345', now)).toBeNull();
  });

  it('gives 10 distinct recovery codes, compared without case or dashes', () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    expect(codes[0]).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect(recoveryCodeDigest(codes[0]!.toUpperCase().replace(/-/g, ' '))).toBe(recoveryCodeDigest(codes[0]!));
  });
});
