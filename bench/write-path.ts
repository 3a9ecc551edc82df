/**
 * (d) The write path: members apply for credentials, the super administrator approves, the
 * members claim their keys, over HTTP, many flows in flight at once; flows per second. Members
 * are registered before the clock starts, because registration hashes the password with argon2
 * (about 33 ms of CPU each) and would otherwise be what is measured. Registration logs the member
 * in, so no login is needed. With (e), the lag probe watches the read models during the flows.
 */
import { ChildProcess } from 'node:child_process';
import request from 'supertest';
import { logInAdmin, registerMember } from '../test/support/platform';
import { LagFigures } from './lag-probe';
import { firstMessage, forkTs, waitForExit } from './processes';
import { Service, startService } from './service';
import { BenchSettings } from './settings';
import { Distribution, distribution } from './stats';

const API = '/api/v1';
// argon2 runs on libuv's 4 threads: more registrations at once only queue.
const REGISTRATIONS_IN_FLIGHT = 4;

export interface WriteFigures {
  members: number;
  concurrency: number;
  registrationSeconds: number;
  flowsPerSecond: number;
  /** Milliseconds from apply to the claimed key, per flow. */
  flowMs: Distribution;
  seconds: number;
}

interface Member {
  client: request.Agent;
  id: number;
  token: string;
}

export async function benchWritePath(settings: BenchSettings, withLag: boolean): Promise<{ write: WriteFigures; lag?: LagFigures }> {
  const service = await startService();
  let probe: ChildProcess | undefined;
  try {
    const registrationStarted = performance.now();
    const cast = await castOf(service, settings.members);
    const registrationSeconds = (performance.now() - registrationStarted) / 1000;
    process.stdout.write(`  registered ${cast.members.length} members in ${registrationSeconds.toFixed(1)} s\n`);
    if (withLag) {
      probe = forkTs('lag-probe.ts', [service.dataDir]);
      await firstMessage(probe);
    }
    const flows = await runFlows(cast, settings.concurrency);
    const write: WriteFigures = { members: cast.members.length, concurrency: settings.concurrency, registrationSeconds, ...flows };
    if (!probe) return { write };
    const lag = firstMessage<LagFigures>(probe);
    probe.send('stop');
    return { write, lag: await lag };
  } finally {
    if (probe) {
      probe.kill();
      await waitForExit(probe);
    }
    await service.stop();
  }
}

/** The logged-in super administrator and `count` registered, logged-in members who have not applied yet. */
export interface Cast {
  admin: request.Agent;
  adminToken: string;
  members: Member[];
}

export async function castOf(service: Service, count: number): Promise<Cast> {
  const admin = service.client();
  const adminToken = await logInAdmin(admin);
  const members = await inParallel(count, REGISTRATIONS_IN_FLIGHT, async () => {
    const client = service.client();
    const { id, token } = await registerMember(client);
    return { client, id, token };
  });
  return { admin, adminToken, members };
}

/** One flow per member, `concurrency` at a time; the clock runs from the first to the last. */
export async function runFlows({ admin, adminToken, members }: Cast, concurrency: number): Promise<Pick<WriteFigures, 'flowsPerSecond' | 'flowMs' | 'seconds'>> {
  const started = performance.now();
  const flowMs = await inParallel(members.length, concurrency, (i) => flow(members[i]!, admin, adminToken));
  const seconds = (performance.now() - started) / 1000;
  return { flowsPerSecond: members.length / seconds, flowMs: distribution(flowMs), seconds };
}

/** apply → approve → claim; answers how long it took, in ms. */
async function flow(member: Member, admin: request.Agent, adminToken: string): Promise<number> {
  const started = performance.now();
  await member.client.post(`${API}/developer/credential`).set('X-CSRF-Token', member.token).send({}).expect(200);
  await admin.post(`${API}/credentials/${member.id}/approve`).set('X-CSRF-Token', adminToken).send({}).expect(200);
  await member.client.post(`${API}/developer/claim`).set('X-CSRF-Token', member.token).send({}).expect(200);
  return performance.now() - started;
}

/** work(0) … work(count - 1), at most `limit` at a time; the results in index order. */
async function inParallel<T>(count: number, limit: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await work(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return results;
}
