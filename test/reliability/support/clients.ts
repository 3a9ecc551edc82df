import { lookAlikeKeys } from '../../../src/shared/domain/labels';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { SCOPE_NAMES } from '../../../src/credential/scopes';
import { ADMIN_PASSWORD } from '../../support/platform';
import { Expected } from './ledger';
import { TrafficAnswer, API, Traffic } from './traffic';

const ROOT = resolve(__dirname, '../../..');
const PASSWORD = 'secret1';
const ADDON_KEYS = ['helpdesk', 'invoicing', 'newsroom', 'uptime_monitor'];
let registrations = 0;

type Random = () => number;
type Data = Record<string, unknown>;
type Expect = (data: Data) => Expected[];

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

/** A browser session: its cookie jar and CSRF token, fetched again after a login or a refusal. */
class Session {
  readonly browser: request.Agent;
  private token: string | null = null;

  constructor(
    private readonly traffic: Traffic,
    private readonly path: '/developer/session' | '/admin/session',
  ) {
    this.browser = traffic.browser();
  }

  async csrf(): Promise<string | null> {
    if (this.token) return this.token;
    const answer = await this.traffic.read(`GET ${this.path}`, () => this.browser.get(`${API}${this.path}`));
    this.token = answer?.status === 200 ? (answer.body.data.csrf_token as string) : null;
    return this.token;
  }

  /** Sends a write with the token; forgets the token when the answer is not a plain success. */
  async send(
    method: 'post' | 'put',
    label: string,
    path: string,
    body: object,
    expected: Expect,
  ): Promise<TrafficAnswer> {
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

  forgetToken(): void {
    this.token = null;
  }
}

/**
 * Registers a member on a browser of its own, as the ledger's write with the events it must
 * append; afterwards the session is the member's (its token is fetched again when needed).
 */
export async function register(
  traffic: Traffic,
  username: string,
): Promise<{ session: Session; answer: TrafficAnswer }> {
  const session = new Session(traffic, '/developer/session');
  const answer = await session.send(
    'post',
    'POST /developer/register',
    '/developer/register',
    { username, password: PASSWORD, email: `${username}@example.com` },
    (data) => [
      { type: 'MemberIdAllocated', data: { member_id: data.id } },
      // The username claims one stream per look-alike key (src/shared/commands/name-claims.ts).
      ...lookAlikeKeys(username).map(() => ({ type: 'MemberNameClaimed', data: { name: username } })),
      { type: 'MemberRegistered', data: { member_id: data.id, username } },
    ],
  );
  session.forgetToken();
  return { session, answer };
}

/** The super administrator, in a browser of its own, logged in again whenever its session is gone. */
export class Administrator {
  private session: Session;
  private loggedIn = false;

  constructor(private readonly traffic: Traffic) {
    this.session = new Session(traffic, '/admin/session');
  }

  /** An administrator write; no answer when there was none. */
  async send(
    method: 'post' | 'put',
    label: string,
    path: string,
    body: object,
    expected: Expect,
  ): Promise<TrafficAnswer> {
    if (!this.loggedIn && !(await this.logIn())) return undefined;
    const answer = await this.session.send(method, label, path, body, expected);
    if (answer?.status === 401) this.loggedIn = false;
    return answer;
  }

  async get(label: string, path: string): Promise<TrafficAnswer> {
    if (!this.loggedIn && !(await this.logIn())) return undefined;
    const answer = await this.traffic.read(label, () => this.session.browser.get(`${API}${path}`));
    if (answer?.status === 401) this.loggedIn = false;
    return answer;
  }

