import fc from 'fast-check';
import { AddonPage } from '../../src/addon/manifest';
import { pageRolesFor, pageRolesProblems, PageRoles, pageRolesSchema, RoleRef } from '../../src/addon/page-roles';

/**
 * Properties of the PageRoles rules: every whitelist built by the
 * rules is accepted, and breaking any one rule on any page is refused with a problem naming it.
 */

interface Scenario {
  pages: AddonPage[];
  groups: RoleRef[];
  whitelist: PageRoles;
}

const pageId = fc.stringMatching(/^[a-z][a-z0-9_-]{0,11}$/);

const pagesArb = fc
  .uniqueArray(pageId, { minLength: 1, maxLength: 6 })
  .map((ids) => ids.map((id) => ({ id, title: `Page ${id}` })));

// Role ids up to 40, so that ids outside the groups remain to be picked as unknown ones.
const groupsArb = fc.uniqueArray(fc.record({ id: fc.integer({ min: 1, max: 40 }), enabled: fc.boolean() }), {
  selector: (g) => g.id,
  maxLength: 10,
});

function whitelistArb(pages: AddonPage[], groups: RoleRef[]): fc.Arbitrary<PageRoles> {
  const enabled = groups.filter((g) => g.enabled).map((g) => g.id);
  const rules = fc
    .shuffledSubarray(enabled)
    .chain((view) => fc.shuffledSubarray(view).map((manage) => ({ view, manage })));
  return fc
    .tuple(...pages.map(() => rules))
    .map((entries) => Object.fromEntries(pages.map((page, i) => [page.id, entries[i]!])));
}

const scenarioArb: fc.Arbitrary<Scenario> = fc
  .record({ pages: pagesArb, groups: groupsArb })
  .chain(({ pages, groups }) => whitelistArb(pages, groups).map((whitelist) => ({ pages, groups, whitelist })));

/** A scenario and one of its pages, to break. */
const onePageArb = scenarioArb.chain((s) =>
  fc.constantFrom(...s.pages.map((p) => p.id)).map((page) => ({ ...s, page })),
);

function problemsOf(s: Pick<Scenario, 'pages' | 'groups'>, whitelist: unknown): string[] {
  const result = pageRolesFor(s.pages, s.groups).safeParse(whitelist);
  return result.success ? [] : pageRolesProblems(result.error);
}

/** Refused, with at least one problem that names the page. */
function expectRefusedNaming(problems: string[], page: string, about: RegExp): void {
  expect(problems.length).toBeGreaterThan(0);
  expect(problems.filter((p) => p.includes(`page '${page}'`) && about.test(p))).not.toEqual([]);
}

const clone = (whitelist: PageRoles): PageRoles => structuredClone(whitelist);

describe('PageRoles', () => {
  it('accepts every whitelist that names each page once, with enabled role groups and manage within view', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        expect(problemsOf(s, s.whitelist)).toEqual([]);
        expect(pageRolesSchema.parse(s.whitelist)).toEqual(s.whitelist);
      }),
    );
  });

  it('refuses a whitelist missing a page', () => {
    fc.assert(
      fc.property(onePageArb, (s) => {
        const whitelist = clone(s.whitelist);
        delete whitelist[s.page];
        expectRefusedNaming(problemsOf(s, whitelist), s.page, /missing/);
      }),
    );
  });

  it('refuses a page the add-on does not have', () => {
    fc.assert(
      fc.property(
        scenarioArb.chain((s) =>
          pageId.filter((id) => !s.pages.some((p) => p.id === id)).map((extra) => ({ ...s, extra })),
        ),
        (s) => {
          const whitelist = { ...clone(s.whitelist), [s.extra]: { view: [], manage: [] } };
          expectRefusedNaming(problemsOf(s, whitelist), s.extra, /not a page of this add-on/);
        },
      ),
    );
  });

  it('refuses a property beside view and manage', () => {
    const extraKey = fc.stringMatching(/^[a-z_]{1,10}$/).filter((k) => k !== 'view' && k !== 'manage');
    fc.assert(
      fc.property(onePageArb, extraKey, fc.jsonValue(), (s, key, value) => {
        const whitelist = clone(s.whitelist) as Record<string, Record<string, unknown>>;
        // An own property, as JSON.parse makes it, even when the key is __proto__.
        Object.defineProperty(whitelist[s.page]!, key, { value, enumerable: true, configurable: true, writable: true });
        expectRefusedNaming(problemsOf(s, whitelist), s.page, new RegExp(`exactly view and manage: remove ${key}`));
      }),
    );
  });

  it('refuses a manage role that is not in view', () => {
    fc.assert(
      fc.property(onePageArb, fc.integer({ min: 1, max: 60 }), (s, role) => {
        const whitelist = clone(s.whitelist);
        const rules = whitelist[s.page]!;
        fc.pre(!rules.view.includes(role));
        rules.manage.push(role);
        expectRefusedNaming(problemsOf(s, whitelist), s.page, new RegExp(`manage role ${role} is not in view`));
      }),
    );
  });

  it('refuses a role id listed twice in view or in manage', () => {
    fc.assert(
      fc.property(onePageArb, fc.constantFrom('view', 'manage' as const), (s, field) => {
        const whitelist = clone(s.whitelist);
        const ids = whitelist[s.page]![field];
        fc.pre(ids.length > 0);
        ids.push(ids[0]!);
        expectRefusedNaming(problemsOf(s, whitelist), s.page, new RegExp(`role ${ids[0]} is listed twice in ${field}`));
      }),
    );
  });

  it('refuses a role id that is not an integer of at least 1', () => {
    const notARoleId = fc.oneof(fc.integer({ max: 0 }), fc.double({ noInteger: true }), fc.string());
    fc.assert(
      fc.property(onePageArb, fc.constantFrom('view', 'manage'), notARoleId, (s, field, bad) => {
        const whitelist = clone(s.whitelist) as Record<string, Record<string, unknown[]>>;
        whitelist[s.page]![field]!.push(bad);
        expectRefusedNaming(problemsOf(s, whitelist), s.page, /role ids: integers of at least 1/);
      }),
    );
  });

  it('refuses a role group that does not exist', () => {
    fc.assert(
      fc.property(onePageArb, fc.integer({ min: 1, max: 60 }), (s, role) => {
        fc.pre(!s.groups.some((g) => g.id === role));
        const whitelist = clone(s.whitelist);
        whitelist[s.page]!.view.push(role);
        expectRefusedNaming(problemsOf(s, whitelist), s.page, new RegExp(`role ${role} does not exist`));
      }),
    );
  });

  it('refuses a disabled role group', () => {
    fc.assert(
      fc.property(onePageArb, (s) => {
        const disabled = s.groups.filter((g) => !g.enabled);
        fc.pre(disabled.length > 0);
        const role = disabled[0]!.id;
        const whitelist = clone(s.whitelist);
        whitelist[s.page]!.view.push(role);
        whitelist[s.page]!.manage.push(role);
        expectRefusedNaming(problemsOf(s, whitelist), s.page, new RegExp(`role ${role} is disabled`));
      }),
    );
  });

  it('refuses a whitelist with no page at all, whatever the add-on', () => {
    expect(pageRolesSchema.safeParse({}).success).toBe(false);
    fc.assert(
      fc.property(scenarioArb, (s) => expect(problemsOf(s, {})).toContain('page_roles must name at least one page')),
    );
  });
});
