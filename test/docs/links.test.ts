import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The repository stands alone: README.md and docs/ link only to files inside it, every such file
 * exists, and every #anchor names a heading of its page. The only address allowed is the local
 * service a reader starts (http://localhost...).
 */
const ROOT = resolve(__dirname, '../..');
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

const withoutCode = (text: string) =>
  text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');

/** Link targets: inline `[text](target)`, reference definitions `[x]: target`, autolinks `<scheme:...>`, bare URLs. */
function targetsOf(text: string): string[] {
  const prose = withoutCode(text);
  return [
    ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
    ...[...prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!),
    ...[...prose.matchAll(/<([a-z][a-z0-9+.-]*:[^>\s]+)>/gi)].map((m) => m[1]!),
    ...[...prose.matchAll(/(?<![(<])\b((?:https?|ftp|file):\/\/[^\s)>]+)/gi)].map((m) => m[1]!),
  ];
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(text: string): Set<string> {
  const headings = [...withoutCodeBlocks(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)].map((m) => m[1]!);
  return new Set(
    headings.map((h) =>
      h
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    ),
  );
}

const withoutCodeBlocks = (text: string) => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');

function problemsOf(page: string): string[] {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const problems: string[] = [];
  for (const target of targetsOf(text)) {
    if (/^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/|$)/.test(target)) continue;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
      problems.push(`${page}: ${target} is outside the repository`);
      continue;
    }
    const [path, anchor] = target.split('#') as [string, string | undefined];
    const file = path ? resolve(dirname(join(ROOT, page)), decodeURIComponent(path)) : join(ROOT, page);
    const inside = relative(ROOT, file);
    if (inside.startsWith('..') || resolve(ROOT, inside) !== file) {
      problems.push(`${page}: ${target} is outside the repository`);
    } else if (!existsSync(file)) {
      problems.push(`${page}: ${target} does not exist`);
    } else if (anchor && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) {
      problems.push(`${page}: ${target} names no heading of ${inside}`);
    }
  }
  // Named in code rather than linked, a path that leaves the repository still sends readers away.
  for (const [, path] of text.matchAll(/`(\.\.\/[^`\s]+)`/g)) {
    const inside = relative(ROOT, resolve(dirname(join(ROOT, page)), path!));
    if (inside.startsWith('..')) problems.push(`${page}: \`${path}\` is outside the repository`);
  }
  return problems;
}

describe('README.md and docs/', () => {
  it('are pages to check', () => {
    expect(PAGES).toEqual(expect.arrayContaining(['README.md', 'docs/rules.md']));
  });

  it.each(PAGES)('%s links only to files inside the repository that exist', (page) => {
    expect(problemsOf(page)).toEqual([]);
  });

  it('finds a link that leaves the repository, a missing file and a missing heading', () => {
    const targets = targetsOf(
      '[spec](../shared/spec.md) and <https://example.com> and [x](docs/nope.md#a) `[not](a link)`',
    );
    expect(targets).toEqual(['../shared/spec.md', 'docs/nope.md#a', 'https://example.com']);
    expect(anchorsOf('# Quick start\n## Errors, and `what` to do\n```\n# not a heading\n```')).toEqual(
      new Set(['quick-start', 'errors-and-what-to-do']),
    );
  });
});
