// The credential slice's public face: what other slices may use of it. Its registration is ./slice.ts.
export type { CredentialEvent } from './events';
export { credentialStream, CREDENTIAL_STATUSES } from './decider';
export { isExpiredAt } from './expiry';
export { scopeStatusAfter } from './scope-lifecycle';
export { credentialReads } from './reads';
export { credentialsProjection } from './projections/credentials';
export { credentialSchema, credentialView, scopeSchema, type CredentialDocument } from './views';
export { partnerGate, requireScope } from './endpoints/partner-guard';
export { UsageLedger } from './usage/ledger';
export { apiKeysProjection } from './projections/api-keys';
export type { LeakReporting } from './endpoints/leaks';
export { scanningKeysFromFile, scanningKeysFromUrl } from './leaks/github-keys';
export { leakReporting, UNSIGNED_POSTS } from './leaks/reporting';
export { SCOPE_NAMES } from './scopes';
