/** The baseline (c), seen from the benchmark: (a)'s answer captured once, and a process repeating it. */
import { setTimeout as sleep } from 'node:timers/promises';
import { CannedAnswer } from './baseline-server';
import { firstMessage, forkTs, waitForExit } from './processes';

export interface Answer {
  status: number;
  /** Every header field the service sent but those Node writes by itself for any answer. */
  headers: Record<string, string>;
  body: Buffer;
}

// Node writes these for any answer, the baseline's too.
const WRITTEN_BY_NODE = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/**
 * GET /open/addons once the in-memory add-on list holds the installs: the replica follows the
 * log a moment behind the writes.
 */
export async function capturedAnswer(url: string, headers: Record<string, string>): Promise<Answer> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const res = await fetch(url, { headers });
    const body = Buffer.from(await res.arrayBuffer());
    const list = (JSON.parse(String(body)) as { data: { list?: unknown[] } }).data.list ?? [];
    if (res.status === 200 && list.length > 0) {
      const fields = [...res.headers].filter(([name]) => !WRITTEN_BY_NODE.has(name));
      return { status: res.status, headers: Object.fromEntries(fields), body };
    }
    await sleep(50);
  }
  throw new Error(`${url} did not list the installed add-ons`);
}

export interface Baseline {
  /** The base URL: http://127.0.0.1:<port> */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** `nodeArgs` go to the baseline's Node, e.g. --cpu-prof. */
export async function startBaseline(answer: Answer, nodeArgs: string[] = []): Promise<Baseline> {
  const child = forkTs('baseline-server.ts', [], nodeArgs);
  child.send({
    status: answer.status,
    headers: answer.headers,
    body: answer.body.toString('base64'),
  } satisfies CannedAnswer);
  const { port } = await firstMessage<{ port: number }>(child);
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      // Disconnecting lets it exit on its own (and write a profile it was asked for).
      child.disconnect();
      await waitForExit(child);
    },
  };
}
