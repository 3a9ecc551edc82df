import { ADMIN_PASSWORD } from '../../support/platform';
import { Session, Write } from './browser-session';
import { API, Traffic, TrafficAnswer } from './traffic';

/** The super administrator, in a browser of its own, logged in again whenever its session is gone. */
export class Administrator {
  private session: Session | null = null;

  constructor(private readonly traffic: Traffic) {}

  /** An administrator write; no answer when there was none. */
  async send(write: Write): Promise<TrafficAnswer> {
    const session = this.session ?? (await this.logIn());
    if (!session) return undefined;
    return this.signedOutOn(await session.send(write));
  }

  async get(label: string, path: string): Promise<TrafficAnswer> {
    const session = this.session ?? (await this.logIn());
    if (!session) return undefined;
    return this.signedOutOn(await this.traffic.read(label, () => session.browser.get(`${API}${path}`)));
  }

  /** A 401: the session is gone; the next call logs in again. */
  private signedOutOn(answer: TrafficAnswer): TrafficAnswer {
    if (answer?.status === 401) this.session = null;
    return answer;
  }

  private async logIn(): Promise<Session | null> {
    // A sign-in is an audit event of its own (docs/security.md): the log holds it under the login's request id.
    const { session, answer } = await Session.start(this.traffic, 'admin', {
      label: 'POST /admin/login',
      path: '/admin/login',
      body: { username: 'admin', password: ADMIN_PASSWORD },
      expected: () => [{ type: 'AdministratorSignedIn', data: {} }],
    });
    this.session = answer?.status === 200 ? session : null;
    return this.session;
  }
}
