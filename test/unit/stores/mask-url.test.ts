import { maskUrl } from '../../../src/stores/mask-url';

describe('maskUrl: store URLs as logs and messages show them', () => {
  it.each([
    ['mongodb://app:p%40ss@mongo1,mongo2/platform?replicaSet=rs0', 'mongodb://mongo1,mongo2/platform?replicaSet=rs0'],
    ['mongodb://app:p@ss@mongo1/platform', 'mongodb://mongo1/platform'],
    ['mongodb+srv://app:pw@cluster.example.com/platform', 'mongodb+srv://cluster.example.com/platform'],
    ['esdb://admin:changeit@localhost:2113?tls=false', 'esdb://localhost:2113?tls=false'],
    ['kurrentdb://localhost:2113?tls=false', 'kurrentdb://localhost:2113?tls=false'],
  ])('drops the user name and password: %s', (url, shown) => {
    expect(maskUrl(url)).toBe(shown);
  });

  it.each([
    ['authMechanismProperties', 'AWS_SESSION_TOKEN:FQoGZXIvYXdzE'],
    ['tlsCertificateKeyFilePassword', 'key-pass'],
    ['sslPass', 'key-pass'],
    ['proxyPassword', 'proxy-pass'],
    ['password', 'plain'],
    ['AUTHMECHANISMPROPERTIES', 'TOKEN_RESOURCE:api://x'],
    ['auth_mechanism_properties', 'x:y'],
  ])('masks the value of %s, and keeps every other option as it is', (option, secret) => {
    const shown = maskUrl(`mongodb://u:p@h/platform?tls=true&${option}=${encodeURIComponent(secret)}&replicaSet=rs0`);
    expect(shown).toBe(`mongodb://h/platform?tls=true&${option}=***&replicaSet=rs0`);
    expect(shown).not.toContain(encodeURIComponent(secret));
  });

  it('keeps options that name a file, not a secret', () => {
    expect(maskUrl('mongodb://h/p?tlsCertificateKeyFile=/run/secrets/key.pem&tlsCAFile=/ca.pem')).toBe(
      'mongodb://h/p?tlsCertificateKeyFile=/run/secrets/key.pem&tlsCAFile=/ca.pem',
    );
  });
});
