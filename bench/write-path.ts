/**
 * (d) The write path: members apply for credentials, the super administrator approves, the
 * members claim their keys, over HTTP, many flows in flight at once; flows per second. Members
 * are registered before the clock starts, because registration hashes the password with argon2
 * (about 33 ms of CPU each) and would otherwise be what is measured. Registration logs the member
 * in, so no login is needed. With (e), the lag probe watches the read models during the flows.
 *
 * With BENCH_PREVIOUS (another checkout, built), this process drives the previous build's service
 * and this one's in alternating rounds, with the same client, and answers their ratio: what
 * "× N against the previous build in the same run" means.
 */
import { ChildProcess } from 'node:child_process';
import type { Agent } from 'node:http';
import { CookieAccessInfo } from 'cookiejar';
import request from 'supertest';
import { logInAdmin, registerMember } from '../test/support/platform';
import { cpuMillis } from './cpu-time';
import { FlowAnswer, FlowClient, flowAgent } from './flow-client';
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
  /** The service's CPU time (every thread) over the flows, per flow; null where /proc is missing. */
  serviceCpuMsPerFlow: number | null;
  seconds: number;
}

export interface Comparison {
  /** The checkout whose build was measured against this one. */
  previous: string;
  /** The figures of each round, the previous build's first, then this one's. */
  rounds: { previous: WriteFigures; current: WriteFigures }[];
  /** This build's flows/s over the previous build's, round by round. */
  ratios: number[];
}

interface Member {
  client: FlowClient;
  id: number;
  token: string;
}

export async function benchWritePath(
  settings: BenchSettings,
  withLag: boolean,
): Promise<{ write: WriteFigures; lag?: LagFigures; comparison?: Comparison }> {
  if (!settings.previous) return measureOnce(settings, withLag);
  const comparison: Comparison = { previous: settings.previous, rounds: [], ratios: [] };
  let write: WriteFigures | undefined;
  for (let round = 1; round <= settings.rounds; round++) {
    const previous = await measureOnce(settings, false, settings.previous);
    process.stdout.write(`  round ${round}: previous build ${flowSummary(previous.write)}\n`);
    const current = await measureOnce(settings, withLag && round === settings.rounds);
    process.stdout.write(`  round ${round}: this build ${flowSummary(current.write)}\n`);
    comparison.rounds.push({ previous: previous.write, current: current.write });
    comparison.ratios.push(current.write.flowsPerSecond / previous.write.flowsPerSecond);
    write = current.write;
    if (current.lag) return { write, lag: current.lag, comparison };
  }
  return { write: write!, comparison };
}

/** flows/s and, where /proc tells it, the service's CPU a flow. */
export function flowSummary({ flowsPerSecond, serviceCpuMsPerFlow }: WriteFigures): string {
  const cpu = serviceCpuMsPerFlow === null ? '' : `, ${serviceCpuMsPerFlow.toFixed(2)} ms of the service's CPU a flow`;
  return `${flowsPerSecond.toFixed(1)} flows/s${cpu}`;
}

export async function measureOnce(
  settings: BenchSettings,
  withLag: boolean,
  root?: string,
  nodeArgs?: string[],
): Promise<{ write: WriteFigures; lag?: LagFigures }> {
  const service = await startService({ root, nodeArgs });
  let probe: ChildProcess | undefined;
  try {
    const registrationStarted = performance.now();
    const cast = await castOf(service, settings.members, settings.concurrency);
    const registrationSeconds = (performance.now() - registrationStarted) / 1000;
    process.stdout.write(`  registered ${cast.members.length} members in ${registrationSeconds.toFixed(1)} s\n`);
    if (withLag) {
      probe = forkTs('lag-probe.ts', [service.dataDir]);
      await firstMessage(probe);
    }
    const cpuBefore = cpuMillis(service.pid);
    const flows = await runFlows(cast, settings.concurrency).finally(() => cast.connections.destroy());
    const cpuAfter = cpuMillis(service.pid);
    const serviceCpuMsPerFlow =
      cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / cast.members.length;
    const write: WriteFigures = {
      members: cast.members.length,
      concurrency: settings.concurrency,
      registrationSeconds,
      ...flows,
      serviceCpuMsPerFlow,
    };
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

/**
 * The logged-in super administrator and `count` registered, logged-in members who have not applied
 * yet, each with the cookies supertest's jar got at registration, on keep-alive connections for
 * `inFlight` flows; the caller destroys `connections` after the flows.
 */
export interface Cast {
  admin: FlowClient;
  adminToken: string;
  members: Member[];
  connections: Agent;
}

export async function castOf(service: Service, count: number, inFlight: number): Promise<Cast> {
  const url = new URL(service.url);
  const connections = flowAgent(inFlight);
  const flowClient = (client: request.Agent) => new FlowClient(url, connections, cookiesOf(client, url));
  const admin = service.client();
  const adminToken = await logInAdmin(admin);
  const members = await inParallel(count, REGISTRATIONS_IN_FLIGHT, async () => {
    const client = service.client();
    const { id, token } = await registerMember(client);
    return { client: flowClient(client), id, token };
  });
  return { admin: flowClient(admin), adminToken, members, connections };
}

/** The Cookie header supertest's agent would send to the API (its jar is superagent's, untyped). */
function cookiesOf(client: request.Agent, url: URL): string {
  const { jar } = client as unknown as { jar: { getCookies(access: CookieAccessInfo): { toValueString(): string } } };
  return jar.getCookies(new CookieAccessInfo(url.hostname, '/api/v1/', false)).toValueString();
}

/** One flow per member, `concurrency` at a time; the clock runs from the first to the last. */
export async function runFlows(
  { admin, adminToken, members }: Cast,
  concurrency: number,
): Promise<Pick<WriteFigures, 'flowsPerSecond' | 'flowMs' | 'seconds'>> {
  const started = performance.now();
  const flowMs = await inParallel(members.length, concurrency, (i) => flow(members[i]!, admin, adminToken));
  const seconds = (performance.now() - started) / 1000;
  return { flowsPerSecond: members.length / seconds, flowMs: distribution(flowMs), seconds };
}

/** apply → approve → claim; answers how long it took, in ms. */
async function flow(member: Member, admin: FlowClient, adminToken: string): Promise<number> {
  const started = performance.now();
  expectOk(await member.client.post(`${API}/developer/credential`, member.token), 'apply');
  expectOk(await admin.post(`${API}/credentials/${member.id}/approve`, adminToken), 'approve');
  expectOk(await member.client.post(`${API}/developer/claim`, member.token), 'claim');
  return performance.now() - started;
}

function expectOk({ status, body }: FlowAnswer, step: string): void {
  if (status !== 200) throw new Error(`${step} answered ${status}: ${body}`);
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
