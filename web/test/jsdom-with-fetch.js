// jsdom has no fetch: the console's client gets Node's own, which tests replace per call.
const { TestEnvironment } = require('jest-environment-jsdom');

class JsdomWithFetch extends TestEnvironment {
  async setup() {
    await super.setup();
    Object.assign(this.global, { fetch, Request, Response, Headers, TextEncoder, TextDecoder });
  }
}

module.exports = JsdomWithFetch;
