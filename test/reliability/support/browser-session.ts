import request from 'supertest';
import { Expected } from './ledger';
import { API, Traffic, TrafficAnswer } from './traffic';

/** The events an acknowledged write must have appended, named from its answer's data. */
export type Expect = (data: Record<string, unknown>) => Expected[];

/** A write as a client sends it: the route the tally names it by, the path under /api/v1, the body, what it appends. */
export interface Write {
  method?: 'post' | 'put';
  label: string;
  path: string;
  body: object;
  expected: Expect;
}

/** A browser session: its cookie jar and CSRF token, fetched again after a login or a refusal. */
export class Session {
  readonly browser: request.Agent;
  private token: string | null = null;

  constructor(
    private readonly traffic: Traffic,
    private readonly path: '/developer/session' | '/admin/session',
  ) {
    this.browser = traffic.browser();
  }

  /**
   * A write on a new browser that makes the session someone's (a registration or a sign-in): the
   * token it went with is forgotten, to be fetched again for whom the session now is.
   */
  static async start(
    traffic: Traffic,
    area: 'developer' | 'admin',
    write: Write,
  ): Promise<{ session: Session; answer: TrafficAnswer }> {
    const session = new Session(traffic, `/${area}/session`);
    const answer = await session.send(write);
    session.token = null;
    return { session, answer };
  }

  async csrf(): Promise<string | null> {
    if (this.token) return this.token;
    const answer = await this.traffic.read(`GET ${this.path}`, () => this.browser.get(`${API}${this.path}`));
    this.token = answer?.status === 200 ? (answer.body.data.csrf_token as string) : null;
    return this.token;
  }

  /** Sends a write with the token; forgets the token when the answer is not a plain success. */
  async send({ method = 'post', label, path, body, expected }: Write): Promise<TrafficAnswer> {
    const token = await this.csrf();
    if (!token) return undefined;
    const answer = await this.traffic.write(
      label,
      () => this.browser[method](`${API}${path}`).set('X-CSRF-Token', token).send(body),
      expected,
    );
    if (answer?.status !== 200) this.token = null;
    return answer;
  }
}

/** Whether the service answered at all: a client pauses before its next step when it did not. */
export function answered(answer: TrafficAnswer): boolean {
  return answer !== undefined;
}
