import { DomainError } from '../shared/domain/decider';
import { memberGroupDecider, memberGroupStream } from './member-group';
import { roleGroupDecider, roleGroupStream } from './role-group';
import { SHELL } from './grantor';
import { EventStore, WrongExpectedVersion } from '../stores/ports';
import { createAdmin } from './admins';
import { appendDecided, CommandContext, streamEnd } from '../shared/commands/context';
import { createStream } from '../shared/commands/handle';
import { oneTimePassword, PasswordHasher } from '../member';
import { adminStream } from './admin';
import { claimName } from '../shared/commands/name-claims';
import { ADMIN_NAMES, adminUsernameTaken } from './names';

/** Its one event says the first start's seeding finished; later starts skip it. */
const SEED_STREAM = 'platform-seed';
const SEED_ADMIN_USERNAME = 'admin';

/** Something another process (or an earlier, interrupted start) already created is left alone. */
async function unlessExists(create: () => Promise<unknown>): Promise<void> {
  try {
    await create();
  } catch (err) {
    if (err instanceof WrongExpectedVersion) return;
    if (err instanceof DomainError && err.error === 'admin_username_taken') return;
    throw err;
  }
}

/** Whether an earlier start finished seeding: its last step writes the one event of SEED_STREAM. */
async function seeded(store: EventStore): Promise<boolean> {
  return (await store.readStream(SEED_STREAM, { maxCount: 1 })).length > 0;
}

/**
 * The seeded `admin` of a store seeded before names were claimed (./names.ts) holds no key, and
 * `adrnin` would pass beside it: its name is claimed at every start, which costs a read of its
 * keys once it holds them. A look-alike created meanwhile keeps its own claim; nothing is refused.
 */
async function claimSeededAdmin(store: EventStore, ctx: CommandContext): Promise<void> {
  const claimant = adminStream(SEED_ADMIN_USERNAME);
  if ((await store.readStream(claimant, { maxCount: 1 })).length === 0) return;
  await claimName(
    store,
    ADMIN_NAMES,
    { name: SEED_ADMIN_USERNAME, claimant },
    ctx,
    adminUsernameTaken(SEED_ADMIN_USERNAME),
  ).catch((err: unknown) => {
    if (!(err instanceof DomainError)) throw err;
  });
}

/**
 * First start on an empty store (docs/application-center.md): role groups 1 Operators and 2 Auditors, member group
 * 1 Default, and the super administrator `admin`. Each step is idempotent on its own stream, so
 * several instances starting together, or a start interrupted half-way, seed exactly once.
 * Answers the generated password when this call created `admin` without ADMIN_PASSWORD. The role
 * groups' permissions must be among those `registered` (REGISTRY.permissions).
 */
export async function seedPlatform(
  store: EventStore,
  hasher: PasswordHasher,
  adminPassword: string | undefined,
  adminEmail: string | undefined,
  ctx: CommandContext,
  registered: readonly string[],
): Promise<{ generatedAdminPassword: string | null }> {
  await seedGroups(store, ctx, registered);
  return seedSuperAdministrator(store, hasher, adminPassword, adminEmail, ctx);
}

const SEED_ROLE_GROUPS = [
  { role_id: 1, name: 'Operators', permissions: ['addon.view', 'addon.manage', 'credential.review'] },
  { role_id: 2, name: 'Auditors', permissions: ['addon.view', 'audit.read'] },
];

/** The first start's groups, without `admin`: the API creates it once it answers (seedSuperAdministrator). */
export async function seedGroups(store: EventStore, ctx: CommandContext, registered: readonly string[]): Promise<void> {
  if (await seeded(store)) return;
  for (const data of SEED_ROLE_GROUPS) {
    await unlessExists(() =>
      createStream(
        store,
        roleGroupStream(data.role_id),
        roleGroupDecider,
        { type: 'DefineRoleGroup', data, registered, taken: [], by: SHELL },
        ctx,
      ),
    );
  }
  await unlessExists(() =>
    createStream(
      store,
      memberGroupStream(1),
      memberGroupDecider,
      {
        type: 'DefineMemberGroup',
        data: { member_group_id: 1, name: 'Default', description: 'Members not placed in another group' },
      },
      ctx,
    ),
  );
}

/**
 * The super administrator `admin`, then the event that ends seeding. A start that failed before it
 * got here created no `admin`, so the next start creates it and shows its generated password: the
 * one nobody saw is never made.
 */
export async function seedSuperAdministrator(
  store: EventStore,
  hasher: PasswordHasher,
  adminPassword: string | undefined,
  adminEmail: string | undefined,
  ctx: CommandContext,
): Promise<{ generatedAdminPassword: string | null }> {
  if (await seeded(store)) {
    await claimSeededAdmin(store, ctx);
    return { generatedAdminPassword: null };
  }
  const password = adminPassword ?? oneTimePassword();
  let created = false;
  await unlessExists(async () => {
    await createAdmin(
      store,
      hasher,
      { username: SEED_ADMIN_USERNAME, password, is_super: true, role_id: null, email: adminEmail ?? null },
      SHELL,
      ctx,
    );
    created = true;
  });
  await unlessExists(() =>
    appendDecided(store, SEED_STREAM, [{ type: 'PlatformSeeded', data: {} }], ctx, streamEnd(undefined)),
  );
  return { generatedAdminPassword: created && adminPassword === undefined ? password : null };
}
