// What the slices registered, as the service composes it: for tests of how events are told.
export { REGISTRY } from '../../src/compose';
