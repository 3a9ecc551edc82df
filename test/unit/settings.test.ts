import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError, parseSettings } from '../../src/config';

describe('ADMIN_PASSWORD', () => {
  it('is unset by default and when blank, as docker compose passes an unset variable', () => {
    expect(parseSettings({}).ADMIN_PASSWORD).toBeUndefined();
    expect(parseSettings({ ADMIN_PASSWORD: '' }).ADMIN_PASSWORD).toBeUndefined();
  });

  it('is taken when it follows the password rules', () => {
    expect(parseSettings({ ADMIN_PASSWORD: 'change-me-now' }).ADMIN_PASSWORD).toBe('change-me-now');
  });

  it('stops the start with a message naming the variable, never echoing the value', () => {
    let caught: unknown;
    try {
      parseSettings({ ADMIN_PASSWORD: 'abc12' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigurationError);
    expect((caught as Error).message).toMatch(/ADMIN_PASSWORD: password must be at least 6 characters/);
    expect((caught as Error).message).not.toContain('abc12');
  });
});

describe('numeric settings', () => {
  it('take their default when blank, as any unset variable', () => {
    expect(
      parseSettings({ PORT: '', READ_WAIT_MS: '', KEY_RING_MAX_STALENESS_MS: '', SHUTDOWN_GRACE_MS: '' }),
    ).toMatchObject({
      PORT: 3000,
      READ_WAIT_MS: 2000,
      KEY_RING_MAX_STALENESS_MS: 5000,
      SHUTDOWN_GRACE_MS: 10_000,
    });
  });

  it('read decimal digits, and fractions where the setting takes them', () => {
    expect(
      parseSettings({
        PORT: '8080',
        SESSION_IDLE_MINUTES: '0.5',
        ADMIN_DIGEST_MINUTES: '2.5',
        EXPIRY_REMINDER_DAYS: '14,3',
      }),
    ).toMatchObject({
      PORT: 8080,
      SESSION_IDLE_MINUTES: 0.5,
      ADMIN_DIGEST_MINUTES: 2.5,
      EXPIRY_REMINDER_DAYS: [14, 3],
    });
  });

  it.each([
    ['PORT', '0x50', 'must be a whole number, in digits'],
    ['PORT', '1e3', 'must be a whole number, in digits'],
    ['PORT', ' 80', 'must be a whole number, in digits'],
    ['PORT', '65536', 'Too big: expected number to be <=65535'],
    ['READ_WAIT_MS', '2.5', 'must be a whole number, in digits'],
    ['SESSION_IDLE_MINUTES', '.5', 'must be a number in digits, such as 30 or 0.5'],
    ['KEY_LIFETIME_DAYS', '-1', 'must be a whole number, in digits'],
    ['EXPIRY_REMINDER_DAYS', '1e1', 'must be whole numbers of days in digits, separated by commas'],
    ['EXPIRY_REMINDER_DAYS', '0x1e', 'must be whole numbers of days in digits, separated by commas'],
    ['EXPIRY_REMINDER_DAYS', '30, 7', 'must be whole numbers of days in digits, separated by commas'],
    ['EXPIRY_REMINDER_DAYS', 'abc', 'must be whole numbers of days in digits, separated by commas'],
    ['EXPIRY_REMINDER_DAYS', '30,7,7', 'names a day twice'],
    ['PROJECTOR_LEASE_MS', '99', 'Too small: expected number to be >=100'],
    ['PROJECTOR_LEASE_MS', '600001', 'Too big: expected number to be <=600000'],
  ])('stop the start on %s=%p, naming the variable', (name, value, said) => {
    expect(() => parseSettings({ [name]: value })).toThrow(ConfigurationError);
    expect(() => parseSettings({ [name]: value })).toThrow(`${name}: ${said}`);
  });

  it('give the projector lease 10 s unless set', () => {
    expect(parseSettings({}).PROJECTOR_LEASE_MS).toBe(10_000);
    expect(parseSettings({ PROJECTOR_LEASE_MS: '300' }).PROJECTOR_LEASE_MS).toBe(300);
  });

  it('refuse a reminder day of 0, naming the list item', () => {
    expect(() => parseSettings({ EXPIRY_REMINDER_DAYS: '30,0' })).toThrow(
      'EXPIRY_REMINDER_DAYS.1: Too small: expected number to be >=1',
    );
  });
});

describe('paths', () => {
  it('refuse a heartbeat file in a directory that does not exist, and an add-on directory named on purpose that does not', () => {
    for (const file of ['/nonexistent/dir/heartbeat', tmpdir(), `${__filename}/heartbeat`]) {
      expect(() => parseSettings({ HEARTBEAT_FILE: file })).toThrow(
        'HEARTBEAT_FILE: must be a file in a directory that exists',
      );
    }
    for (const dir of ['/nonexistent/addons', __filename])
      expect(() => parseSettings({ ADDONS_DIR: dir })).toThrow('ADDONS_DIR: not a directory (missing, or a file)');
    expect(parseSettings({ HEARTBEAT_FILE: join(tmpdir(), 'heartbeat'), ADDONS_DIR: tmpdir() })).toMatchObject({
      ADDONS_DIR: tmpdir(),
    });
  });

  it('take the default add-on directory even when it is missing: no add-ons then', () => {
    expect(parseSettings({ HEARTBEAT_FILE: '' }).ADDONS_DIR).toBe('./addons');
  });
});

describe('settings that bound one another, and the webhook key', () => {
  it('refuse a default key lifetime beyond MAX_KEY_LIFETIME_DAYS, and a header timeout beyond the request timeout', () => {
    expect(parseSettings({}).MAX_KEY_LIFETIME_DAYS).toBe(730);
    expect(() => parseSettings({ KEY_LIFETIME_DAYS: '800' })).toThrow(
      /KEY_LIFETIME_DAYS \(800\) is more than MAX_KEY_LIFETIME_DAYS \(730\)/,
    );
    expect(parseSettings({ KEY_LIFETIME_DAYS: '800', MAX_KEY_LIFETIME_DAYS: '800' }).KEY_LIFETIME_DAYS).toBe(800);
    expect(() => parseSettings({ HEADERS_TIMEOUT_MS: '40000' })).toThrow(
      /HEADERS_TIMEOUT_MS \(40000\) is more than REQUEST_TIMEOUT_MS \(30000\)/,
    );
  });

  it('take WEBHOOK_SECRET_KEY only as 32 bytes in base64, never echoing it', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(parseSettings({ WEBHOOK_SECRET_KEY: key }).WEBHOOK_SECRET_KEY).toBe(key);
    const short = Buffer.alloc(16, 7).toString('base64');
    expect(() => parseSettings({ WEBHOOK_SECRET_KEY: short })).toThrow(ConfigurationError);
    expect(() => parseSettings({ WEBHOOK_SECRET_KEY: short })).not.toThrow(new RegExp(short.replace(/[+/=]/g, '.')));
  });

  it('read WEBHOOK_SECRET_KEY from WEBHOOK_SECRET_KEY_FILE, as the compose one-shot writes it, unless the variable is set', () => {
    const dir = mkdtempSync(join(tmpdir(), 'webhook-key-'));
    const file = join(dir, 'webhook-secret.key');
    const key = Buffer.alloc(32, 9).toString('base64');
    writeFileSync(file, `${key}\n`);
    expect(parseSettings({ WEBHOOK_SECRET_KEY_FILE: file }).WEBHOOK_SECRET_KEY).toBe(key);
    const exported = Buffer.alloc(32, 3).toString('base64');
    expect(parseSettings({ WEBHOOK_SECRET_KEY_FILE: file, WEBHOOK_SECRET_KEY: exported }).WEBHOOK_SECRET_KEY).toBe(
      exported,
    );
    expect(() => parseSettings({ WEBHOOK_SECRET_KEY_FILE: join(dir, 'missing.key') })).toThrow(
      /WEBHOOK_SECRET_KEY_FILE .*missing\.key cannot be read \(ENOENT\)/,
    );
    writeFileSync(file, 'too short');
    expect(() => parseSettings({ WEBHOOK_SECRET_KEY_FILE: file })).toThrow(
      /WEBHOOK_SECRET_KEY: must be 32 random bytes/,
    );
  });
});

describe('AUDIT_SIGNING_KEY_FILE', () => {
  const production = {
    EVENTSTORE_URL: 'kurrentdb://localhost:2113?tls=false',
    MONGODB_URL: 'mongodb://localhost:27017/platform',
  };

  it('defaults to the data directory on the embedded stores, where the first start creates it', () => {
    expect(parseSettings({ DATA_DIR: '/var/lib/platform' })).toMatchObject({
      AUDIT_SIGNING_KEY_FILE: join('/var/lib/platform', 'audit-signing-key.pem'),
      createAuditSigningKey: true,
    });
    expect(parseSettings({ AUDIT_SIGNING_KEY_FILE: '/keys/audit.pem' })).toMatchObject({
      AUDIT_SIGNING_KEY_FILE: '/keys/audit.pem',
      createAuditSigningKey: true,
    });
  });

  it('is required with the production stores, where every process reads the one key and none creates it', () => {
    for (const env of [production, { ...production, AUDIT_SIGNING_KEY_FILE: '' }]) {
      expect(() => parseSettings(env)).toThrow(ConfigurationError);
      expect(() => parseSettings(env)).toThrow(
        /set AUDIT_SIGNING_KEY_FILE with the production stores: the one Ed25519 key file .* every API instance and the projector read, created once with `platform audit key --create`/,
      );
    }
    expect(parseSettings({ ...production, AUDIT_SIGNING_KEY_FILE: '/keys/audit.pem' })).toMatchObject({
      AUDIT_SIGNING_KEY_FILE: '/keys/audit.pem',
      createAuditSigningKey: false,
    });
  });
});

describe('COOKIE_SECURE', () => {
  it('defaults to Secure when PUBLIC_URL is https, and not over plain http', () => {
    expect(parseSettings({ PUBLIC_URL: 'https://portal.example.com' }).COOKIE_SECURE).toBe(true);
    expect(parseSettings({ PUBLIC_URL: 'http://localhost:3000' }).COOKIE_SECURE).toBe(false);
    expect(parseSettings({}).COOKIE_SECURE).toBe(false);
  });

  it('is what it says when set, either way', () => {
    expect(parseSettings({ PUBLIC_URL: 'https://portal.example.com', COOKIE_SECURE: 'false' }).COOKIE_SECURE).toBe(
      false,
    );
    expect(parseSettings({ PUBLIC_URL: 'http://localhost:3000', COOKIE_SECURE: 'true' }).COOKIE_SECURE).toBe(true);
  });
});

describe('OTEL_TRUST_INCOMING_TRACE', () => {
  it("is off unless set: a caller's traceparent is only linked", () => {
    expect(parseSettings({}).OTEL_TRUST_INCOMING_TRACE).toBe(false);
    expect(parseSettings({ OTEL_TRUST_INCOMING_TRACE: 'true' }).OTEL_TRUST_INCOMING_TRACE).toBe(true);
  });
});
