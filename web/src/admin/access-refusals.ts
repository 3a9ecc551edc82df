import type { Refusal } from '../api/client';

/** What a refusal of the escalation rule (docs/administrators.md, "No escalation") is about. */
export interface Addressing {
  /** The permissions the change would grant, or that the one addressed holds. */
  permissions: readonly string[];
  /** The permissions the signed-in administrator holds. */
  held: ReadonlySet<string>;
  /** Who or what is addressed, as the screen names it: "carol", "the role group Auditors". */
  whom: string;
}

const listed = (names: string[]): string =>
  names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;

/**
 * The refusals of who may grant what, in the console's words: each names what is not held, as
 * the screen knows it, so the reader learns whom to ask rather than a rule's name.
 */
export function inAccessWords(refusal: Refusal, { permissions, held, whom }: Addressing): Refusal {
  const missing = permissions.filter((p) => !held.has(p));
  switch (refusal.error) {
    case 'permission_not_held':
      if (missing.length === 0) return refusal;
      return {
        ...refusal,
        message: `You do not hold ${listed(missing)}, which ${whom} would give or holds: ask an administrator who holds ${missing.length === 1 ? 'it' : 'them'}, or a super administrator.`,
      };
    case 'super_admin_only':
      return {
        ...refusal,
        message: `Only a super administrator can do this to ${whom}: a super administrator, or one a super administrator disabled.`,
      };
    case 'own_account':
      return {
        ...refusal,
        message:
          'This is your own account: another administrator disables, enables or resets it; change your password under Your account.',
      };
    default:
      return refusal;
  }
}

/** The refusals of a name that is taken or reads like one taken, and the field each belongs at. */
const NAME_TAKEN: Readonly<Record<string, string>> = {
  role_group_name_taken: 'name',
  admin_username_taken: 'username',
};

/**
 * A name refused as taken, or as reading like one taken (docs/administrators.md, "Names"), shown
 * at its field: the service's words name the look-alike; the console adds why two names that
 * differ are one, as a reader who typed a Cyrillic letter or "rn" cannot see it.
 */
export function atTheName(refusal: Refusal): Refusal {
  const field = NAME_TAKEN[refusal.error];
  if (field === undefined || refusal.issues.length > 0) return refusal;
  const message = `${refusal.message}. Names are compared as they read, case aside: letters that look alike, such as a Cyrillic А and a Latin A, "rn" and "m", "0" and "O", count as the same.`;
  return { ...refusal, issues: [{ path: field, message }] };
}
