// The audit slice's public face. Its registration is ./slice.ts.
export { historyCommand } from './cli-history';
