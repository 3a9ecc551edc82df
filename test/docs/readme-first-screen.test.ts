/**
 * The README's first screen, run as a reader pastes it: its install-and-start block says how the
 * service starts (this test starts the same entry point, on a fresh data directory and a free
 * port), then its shell block runs in bash, unchanged but for the port, and must reach the open API.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const FIRST = '## Five minutes to a working API key';

/** The section under `heading`, to the next heading of its level. */
function section(heading: string): string {
  const start = README.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`README.md has no "${heading}"`);
  const end = README.indexOf('\n## ', start + heading.length + 2);
  return README.slice(start, end === -1 ? undefined : end);
}

/** The fenced ```sh blocks of a text, in order, those indented under a list item too. */
const shellBlocks = (text: string) => [...text.matchAll(/\n *```sh\n([\s\S]*?)\n *```/g)].map((m) => m[1]!);

/** src/main.ts (what `npm start` compiles and runs) with `env`; resolves its port once it listens. */
async function startService(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['-r', join(ROOT, 'test/support/load-ts.js'), join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the service exited with ${code} while starting`)));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const listening = /"port":(\d+)[^\n]*"platform API listening"/.exec(out);
      if (listening) resolve(Number(listening[1]));
    });
  });
  child.stdout.resume();
  return { child, port };
}

describe("the README's first screen", () => {
  const blocks = shellBlocks(section(FIRST));

  it('starts the service with npm install && npm start, the administrator password chosen before', () => {
    expect(blocks[0]!.split('\n')).toEqual([
      expect.stringMatching(/^export ADMIN_PASSWORD='[^']+'$/),
      'npm install && npm start',
    ]);
  });

  it("offers Docker's one line, on the port the image exposes and the volume it keeps its data in", () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/\nEXPOSE 3000\n/);
    expect(dockerfile).toMatch(/\nVOLUME \["\/data"\]\n/);
    expect(section(FIRST)).toMatch(
      /`docker build -t platform-api \. && docker run -p 3000:3000 (-e ADMIN_PASSWORD='[^']+' )?-v platform-data:\/data platform-api`/,
    );
  });

  it('has a heading of its own for running every test, and a troubleshooting section', () => {
    expect(section('## Run every test')).toContain('\n```sh\nnpm test\n```\n');
    for (const topic of ['PORT', 'METRICS_PORT', 'password is lost', 'projections.lock']) {
      expect(section('## Troubleshooting')).toContain(topic);
    }
  });

  it('holds no block that waits for typing (read -rs and the like): every block pastes and runs as written', () => {
    for (const block of shellBlocks(README)) expect(block).not.toMatch(/(^|[;&|]\s*)read\b/m);
  });

  it('names only commands that exist, from the folder it runs them in', () => {
    // The troubleshooting's rescue command, as `node dist/cli.js --help` lists it.
    const help = spawnSync(
      process.execPath,
      ['-r', join(ROOT, 'test/support/load-ts.js'), join(ROOT, 'src/cli.ts'), 'admin', 'create', '--help'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(help.stdout).toMatch(/--username/);
    expect(help.stdout).toMatch(/--super/);
    expect(shellBlocks(section('## Troubleshooting')).join('\n')).toMatch(
      /^\s*node dist\/cli\.js admin create --username \S+ --super$/m,
    );
  });

  it('takes a reader from a started service to an open-API call with its shell block, as written', async () => {
    const password = /ADMIN_PASSWORD='([^']+)'/.exec(blocks[0]!)![1]!;
    const { child, port } = await startService({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'readme-')),
      PORT: '0',
      HOST: '127.0.0.1',
      ADMIN_PASSWORD: password,
      ADDONS_DIR: join(ROOT, 'addons'),
    });
    try {
      const script = blocks[1]!;
      expect(script).toContain('API=http://localhost:3000/api/v1');
      const run = spawnSync('bash', ['-c', script.replace('localhost:3000', `127.0.0.1:${port}`)], {
        cwd: tmpdir(),
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.stderr).toBe('');
      const answers = run.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { code: number; message: string });
      // Every call answered, none refused; the claim's answer is printed by its echo.
      expect(answers.filter((a) => a.code !== 0)).toEqual([]);
      expect(answers).toHaveLength(8);
      const shown = /\n```\n(\{"code":0[^\n]*)\n```/.exec(section(FIRST))![1]!;
      expect(answers.at(-1)).toEqual(JSON.parse(shown));
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }, 90_000);
});
