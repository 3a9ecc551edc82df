import semver from 'semver';
import { z } from 'zod';

/**
 * An add-on's manifest, `addons/<key>/addon.json` (docs/application-center.md): what the operator ships and the
 * application center installs. Unknown fields are refused, so a misspelt one is reported at
 * start-up instead of being silently ignored.
 */

/** docs/rules.md, "Add-ons and page roles" and "Limits": 2 to 80 characters. */
export const ADDON_KEY_PATTERN = /^[a-z][a-z0-9_]{1,79}$/;

/** Page identifiers (docs/application-center.md, "The catalogue: manifests on disk"): a lower-case letter, then up to 63 of a-z, 0-9, '_', '-'. */
export const PAGE_ID_PATTERN = /^[a-z][a-z0-9_-]{0,63}$/;
export const PAGE_ID_RULE = "a page id is a lower-case letter, then up to 63 of a-z, 0-9, '_' and '-'";

export const addonKeySchema = z
  .string({ error: 'key must be a string' })
  .regex(
    ADDON_KEY_PATTERN,
    'key must match ^[a-z][a-z0-9_]{1,79}$: a lower-case letter, then 1 to 79 of a-z, 0-9 and _',
  )
  .meta({ description: 'The add-on key', example: 'helpdesk' });

export const pageIdSchema = z
  .string({ error: 'a page id must be a string' })
  .regex(PAGE_ID_PATTERN, PAGE_ID_RULE)
  .meta({ description: 'Page identifier, unique within its add-on', example: 'reports' });

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} is required and must be a string` })
    // Counted as served, without surrounding spaces: padding neither lets a longer text through
    // nor takes out of the catalogue a manifest whose text is within the rule.
    .trim()
    .min(1, `${field} must not be empty`)
    .max(max, `${field} must be at most ${max} characters`);

export const addonPageSchema = z.strictObject({ id: pageIdSchema, title: text('title', 80) }).meta({ id: 'AddonPage' });

export type AddonPage = z.infer<typeof addonPageSchema>;

/** Semantic versioning as written, e.g. 1.4.0 or 2.0.0-beta.1; `v1.0` or ` 1.0.0` are refused rather than cleaned. */
const versionSchema = z.string({ error: 'version is required and must be a string' }).refine((v) => {
  const parsed = semver.parse(v);
  const build = parsed?.build.length ? `+${parsed.build.join('.')}` : '';
  return parsed !== null && `${parsed.version}${build}` === v;
}, 'version must be a semantic version such as 1.2.0');

export const addonManifestSchema = z.strictObject({
  key: addonKeySchema,
  name: text('name', 80),
  version: versionSchema,
  description: text('description', 500),
  author: text('author', 80),
  pages: z
    .array(addonPageSchema, { error: 'pages is required and must be an array of {id, title}' })
    .min(1, 'an add-on has at least one page')
    .max(50, 'an add-on has at most 50 pages')
    .superRefine((pages, ctx) => {
      const seen = new Set<string>();
      for (const { id } of pages) {
        if (seen.has(id)) ctx.addIssue({ code: 'custom', message: `page id '${id}' is used twice` });
        seen.add(id);
      }
    }),
});

export type AddonManifest = z.infer<typeof addonManifestSchema>;

/** The add-ons the operator shipped, by key, in key order. */
export type AddonCatalogue = ReadonlyMap<string, AddonManifest>;

export type ManifestCheck =
  { ok: true; manifest: AddonManifest } | { ok: false; issues: { path: string; message: string }[] };

/** Checks one parsed addon.json found in the directory `directory` (named after the key it must hold). */
export function checkManifest(json: unknown, directory: string): ManifestCheck {
  const parsed = addonManifestSchema.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues.map((i) => ({
        path: i.path.map(String).join('.') || '(manifest)',
        message: i.message,
      })),
    };
  }
  if (parsed.data.key !== directory) {
    return {
      ok: false,
      issues: [{ path: 'key', message: `key '${parsed.data.key}' differs from its directory name '${directory}'` }],
    };
  }
  return { ok: true, manifest: parsed.data };
}
