// jsdom has no fetch: the console's client gets Node's own, which tests replace per call. Nor has
// it WebCrypto's subtle: the console checks the audit proof with it, as browsers do, with Node's.
const { TestEnvironment } = require('jest-environment-jsdom');

class JsdomWithFetch extends TestEnvironment {
  async setup() {
    await super.setup();
    Object.assign(this.global, { fetch, Request, Response, Headers, TextEncoder, TextDecoder });
    Object.defineProperty(this.global, 'crypto', { value: require('node:crypto').webcrypto, configurable: true });
  }
}

module.exports = JsdomWithFetch;
