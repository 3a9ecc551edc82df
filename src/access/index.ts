// The access slice's public face: what other slices may use of it. Its registration is ./slice.ts.
export { holdsPermission, permissionsHeld } from './permissions';
export { accessReads } from './reads';
export type { AdminDocument } from './projections/admins';
export type { RoleGroupDocument } from './projections/groups';
export { adminIdentitySchema, roleGroupSchemas } from './schemas';
export { requireAdmin } from './require-admin';
export { seedGroups, seedPlatform, seedSuperAdministrator } from './seed';
export { SIGN_IN_FAILED_COUNT, SignInFailures } from './sign-in-failures';
