import { optionsOf } from '../../bench/compare-settings';

describe('bench/compare-settings variants', () => {
  it('reads settings, Node options and a built checkout from one argument', () => {
    expect(optionsOf('/tmp/earlier,LOG_LEVEL=silent,--single-threaded-gc,PUBLIC_URL=http://x/?a=b')).toEqual({
      env: { LOG_LEVEL: 'silent', PUBLIC_URL: 'http://x/?a=b' },
      nodeArgs: ['--single-threaded-gc'],
      root: '/tmp/earlier',
    });
    expect(optionsOf('LOG_LEVEL=info')).toEqual({ env: { LOG_LEVEL: 'info' }, nodeArgs: [] });
  });

  it('refuses an empty term, which would otherwise measure the default twice', () => {
    expect(() => optionsOf('LOG_LEVEL=info,')).toThrow('has an empty term');
  });
});
