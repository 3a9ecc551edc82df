import { Answer, expectRefusal as refusal, startPlatform, TestPlatform } from './platform';

/**
 * One platform for the tests of a file, with default settings: call useFilePlatform() at the top of
 * the file; `t` holds the platform once its beforeAll has run (jest gives each file its own copy of
 * this module).
 */
export let t: TestPlatform;

export function useFilePlatform(): void {
  beforeAll(async () => {
    t = await startPlatform();
  });
  afterAll(() => t.close());
}

/** expectRefusal from ./platform, on this file's platform. */
export const expectRefusal = (send: () => PromiseLike<Answer>, status: number, error: string) =>
  refusal(t, send, status, error);
