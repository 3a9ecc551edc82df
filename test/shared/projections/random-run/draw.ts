import { CommandContext } from '../../../../src/shared/commands/context';
import { PasswordHasher } from '../../../../src/member/passwords';
import { REGISTRY } from '../../../support/registry';
import { SCOPE_NAMES } from '../../../../src/credential/scopes';
import { Stores } from '../../../../src/stores/ports';
import { seededRandom } from '../../../unit/stores/seeded-random';

/**
 * What every step of a random run draws from: the seeded generator (and nothing else, so that
 * REBUILD_SEED replays a run), the command context's clock, and what the run has made so far.
 */
export type Draw = ReturnType<typeof draw>;

/** Argon2 costs 30 ms a hash; the members' passwords are not what this test is about. */
export const hasher: PasswordHasher = {
  hash: async (password) => `$argon2id$test$${password}`,
  verify: async (hash, password) => hash === `$argon2id$test$${password}`,
  verifyNothing: async () => false,
};

export interface Member {
  member_id: number;
  username: string;
}

export function draw(stores: Stores, seed: number) {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const chance = (p: number) => random() < p;
  let clock = Date.parse('2025-03-01T00:00:00.000Z');
  const ctx = (): CommandContext => {
    clock += Math.floor(random() * 600_000);
    return { actor: { kind: 'admin', id: 1 }, requestId: `req-${clock}`, now: new Date(clock) };
  };
  // One in five reasons breaks the rule (blank or over 500 characters).
  const reason = () =>
    chance(0.2) ? pick(['', '   ', 'r'.repeat(501)]) : pick(['policy', ' misuse ', 'asked by the member']);
  const anyScope = () => (chance(0.1) ? 'unknown.read' : pick(SCOPE_NAMES));
  const permissions = (): string[] =>
    REGISTRY.permissions.filter(() => chance(0.5)).concat(chance(0.1) ? ['root'] : []);
  return {
    stores,
    random,
    pick,
    chance,
    ctx,
    reason,
    anyScope,
    permissions,
    members: [] as Member[],
    adminNames: [] as string[],
    /** How many role groups the run defined, the two seeded ones included. */
    roleGroups: 2,
  };
}
