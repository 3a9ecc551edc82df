// Every test file starts as the service does: with the events every slice registered installed in
// the kernel (src/compose.ts), so a command or projection under test decodes what it reads.
export { REGISTRY } from '../../src/compose';
