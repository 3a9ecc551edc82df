import type { Registry } from '../../src/shared/slice';
import { useEventCodecs } from '../../src/shared/domain/events';

// Every test file starts as the service does: with the events every slice registered installed in
// the kernel (src/compose.ts), so a command or projection under test decodes what it reads. The
// composition is loaded apart from the test's own modules, so that a test that mocks a library
// (argon2, say) still gets its mock in every module it then imports.
let registry: Registry | undefined;
jest.isolateModules(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded inside the isolated registry; see above
  registry = (require('../../src/compose') as typeof import('../../src/compose')).REGISTRY;
});
useEventCodecs(registry!.events);
