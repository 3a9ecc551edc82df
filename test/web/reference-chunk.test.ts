import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONSOLE_DIR } from '../../src/shared/http/console';

// The partner reference (the contract's open part, the field tree, "try it") is fetched when opened, not with the first screen.
describe('the web console build (npm run build:web)', () => {
  const index = readFileSync(join(CONSOLE_DIR, 'index.html'), 'utf8');
  const firstScreen = [...index.matchAll(/(?:src|href)="\/ui\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const assets = readdirSync(join(CONSOLE_DIR, 'assets'));

  it('builds the partner reference as a chunk of its own', () => {
    expect(assets.filter((name) => /^partner-reference-.+\.js$/.test(name))).toHaveLength(1);
  });

  it('keeps it out of the scripts the first screen loads', () => {
    expect(firstScreen.length).toBeGreaterThan(0);
    for (const script of firstScreen) {
      expect(script).not.toMatch(/partner-reference/);
      expect(readFileSync(join(CONSOLE_DIR, script), 'utf8')).not.toContain('PLATFORM_API_KEY:?');
    }
  });
});
