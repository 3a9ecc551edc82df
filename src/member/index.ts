// The member slice's public face: what other slices may use of it. Its registration is ./slice.ts.
export { memberReads } from './reads';
export { argon2Hasher, oneTimePassword, type PasswordHasher } from './passwords';
export { emailSchema, normaliseUsername, passwordSchema, USERNAME_PATTERN, usernameSchema } from './fields';
export { loginEndpoint } from './login-endpoint';
export {
  limitLoginFailures,
  pendingUsername,
  loginAddressPolicy,
  loginPolicy,
  passwordChangePolicy,
  resetPolicies,
} from './login-limit';
export { emailChangePolicy } from './email-change';
export { boundPasswordWork, passwordWorkBusy } from './password-work';
export { secondFactorEndpoints } from './second-factor/endpoints';
export type { SecondFactorDeps } from './second-factor/caller';
export { seedSealer, type SeedSealer } from './second-factor/sealer';
export { type PasskeyCheck, secondFactorStepSchema, signInAfterPassword } from './second-factor/sign-in';
export { secondFactorStream } from './second-factor/decider';
export type { SecondFactorEvent } from './second-factor/events';
