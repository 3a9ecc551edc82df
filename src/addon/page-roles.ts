import { z } from 'zod';
import { AddonPage, PAGE_ID_RULE, pageIdSchema } from './manifest';
import { DomainError } from '../shared/domain/decider';

/**
 * PageRoles (docs/application-center.md): per page of an add-on, the role groups that may view it and
 * those that may also operate it. This one schema validates the HTTP bodies, is the OpenAPI
 * component, and is refined with the add-on's pages and the role groups for the decider.
 */

function roleIds(field: 'view' | 'manage') {
  return z
    .array(
      z
        .int(`${field} holds role ids: integers of at least 1`)
        .min(1, `${field} holds role ids: integers of at least 1`),
      {
        error: `${field} is required and must be an array of role ids`,
      },
    )
    .superRefine((ids, ctx) => {
      const seen = new Set<number>();
      for (const id of ids) {
        if (seen.has(id)) ctx.addIssue({ code: 'custom', message: `role ${id} is listed twice in ${field}` });
        seen.add(id);
      }
    })
    .meta({ override: { uniqueItems: true } });
}

const pageAccessRulesSchema = z
  .strictObject(
    {
      view: roleIds('view').meta({ description: 'Role ids allowed to view the page' }),
      manage: roleIds('manage').meta({ description: 'Role ids allowed to operate the page; a subset of view' }),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `a page has exactly view and manage: remove ${issue.keys.join(', ')}`
          : 'each page maps to an object {view, manage}',
    },
  )
  .superRefine(({ view, manage }, ctx) => {
    for (const id of manage) {
      if (!view.includes(id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['manage'],
          message: `manage role ${id} is not in view: whoever operates a page must see it`,
        });
      }
    }
  })
  .meta({ description: 'Both empty: super administrators only' });

export const pageRolesSchema = z
  .record(pageIdSchema, pageAccessRulesSchema, {
    // A key that is no page id at all is no page of the add-on either; the others are told by coverPages.
    error: (issue) =>
      issue.code === 'invalid_key'
        ? `not a page id: ${PAGE_ID_RULE}`
        : 'page_roles must be an object mapping each page id to {view, manage}',
  })
  .refine((roles) => Object.keys(roles).length >= 1, 'page_roles must name at least one page')
  .meta({
    id: 'PageRoles',
    description: 'Every page of the add-on, each with the role ids that may view it and those that may also manage it',
    override: { minProperties: 1 },
  });

export type PageRoles = z.infer<typeof pageRolesSchema>;

/** What the decider knows of a role group. */
export interface RoleRef {
  id: number;
  enabled: boolean;
}

const listed = (pages: readonly AddonPage[]) => pages.map((p) => p.id).join(', ');

/** The whitelist names exactly these pages. */
function coverPages(pages: readonly AddonPage[]) {
  return (roles: PageRoles, ctx: z.RefinementCtx) => {
    const ids = new Set(pages.map((p) => p.id));
    for (const page of pages) {
      if (!Object.hasOwn(roles, page.id))
        ctx.addIssue({ code: 'custom', message: `page '${page.id}' is missing: name every page (${listed(pages)})` });
    }
    for (const page of Object.keys(roles)) {
      if (!ids.has(page))
        ctx.addIssue({
          code: 'custom',
          path: [page],
          message: `not a page of this add-on, whose pages are ${listed(pages)}`,
        });
    }
  };
}

const isRoleId = (id: number) => Number.isSafeInteger(id) && id >= 1;

/** Every role id names a role group that exists and is enabled (manage ⊆ view, so view covers both). */
function referenceEnabledRoles(groups: readonly RoleRef[]) {
  return (roles: PageRoles, ctx: z.RefinementCtx) => {
    const byId = new Map(groups.map((g) => [g.id, g]));
    for (const [page, { view }] of Object.entries(roles)) {
      // An id that is no role id at all was refused by the schema already.
      for (const id of view.filter(isRoleId)) {
        const group = byId.get(id);
        if (!group) ctx.addIssue({ code: 'custom', path: [page, 'view'], message: `role ${id} does not exist` });
        else if (!group.enabled)
          ctx.addIssue({
            code: 'custom',
            path: [page, 'view'],
            message: `role ${id} is disabled: enable it or leave it out`,
          });
      }
    }
  };
}

/** A whitelist naming exactly these pages. */
export function pageRolesCovering(pages: readonly AddonPage[]) {
  return pageRolesSchema.superRefine(coverPages(pages));
}

/** The whitelist an add-on with these pages may be given, with the role groups as they are now. */
export function pageRolesFor(pages: readonly AddonPage[], groups: readonly RoleRef[]) {
  return pageRolesCovering(pages).superRefine(referenceEnabledRoles(groups));
}

/** Each problem of a refused whitelist in words, naming the page it is about. */
export function pageRolesProblems(error: z.ZodError): string[] {
  return error.issues.map(({ path, message }) => {
    const [page, ...field] = path.map(String);
    if (page === undefined) return message;
    return `page '${page}'${field.length > 0 ? ` ${field.join('.')}` : ''}: ${message}`;
  });
}

/** The first problems as issues of the request body, whose field is page_roles. */
function pageRolesIssues(error: z.ZodError, listed: number): { path: string; message: string }[] {
  return error.issues
    .slice(0, listed)
    .map(({ path, message }) => ({ path: ['page_roles', ...path.map(String)].join('.'), message }));
}

/** Problems named in one refusal: a whitelist of thousands of bad pages must not draw an answer of megabytes. */
export const LISTED_PROBLEMS = 20;

/** The whitelist, or a DomainError listing its first problems and how many more, with the next step when there is one. */
export function checkPageRoles(
  schema: z.ZodType<PageRoles>,
  roles: unknown,
  error: string,
  preface: string,
  next?: string,
): PageRoles {
  const result = schema.safeParse(roles);
  if (result.success) return result.data;
  const problems = pageRolesProblems(result.error);
  const more = problems.length - LISTED_PROBLEMS;
  const listed = problems.slice(0, LISTED_PROBLEMS).join('; ');
  const issues = pageRolesIssues(result.error, LISTED_PROBLEMS);
  throw new DomainError(error, `${preface}: ${listed}${more > 0 ? `; and ${more} more problems` : ''}`, next, issues);
}

/** Who opens an add-on's pages: a super administrator, or a member of one role group (enabled or not). */
export interface Viewer {
  is_super: boolean;
  role_id: number | null;
  role_enabled: boolean;
}

export interface VisiblePage extends AddonPage {
  can_manage: boolean;
}

/**
 * The pages a viewer may open (docs/application-center.md): super administrators every page, and operate them all;
 * anyone else the pages whose view holds their role, operating those whose manage holds it too.
 * A page with empty view and manage is therefore for super administrators only, and a disabled
 * role group opens nothing.
 */
export function visiblePages(pages: readonly AddonPage[], roles: PageRoles, viewer: Viewer): VisiblePage[] {
  if (viewer.is_super) return pages.map((page) => ({ ...page, can_manage: true }));
  const role = viewer.role_enabled ? viewer.role_id : null;
  if (role === null) return [];
  return pages.flatMap((page) => {
    const rules = roles[page.id];
    return rules?.view.includes(role) ? [{ ...page, can_manage: rules.manage.includes(role) }] : [];
  });
}
