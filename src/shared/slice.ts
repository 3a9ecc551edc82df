import type { EventCodec, EventSchemas, EventUpcasters } from './domain/events';
import type { Endpoint } from './http/endpoints';
import type { OpenApiRefusal } from './http/open-api-refusals';
import type { MemberMail } from './mail';
import type { Projection } from './projections/projection';

/**
 * An event as its slice registers it: how it is stored (schema, upcasters) and what it means to
 * the slices that tell of events without knowing them: the audit trail's wording, the mail the
 * member gets, the webhook event type receivers subscribe to.
 */
export interface EventDefinition extends EventCodec {
  /** What the event did, in words, for the history, the export and the console's timeline; reads `data` as stored. */
  describe?(data: Record<string, unknown>): string;
  /** The mail the member the event is about gets, if any. */
  mail?: MemberMail;
  /** The webhook event type it is told as, if any. */
  webhook?: string;
}

/** Something that follows the log on its own checkpoint to tell the world: a notifier or a watch. */
export interface Notifier {
  start(): Promise<void> | void;
  stop(): Promise<void>;
}

/** A member as slices name the streams about them: by id, or by the username they registered. */
export interface MemberNaming {
  id: number;
  username: string;
}

/**
 * What a slice gives the composition root (src/compose.ts): everything it owns, so that a feature
 * is registered in one place and nothing else lists it. `Deps` is what its endpoints are given,
 * `NotifyDeps` what its notifiers are given.
 */
export interface Slice<Deps, NotifyDeps = unknown> {
  name: string;
  /** Its events by type, in the order they are listed (the webhook event types keep that order). */
  events: Record<string, EventDefinition>;
  /** The administrators' permissions it defines, each with what it allows (the console's checkbox label). */
  permissions?: Readonly<Record<string, string>>;
  /**
   * Those of its permissions that reach only things a role group owns (webhook.manage: the group's
   * webhooks): held in one's own role group only (src/access/grantor.ts).
   */
  roleGroupScoped?: readonly string[];
  /** The open API's scopes it defines. */
  scopes?: readonly string[];
  /** What its gate refuses open-API calls with: the contract documents each, the metrics count each under its outcome. */
  openApiRefusals?: readonly OpenApiRefusal[];
  projections: Projection[];
  /**
   * The streams of this slice that hold events about one member (their account, their
   * credential): the member's history reads them, so an event about a member is in it as soon as
   * its slice appends it to one of these streams.
   */
  memberStreams?(member: MemberNaming): string[];
  endpoints(deps: Deps): Endpoint[];
  notifiers?(deps: NotifyDeps): Notifier[];
}

/** The slices' events by type, in the order of the slices; a type registered twice is refused. */
export function eventsOf(
  slices: readonly Pick<Slice<never, never>, 'name' | 'events'>[],
): Map<string, EventDefinition> {
  const events = new Map<string, EventDefinition>();
  for (const slice of slices) {
    for (const [type, definition] of Object.entries(slice.events)) {
      if (events.has(type)) throw new Error(`the event type ${type} of the ${slice.name} slice is registered twice`);
      events.set(type, definition);
    }
  }
  return events;
}

/** What an event did, in words; an event its slice gives no wording for, its type in words. */
export function describeEvent(
  events: ReadonlyMap<string, EventDefinition>,
  type: string,
  data: Record<string, unknown>,
): string {
  return events.get(type)?.describe?.(data) ?? type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

/**
 * Everything the slices registered, gathered by the composition root: the kernel and the slices
 * that tell of other slices' events (audit, mail, webhook) read it here, so nothing else lists them.
 */
export class Registry {
  readonly events: ReadonlyMap<string, EventDefinition>;
  /** Every permission, in the order of `permissionOrder`'s slices, then of the other slices. */
  readonly permissions: string[];
  /** What each permission allows, in words. */
  readonly permissionDescriptions: ReadonlyMap<string, string>;
  /** The permissions that reach only what a role group owns (Slice.roleGroupScoped). */
  readonly roleGroupScoped: string[];
  readonly scopes: string[];
  /** What the slices refuse open-API calls with, in the order of the slices. */
  readonly openApiRefusals: OpenApiRefusal[];
  /** What a webhook can subscribe to, in the order the slices list their events. */
  readonly webhookEventTypes: string[];
  private readonly slices: readonly Slice<never, never>[];

  /**
   * `permissionOrder` names slices whose permissions come first, in that order: the contract lists
   * the permissions as an enum, whose order a client may show.
   */
  constructor(
    slices: readonly Slice<never, never>[],
    { permissionOrder = [] }: { permissionOrder?: readonly string[] } = {},
  ) {
    this.slices = slices;
    this.events = eventsOf(slices);
    const rank = (slice: Slice<never, never>) =>
      permissionOrder.includes(slice.name) ? permissionOrder.indexOf(slice.name) : permissionOrder.length;
    const descriptions = new Map<string, string>();
    for (const slice of [...slices].sort((a, b) => rank(a) - rank(b))) {
      for (const [name, description] of Object.entries(slice.permissions ?? {})) {
        if (descriptions.has(name)) throw new Error(`the permission ${name} is registered twice`);
        descriptions.set(name, description);
      }
    }
    this.permissionDescriptions = descriptions;
    this.permissions = [...descriptions.keys()];
    this.roleGroupScoped = slices.flatMap((slice) => slice.roleGroupScoped ?? []);
    this.scopes = slices.flatMap((slice) => slice.scopes ?? []);
    this.openApiRefusals = slices.flatMap((slice) => slice.openApiRefusals ?? []);
    const reasons = this.openApiRefusals.map(({ reason }) => reason);
    const twice = reasons.find((reason, i) => reasons.indexOf(reason) !== i);
    if (twice) throw new Error(`the open-API refusal ${twice} is registered twice`);
    this.webhookEventTypes = [...this.events.values()].flatMap((definition) =>
      definition.webhook ? [definition.webhook] : [],
    );
  }

  /** Every stream any slice holds events about this member in, in the order of the slices. */
  memberStreams(member: MemberNaming): string[] {
    return this.slices.flatMap((slice) => slice.memberStreams?.(member) ?? []);
  }

  /** What an event did, in words; an event its slice gives no wording for, its type in words. */
  describe(type: string, data: Record<string, unknown>): string {
    return describeEvent(this.events, type, data);
  }

  /** The webhook event type an event is told as; undefined when no webhook hears of it. */
  webhookTypeOf(type: string): string | undefined {
    return this.events.get(type)?.webhook;
  }

  /** The mail the member an event is about gets; undefined when they are mailed nothing. */
  mailOf(type: string): MemberMail | undefined {
    return this.events.get(type)?.mail;
  }
}

/**
 * A slice's events as it registers them: each schema with its upcasters and its wording, listed in
 * the wording's order, then any event the wording leaves out.
 */
export function defineEvents(
  schemas: EventSchemas,
  upcasters: EventUpcasters = {},
  wording: Record<string, Omit<EventDefinition, 'schema' | 'upcasters'>> = {},
): Record<string, EventDefinition> {
  const types = [...new Set([...Object.keys(wording), ...Object.keys(schemas)])];
  return Object.fromEntries(
    types.map((type) => {
      const schema = schemas[type];
      if (!schema) throw new Error(`the event type ${type} is worded but has no schema`);
      return [type, { schema, ...(upcasters[type] ? { upcasters: upcasters[type] } : {}), ...wording[type] }];
    }),
  );
}
