import request from 'supertest';
import { Expected, Ledger } from './ledger';

export const API = '/api/v1';

/** An answer, or nothing when the connection failed or was cut before one came. */
export type TrafficAnswer =
  | { status: number; body: { code: number; message: string; data: Record<string, unknown> }; requestId?: string }
  | undefined;

// The service is down or was killed with the request in flight: the request may or may not have landed.
const CUT = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE']);
const REQUEST_TIMEOUT_MS = 15_000;

/**
 * HTTP calls to the service as clients make them, tallied: answers by route and status, 5xx
 * (a 503 is a documented refusal, anything else a bug), answers outside the envelope, hangs. A
 * write is known by the request id the service answers with, so that the ledger can find in the log
 * what it appended.
 */
export class Traffic {
  readonly ledger: Ledger;
  readonly tally = new Map<string, number>();
  readonly problems: string[] = [];

  constructor(
    private readonly origin: string,
    prefix: string,
  ) {
    this.ledger = new Ledger(prefix);
  }

  /** A browser of its own: a cookie jar. */
  browser(): request.Agent {
    return request.agent(this.origin);
  }

  read(label: string, send: () => request.Test): Promise<TrafficAnswer> {
    return this.call(label, send());
  }

  /** A write: acknowledged (2xx) with the events `expected` names from its answer, or unknown. */
  async write(
    label: string,
    send: () => request.Test,
    expected: (data: Record<string, unknown>) => Expected[],
  ): Promise<TrafficAnswer> {
    const sent = this.ledger.nextRequestId();
    const answer = await this.call(label, send().set('X-Request-Id', sent));
    // The service stores its own id in the events, and answers with it; a cut write is known by ours only.
    const requestId = answer?.requestId ?? sent;
    if (answer && answer.status < 300) this.ledger.acknowledge(requestId, expected(answer.body.data));
    // A 503 may come after the append, while waiting for the read models: as unknown as no answer.
    else if (!answer || answer.status >= 500) this.ledger.lost(requestId);
    else this.ledger.refuse(requestId);
    return answer;
  }

  private async call(label: string, pending: request.Test): Promise<TrafficAnswer> {
    let res: request.Response;
    try {
      res = await pending.timeout(REQUEST_TIMEOUT_MS);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code && CUT.has(code)) return undefined;
      this.problems.push(`${label}: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
    const key = `${label} ${res.status}`;
    this.tally.set(key, (this.tally.get(key) ?? 0) + 1);
    const body = res.body as NonNullable<TrafficAnswer>['body'];
    if (res.status >= 500 && res.status !== 503) this.problems.push(`${label}: ${res.status} ${JSON.stringify(body)}`);
    if (typeof body?.code !== 'number' || typeof body.message !== 'string' || !('data' in body)) {
      this.problems.push(`${label}: ${res.status} outside the envelope: ${res.text.slice(0, 200)}`);
    }
    const requestId = res.headers['x-request-id'] as string | undefined;
    return { status: res.status, body, requestId };
  }
}