  private async logIn(): Promise<boolean> {
    this.session = new Session(this.traffic, '/admin/session');
    // A sign-in is an audit event of its own (docs/security.md): the log holds it under the login's request id.
    const answer = await this.session.send(
      'post',
      'POST /admin/login',
      '/admin/login',
      { username: 'admin', password: ADMIN_PASSWORD },
      () => [{ type: 'AdministratorSignedIn', data: {} }],
    );
    this.session.forgetToken();
    this.loggedIn = answer?.status === 200;
    return this.loggedIn;
  }
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
        return answered(
          await this.memberWrite('POST /developer/credential', '/developer/credential', {}, () => [
            { type: 'CredentialApplied', data: { member_id } },
          ]),
        );
      case 'pending':
        if (this.random() < 0.8) {
          return answered(
            await this.admin.send(
              'post',
              'POST /credentials/:id/approve',
              `/credentials/${member_id}/approve`,
              {},
              () => [{ type: 'CredentialApproved', data: { member_id } }],
            ),
          );
        }
        return answered(
          await this.admin.send(
            'post',
            'POST /credentials/:id/reject',
            `/credentials/${member_id}/reject`,
            { reason: 'incomplete' },
            () => [{ type: 'CredentialRejected', data: { member_id, reason: 'incomplete' } }],
          ),
        );
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
      const answer = await this.admin.send(
        'post',
        `POST /credentials/:id/scopes/:scope/${approve ? 'approve' : 'reject'}`,
        `/credentials/${member_id}/scopes/${scope}/${approve ? 'approve' : 'reject'}`,
        approve ? {} : { reason: 'not now' },
        () => [{ type: approve ? 'ScopeApproved' : 'ScopeRejected', data: { member_id, scope } }],
      );
      if (approve && scope === 'addons.read' && answer?.status === 200) member.addonsRead = true;
      return answered(answer);
    }
    if (requestable.length > 0 && roll < 0.75) {
      const wanted = requestable.filter(() => this.random() < 0.7);
      const asked = wanted.length > 0 ? wanted : requestable.slice(0, 1);
      return answered(
        await this.memberWrite(
          'POST /developer/scopes',
          '/developer/scopes',
          { scopes: asked, reason: 'integration' },
          () => asked.map((scope) => ({ type: 'ScopeRequested', data: { member_id, scope } })),
        ),
      );
    }
    if (roll < 0.78) {
      // Whatever comes of it, the key and scopes the driver knew are no longer sure.
      member.key = null;
      member.addonsRead = false;
      return answered(
        await this.admin.send(
          'post',
          'POST /credentials/:id/revoke',
          `/credentials/${member_id}/revoke`,
          { reason: 'leaked' },
          () => [{ type: 'CredentialRevoked', data: { member_id } }],
        ),
      );
    }
    const { apiid, apikey } = member.key;
    return answered(
      await this.traffic.read('GET /open/addons', () =>
        this.traffic.browser().get(`${API}/open/addons`).set('X-API-ID', apiid).set('X-API-Key', apikey),
      ),
    );
  }

  /** Claim or rotate: the key in the answer is the one that works, unless the answer was lost. */
  private async issueKey(label: string, path: string, body: object, type: string): Promise<boolean> {
    const member = this.member!;
    const answer = await this.memberWrite(label, path, body, (data) => [
      { type, data: { member_id: member.id, apiid: data.apiid } },
    ]);
    member.key = answer?.status === 200 ? (answer.body.data as { apiid: string; apikey: string }) : null;
    return answered(answer);
  }

  private memberWrite(label: string, path: string, body: object, expected: Expect): Promise<TrafficAnswer> {
    return this.session.send('post', label, path, body, expected);
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
    this.session = new Session(this.traffic, '/developer/session');
    const answer = await this.session.send(
      'post',
      'POST /developer/login',
      '/developer/login',
      { username, password: PASSWORD },
      () => [],
    );
    this.session.forgetToken();
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

/** The application center: an administrator installing, toggling and uninstalling the catalogue's add-ons. */
export class AddonOperator {
  private readonly pages = new Map(ADDON_KEYS.map((key) => [key, manifestPages(key)]));

  constructor(
    private readonly admin: Administrator,
    private readonly random: Random,
  ) {}

  async step(): Promise<boolean> {
    const listed = await this.admin.get('GET /addons', '/addons');
    if (!listed) return false;
    if (listed.status !== 200) return true;
    const addons = listed.body.data.list as { key: string; installed: boolean; enabled: boolean; show_menu: boolean }[];
    const addon = addons.filter((a) => ADDON_KEYS.includes(a.key))[Math.floor(this.random() * ADDON_KEYS.length)]!;
    const { key } = addon;
    const pageRoles = Object.fromEntries(
      this.pages.get(key)!.map((id) => [id, { view: [1, 2], manage: this.random() < 0.5 ? [1] : [] }]),
    );
    const act = (action: string, body: object, type: string) =>
      this.admin.send('post', `POST /addons/:key/actions/${action}`, `/addons/${key}/actions/${action}`, body, () => [
        { type, data: { key } },
      ]);
    if (!addon.installed)
      return answered(
        await act('install', { page_roles: pageRoles, show_menu: this.random() < 0.5 }, 'AddonInstalled'),
      );
    const roll = this.random();
    if (roll < 0.25)
      return answered(
        await act(addon.enabled ? 'disable' : 'enable', {}, addon.enabled ? 'AddonDisabled' : 'AddonEnabled'),
      );
    if (roll < 0.45) return answered(await act('menu', { show_menu: !addon.show_menu }, 'MenuSet'));
    if (roll < 0.6)
      return answered(await act('reinstall', this.random() < 0.5 ? { page_roles: pageRoles } : {}, 'AddonReinstalled'));
    if (roll < 0.9) {
      return answered(
        await this.admin.send(
          'put',
          'PUT /addons/:key/access',
          `/addons/${key}/access`,
          { page_roles: pageRoles },
          () => [{ type: 'PageRolesSet', data: { key } }],
        ),
      );
    }
    return answered(await act('uninstall', {}, 'AddonUninstalled'));
  }
}

function manifestPages(key: string): string[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'addons', key, 'addon.json'), 'utf8')) as {
    pages: { id: string }[];
  };
  return manifest.pages.map((p) => p.id);
}

function answered(answer: TrafficAnswer): boolean {
  return answer !== undefined;
}
