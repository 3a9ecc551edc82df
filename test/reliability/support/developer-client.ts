import { lookAlikeKeys } from '../../../src/shared/domain/labels';
import { SCOPE_NAMES } from '../../../src/credential/scopes';
import { Administrator } from './administrator';
import { answered, Session, Write } from './browser-session';
import { API, Traffic, TrafficAnswer } from './traffic';

const PASSWORD = 'secret1';
let registrations = 0;

type Random = () => number;

/** What the driver knows for sure about a member whose registration was acknowledged, to ask the service again at the end. */
export interface KnownMember {
  id: number;
  username: string;
  password: string;
  /** The key of the last acknowledged claim or rotation, while no later key change is in doubt. */
  key: { apiid: string; apikey: string } | null;
  /** An approval of addons.read was acknowledged and the credential was never revoked since. */
  addonsRead: boolean;
}

/**
 * Registers a member on a browser of its own, as the ledger's write with the events it must
 * append; afterwards the session is the member's (its token is fetched again when needed).
 */
export function register(traffic: Traffic, username: string): Promise<{ session: Session; answer: TrafficAnswer }> {
  return Session.start(traffic, 'developer', {
    label: 'POST /developer/register',
    path: '/developer/register',
    body: { username, password: PASSWORD, email: `${username}@example.com` },
    expected: (data) => [
      { type: 'MemberIdAllocated', data: { member_id: data.id } },
      // The username claims one stream per look-alike key (src/shared/commands/name-claims.ts).
      ...lookAlikeKeys(username).map(() => ({ type: 'MemberNameClaimed', data: { name: username } })),
      { type: 'MemberRegistered', data: { member_id: data.id, username } },
    ],
  });
}

/**
 * A developer and the administrator who reviews it, taking one member at a time through the
 * credential flow: register, apply, approval or rejection, claim, scope requests and their
 * reviews, rotations, the odd revocation, open-API calls; then on to a new member. Each step is
 * chosen from the state the dashboard shows, so that a step whose answer was lost in a kill is
 * simply seen done, or not, on the next one.
 */
export class DeveloperClient {
  private session: Session;
  private member: KnownMember | null = null;
  /** The username of a registration or login whose answer was lost: log in to learn whether the member exists. */
  private unsure: string | null = null;
  private steps = 0;

  constructor(
    private readonly traffic: Traffic,
    private readonly admin: Administrator,
    private readonly random: Random,
    private readonly known: Map<number, KnownMember>,
    private readonly name: string,
  ) {
    this.session = new Session(traffic, '/developer/session');
  }

  /** One step; false when the service did not answer, so the caller pauses before the next. */
  async step(): Promise<boolean> {
    if (this.unsure) return this.logIn(this.unsure);
    if (!this.member) return this.register();
    const dashboard = await this.traffic.read('GET /developer/dashboard', () =>
      this.session.browser.get(`${API}/developer/dashboard`),
    );
    if (!dashboard) return false;
    if (dashboard.status === 401) return this.logIn(this.member.username);
    if (dashboard.status !== 200) return true;
    this.steps += 1;
    // Members come and go: a long-lived one would spend its steps rotating.
    if (this.steps > 12 + this.random() * 12) {
      this.member = null;
      return true;
    }
    const data = dashboard.body.data as { credential: { status: string }; scopes: { name: string; status: string }[] };
    return this.next(this.member, data.credential.status, data.scopes);
  }

  private async next(
    member: KnownMember,
    status: string,
    scopes: { name: string; status: string }[],
  ): Promise<boolean> {
    const member_id = member.id;
    switch (status) {
      case 'none':
      case 'rejected':
      case 'revoked':
        return this.write(this.session, {
          label: 'POST /developer/credential',
          path: '/developer/credential',
          body: {},
          expected: () => [{ type: 'CredentialApplied', data: { member_id } }],
        });
      case 'pending':
        if (this.random() < 0.8) {
          return this.write(this.admin, {
            label: 'POST /credentials/:id/approve',
            path: `/credentials/${member_id}/approve`,
            body: {},
            expected: () => [{ type: 'CredentialApproved', data: { member_id } }],
          });
        }
        return this.write(this.admin, {
          label: 'POST /credentials/:id/reject',
          path: `/credentials/${member_id}/reject`,
          body: { reason: 'incomplete' },
          expected: () => [{ type: 'CredentialRejected', data: { member_id, reason: 'incomplete' } }],
        });
      case 'approved':
        return this.issueKey('POST /developer/claim', '/developer/claim', {}, 'CredentialClaimed');
      case 'active':
        return this.active(member, scopes);
      default:
        throw new Error(`unexpected credential status ${status}`);
    }
  }

