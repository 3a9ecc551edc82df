import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// jest maps the stylesheet away: the rules are read from the file itself.
const css = readFileSync(join(__dirname, 'style.css'), 'utf8');
const ink = /--ink:\s*(#[0-9a-f]{6})/i.exec(css)![1]!;

/** WCAG 2.2 relative luminance and contrast ratio of two #rrggbb colours. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};
/** The colour of the outline a rule sets, with var(--ink) resolved. */
const outlineOf = (selector: string) => {
  // Prettier puts each selector of a list on its own line.
  const pattern = selector.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/, /g, ',\\s*');
  const rule = new RegExp(`(^|\\n)${pattern}\\s*\\{([^}]*)\\}`).exec(css)![2]!;
  const colour = /outline(?:-color)?:[^;]*?(#[0-9a-f]{6}|var\(--ink\))/i.exec(rule)![1]!;
  return colour === 'var(--ink)' ? ink : colour;
};

describe('the focus ring', () => {
  it('reaches 3:1 against the white cards and the grey ground (WCAG 1.4.11)', () => {
    const ring = outlineOf(':focus-visible');
    expect(contrast(ring, '#ffffff')).toBeGreaterThanOrEqual(3);
    expect(contrast(ring, '#f3f5f8')).toBeGreaterThanOrEqual(3);
  });

  it('stays visible on the dark header', () => {
    const header = /--ink:\s*(#[0-9a-f]{6})/i.exec(css)![1]!;
    expect(contrast(outlineOf('header :focus-visible, .skip:focus-visible'), header)).toBeGreaterThanOrEqual(3);
  });
});

describe('grouped fields', () => {
  // The browser's own fieldset border and legend look like no other form of the console.
  const sources = (readdirSync(__dirname, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.tsx') && !file.endsWith('.test.tsx'))
    .map((file) => ({ file, text: readFileSync(join(__dirname, file), 'utf8') }));

  it('are drawn by the group style, which the stylesheet defines', () => {
    expect(css).toMatch(/(^|\n)fieldset\.group\s*\{[^}]*border:/);
    const fieldsets = sources.flatMap(({ file, text }) =>
      (text.match(/<fieldset\b[^>]*>/g) ?? []).map((tag) => ({ file, tag })),
    );
    expect(fieldsets.length).toBeGreaterThan(0);
    expect(fieldsets.filter(({ tag }) => !/\bclass="group"/.test(tag))).toEqual([]);
  });
});
