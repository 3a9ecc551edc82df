import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkManifest } from '../../src/addon/manifest';
import { manifest as addonManifest } from '../support/addons';

// A valid manifest: the tests below break one rule of it at a time.
const manifest = addonManifest('helpdesk', ['tickets', 'sla-policies']);

const problems = (json: unknown, directory = 'helpdesk') => {
  const checked = checkManifest(json, directory);
  return checked.ok ? [] : checked.issues.map((i) => `${i.path}: ${i.message}`);
};

describe('add-on manifest', () => {
  it('accepts a manifest that keeps every rule', () => {
    expect(checkManifest(manifest, 'helpdesk')).toEqual({ ok: true, manifest });
  });

  it.each(['1.0.0', '0.9.2', '2.0.0-beta.1', '1.0.0+build.5'])('accepts the semantic version %s', (version) => {
    expect(problems({ ...manifest, version })).toEqual([]);
  });

  it.each(['1.0', 'v1.0.0', ' 1.0.0', '1.0.0.0', 'latest', 1])('refuses the version %p', (version) => {
    expect(problems({ ...manifest, version })).toEqual([expect.stringMatching(/^version: /)]);
  });

  it.each([
    ['a key breaking the pattern', { key: 'Helpdesk' }, /^key: key must match/],
    ['no pages', { pages: [] }, /^pages: an add-on has at least one page/],
    [
      'a page id used twice',
      { pages: [manifest.pages[0], manifest.pages[0]] },
      /^pages: page id 'tickets' is used twice/,
    ],
    [
      'a page id breaking its pattern',
      { pages: [{ id: 'Tickets', title: 'T' }] },
      /^pages\.0\.id: a page id is a lower-case letter/,
    ],
    ['a page without a title', { pages: [{ id: 'tickets' }] }, /^pages\.0\.title: title is required/],
    ['an empty name', { name: '  ' }, /^name: name must not be empty/],
    ['no author', { author: undefined }, /^author: author is required/],
    ['an unknown field', { homepage: 'https://example.com' }, /homepage/],
  ])('refuses %s, saying where', (_label, changes, expected) => {
    expect(problems({ ...manifest, ...changes })).toEqual([expect.stringMatching(expected)]);
  });

  it('refuses a manifest whose key is not its directory name', () => {
    expect(problems(manifest, 'tickets')).toEqual(["key: key 'helpdesk' differs from its directory name 'tickets'"]);
  });

  it('refuses what is not an object', () => {
    expect(problems([manifest])).not.toEqual([]);
  });

  describe('the shipped samples', () => {
    const root = join(__dirname, '../../addons');
    const directories = readdirSync(root);

    it('are at least three add-ons of two to five pages each, every one valid', () => {
      expect(directories.length).toBeGreaterThanOrEqual(3);
      for (const directory of directories) {
        const checked = checkManifest(JSON.parse(readFileSync(join(root, directory, 'addon.json'), 'utf8')), directory);
        expect(checked).toMatchObject({ ok: true });
        if (checked.ok) expect(checked.manifest.pages.length).toBeGreaterThanOrEqual(2);
        if (checked.ok) expect(checked.manifest.pages.length).toBeLessThanOrEqual(5);
      }
    });

    it('include a later version of helpdesk, for the upgrade walk-through, with a page more', () => {
      const next = checkManifest(
        JSON.parse(readFileSync(join(root, 'helpdesk', 'addon-1.1.0.json'), 'utf8')),
        'helpdesk',
      );
      expect(next).toMatchObject({ ok: true, manifest: { version: '1.1.0' } });
      if (next.ok) expect(next.manifest.pages.map((p) => p.id)).toContain('sla-policies');
    });
  });
});