  private async active(member: KnownMember, scopes: { name: string; status: string }[]): Promise<boolean> {
    const member_id = member.id;
    const statusOf = (name: string) => scopes.find((s) => s.name === name)?.status;
    const requestable = SCOPE_NAMES.filter((name) => statusOf(name) !== 'pending' && statusOf(name) !== 'approved');
    const pending = SCOPE_NAMES.filter((name) => statusOf(name) === 'pending');
    const roll = this.random();
    if (!member.key || roll < 0.1)
      return this.issueKey('POST /developer/rotate', '/developer/rotate', { grace_seconds: 0 }, 'KeyRotated');
    if (pending.length > 0 && roll < 0.55) {
      const scope = pending[Math.floor(this.random() * pending.length)]!;
      const approve = this.random() < 0.8;
      const answer = await this.admin.send({
        label: `POST /credentials/:id/scopes/:scope/${approve ? 'approve' : 'reject'}`,
        path: `/credentials/${member_id}/scopes/${scope}/${approve ? 'approve' : 'reject'}`,
        body: approve ? {} : { reason: 'not now' },
        expected: () => [{ type: approve ? 'ScopeApproved' : 'ScopeRejected', data: { member_id, scope } }],
      });
      if (approve && scope === 'addons.read' && answer?.status === 200) member.addonsRead = true;
      return answered(answer);
    }
    if (requestable.length > 0 && roll < 0.75) {
      const wanted = requestable.filter(() => this.random() < 0.7);
      const asked = wanted.length > 0 ? wanted : requestable.slice(0, 1);
      return this.write(this.session, {
        label: 'POST /developer/scopes',
        path: '/developer/scopes',
        body: { scopes: asked, reason: 'integration' },
        expected: () => asked.map((scope) => ({ type: 'ScopeRequested', data: { member_id, scope } })),
      });
    }
    if (roll < 0.78) {
      // Whatever comes of it, the key and scopes the driver knew are no longer sure.
      member.key = null;
      member.addonsRead = false;
      return this.write(this.admin, {
        label: 'POST /credentials/:id/revoke',
        path: `/credentials/${member_id}/revoke`,
        body: { reason: 'leaked' },
        expected: () => [{ type: 'CredentialRevoked', data: { member_id } }],
      });
    }
    const { apiid, apikey } = member.key;
    return answered(
      await this.traffic.read('GET /open/addons', () =>
        this.traffic.browser().get(`${API}/open/addons`).set('X-API-ID', apiid).set('X-API-Key', apikey),
      ),
    );
  }

  /** A write by the member or the administrator, when all that matters is whether it was answered. */
  private async write(by: Session | Administrator, write: Write): Promise<boolean> {
    return answered(await by.send(write));
  }

  /** Claim or rotate: the key in the answer is the one that works, unless the answer was lost. */
  private async issueKey(label: string, path: string, body: object, type: string): Promise<boolean> {
    const member = this.member!;
    const answer = await this.session.send({
      label,
      path,
      body,
      expected: (data) => [{ type, data: { member_id: member.id, apiid: data.apiid } }],
    });
    member.key = answer?.status === 200 ? (answer.body.data as { apiid: string; apikey: string }) : null;
    return answered(answer);
  }

  private async register(): Promise<boolean> {
    const username = `${this.name}u${(registrations += 1)}`;
    const { session, answer } = await register(this.traffic, username);
    this.session = session;
    if (answer?.status === 200) this.welcome({ id: answer.body.data.id as number, username });
    else if (!answer || answer.status >= 500) this.unsure = username;
    return answer !== undefined;
  }

  private async logIn(username: string): Promise<boolean> {
    const { session, answer } = await Session.start(this.traffic, 'developer', {
      label: 'POST /developer/login',
      path: '/developer/login',
      body: { username, password: PASSWORD },
      expected: () => [],
    });
    this.session = session;
    if (!answer || answer.status >= 500) return false;
    this.unsure = null;
    if (answer.status === 200) {
      // A member whose registration answer was lost is not in `known`: only acknowledged ones are checked at the end.
      this.member = this.known.get(answer.body.data.id as number) ?? {
        id: answer.body.data.id as number,
        username,
        password: PASSWORD,
        key: null,
        addonsRead: false,
      };
    } else {
      this.member = null;
    }
    return true;
  }

  private welcome({ id, username }: { id: number; username: string }): void {
    this.member = { id, username, password: PASSWORD, key: null, addonsRead: false };
    this.known.set(id, this.member);
    this.steps = 0;
  }
}
