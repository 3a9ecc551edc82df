import { ConfigurationError, parseSettings } from '../../src/config';
import { tooManyRequests } from '../../src/shared/http/too-many-requests';
import { anonymousSessionPolicy } from '../../src/shared/http/address-limits';

describe('a 429', () => {
  it('says when to retry in whole seconds, rounded up, in the message and in Retry-After', () => {
    const refusal = tooManyRequests('rate_limited', 'over the limit', 1001);
    expect(refusal).toMatchObject({
      status: 429,
      error: 'rate_limited',
      message: 'over the limit: retry in 2 s',
      headers: { 'Retry-After': '2' },
    });
  });

  it('says a long wait in minutes, rounded up, and keeps Retry-After in seconds', () => {
    expect(tooManyRequests('rate_limited', 'over', 119_000)).toMatchObject({
      message: 'over: retry in 119 s',
      headers: { 'Retry-After': '119' },
    });
    expect(tooManyRequests('rate_limited', 'over', 899_500)).toMatchObject({
      message: 'over: retry in 15 min',
      headers: { 'Retry-After': '900' },
    });
    expect(tooManyRequests('rate_limited', 'over', 901_000)).toMatchObject({
      message: 'over: retry in 16 min',
      headers: { 'Retry-After': '901' },
    });
  });

  it('never says 0, which would invite a retry that is refused again', () => {
    expect(tooManyRequests('rate_limited', 'over', 0).headers).toEqual({ 'Retry-After': '1' });
    expect(tooManyRequests('rate_limited', 'over', 1).headers).toEqual({ 'Retry-After': '1' });
  });
});

describe('rate-limit settings', () => {
  it('default to the documented values', () => {
    expect(parseSettings({})).toMatchObject({
      OPEN_API_RATE_LIMIT: 6000,
      OPEN_API_RATE_WINDOW_SECONDS: 60,
      LOGIN_MAX_FAILURES: 5,
      LOGIN_FAILURE_WINDOW_SECONDS: 900,
      LOGIN_BLOCK_SECONDS: 900,
    });
  });

  it('refuse a limit or a window of 0, naming the variable', () => {
    for (const name of [
      'OPEN_API_RATE_LIMIT',
      'OPEN_API_RATE_WINDOW_SECONDS',
      'LOGIN_MAX_FAILURES',
      'LOGIN_FAILURE_WINDOW_SECONDS',
      'LOGIN_BLOCK_SECONDS',
    ]) {
      expect(() => parseSettings({ [name]: '0' })).toThrow(ConfigurationError);
      expect(() => parseSettings({ [name]: '0' })).toThrow(name);
    }
  });
});

describe('the anonymous-session limit', () => {
  it('counts over the life of an anonymous session, which is never longer than SESSION_IDLE_MINUTES', () => {
    expect(
      anonymousSessionPolicy(parseSettings({ SESSION_ANONYMOUS_MINUTES: '10', SESSION_IDLE_MINUTES: '120' }))
        .windowSeconds,
    ).toBe(600);
    expect(
      anonymousSessionPolicy(parseSettings({ SESSION_ANONYMOUS_MINUTES: '10', SESSION_IDLE_MINUTES: '2' }))
        .windowSeconds,
    ).toBe(120);
  });
});
