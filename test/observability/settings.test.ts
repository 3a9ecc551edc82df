import { parseSettings } from '../../src/config';

describe('metrics and trace settings', () => {
  it('listen on 127.0.0.1:9464 by default, and trace nowhere', () => {
    const settings = parseSettings({});
    expect(settings).toMatchObject({
      METRICS_PORT: 9464,
      METRICS_HOST: '127.0.0.1',
      OTEL_SERVICE_NAME: 'platform-api',
    });
    expect(settings.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
  });

  it('take a port, 0 for any free one, or off', () => {
    expect(parseSettings({ METRICS_PORT: '9100' }).METRICS_PORT).toBe(9100);
    expect(parseSettings({ METRICS_PORT: '0' }).METRICS_PORT).toBe(0);
    expect(parseSettings({ METRICS_PORT: 'off' }).METRICS_PORT).toBe('off');
  });

  it('refuse anything else, naming the variable and what it takes', () => {
    expect(() => parseSettings({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT: .*65535/);
    for (const value of ['none', '0x50', '-1'])
      expect(() => parseSettings({ METRICS_PORT: value })).toThrow(
        /METRICS_PORT: must be a port number, 0 for any free port, or off/,
      );
    expect(() => parseSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT: must be an http/,
    );
  });
});
