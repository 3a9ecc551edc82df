import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '../../../src/log';
import { loadAddonCatalogue } from '../../../src/stores/addon-catalogue';
import { manifest } from '../../support/addons';

let dir: string;
let lines: Record<string, unknown>[];
const log = () =>
  createLogger(
    'info',
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(
          ...String(chunk)
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Record<string, unknown>),
        );
        done();
      },
    }),
  );

function place(directory: string, content: string | object, file = 'addon.json'): string {
  mkdirSync(join(dir, directory), { recursive: true });
  const path = join(dir, directory, file);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const warnings = () => lines.filter((l) => l.level === 40);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'addons-'));
  lines = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the add-on catalogue', () => {
  it('holds every valid manifest by key, in key order', async () => {
    place('zeta', manifest('zeta'));
    place('alpha', manifest('alpha'));
    const catalogue = await loadAddonCatalogue(dir, log());
    expect([...catalogue.keys()]).toEqual(['alpha', 'zeta']);
    expect(catalogue.get('alpha')).toEqual(manifest('alpha'));
    expect(warnings()).toEqual([]);
  });

  it('skips each invalid manifest with a warning naming its file and what is wrong, and keeps the others', async () => {
    place('good', manifest('good'));
    const broken = place('broken', '{ "key": "broken", ');
    const invalid = place('invalid', manifest('invalid', [], { version: 'one' }));
    const misplaced = place('elsewhere', manifest('misplaced'));
    const missing = join(dir, 'empty', 'addon.json');
    mkdirSync(join(dir, 'empty'));
    writeFileSync(join(dir, 'stray.json'), JSON.stringify(manifest('stray')));

    const catalogue = await loadAddonCatalogue(dir, log());

    expect([...catalogue.keys()]).toEqual(['good']);
    const byPath = Object.fromEntries(warnings().map((w) => [w.path, w]));
    expect(Object.keys(byPath).sort()).toEqual([broken, misplaced, missing, invalid].sort());
    expect(byPath[broken]).toMatchObject({
      msg: expect.stringContaining('cannot be read as JSON'),
      err: expect.any(String),
    });
    expect(byPath[invalid]!.issues).toEqual([
      { path: 'version', message: 'version must be a semantic version such as 1.2.0' },
      { path: 'pages', message: 'an add-on has at least one page' },
    ]);
    expect(byPath[misplaced]!.issues).toEqual([
      { path: 'key', message: "key 'misplaced' differs from its directory name 'elsewhere'" },
    ]);
  });

  it('follows a directory given as a symbolic link, as container mounts give them, and says when a link leads nowhere', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'mounted-'));
    try {
      mkdirSync(join(elsewhere, 'linked'));
      writeFileSync(join(elsewhere, 'linked', 'addon.json'), JSON.stringify(manifest('linked')));
      symlinkSync(join(elsewhere, 'linked'), join(dir, 'linked'));
      symlinkSync(join(elsewhere, 'gone'), join(dir, 'dangling'));
      const catalogue = await loadAddonCatalogue(dir, log());
      expect([...catalogue.keys()]).toEqual(['linked']);
      expect(warnings()).toEqual([
        expect.objectContaining({ path: join(dir, 'dangling'), msg: expect.stringContaining('leads nowhere') }),
      ]);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('reads a manifest saved with a byte order mark', async () => {
    place('marked', `\uFEFF${JSON.stringify(manifest('marked'))}`);
    expect([...(await loadAddonCatalogue(dir, log())).keys()]).toEqual(['marked']);
    expect(warnings()).toEqual([]);
  });

  it('counts a text field as it is served, without surrounding spaces: padding neither lets a longer name through nor drops one within the rule', async () => {
    place('padded', manifest('padded', undefined, { name: `  ${'x'.repeat(80)}   ` }));
    place('longer', manifest('longer', undefined, { name: `  ${'x'.repeat(81)}   ` }));
    const catalogue = await loadAddonCatalogue(dir, log());
    expect([...catalogue.keys()]).toEqual(['padded']);
    expect(catalogue.get('padded')?.name).toBe('x'.repeat(80));
    expect(warnings()).toEqual([
      expect.objectContaining({ issues: [{ path: 'name', message: 'name must be at most 80 characters' }] }),
    ]);
  });

  it('is empty, with a warning, when the directory does not exist: the service still starts', async () => {
    const catalogue = await loadAddonCatalogue(join(dir, 'nowhere'), log());
    expect(catalogue.size).toBe(0);
    expect(warnings()).toEqual([expect.objectContaining({ dir: join(dir, 'nowhere') })]);
  });
});
