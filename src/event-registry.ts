import { accessEvents } from './access/event-definitions';
import { addonEvents } from './addon/event-definitions';
import { auditEvents } from './audit/event-definitions';
import { credentialEvents } from './credential/event-definitions';
import { memberEvents } from './member/event-definitions';
import { webhookEvents } from './webhook/event-definitions';
import { approvalRuleEvents } from './approval-rule/event-definitions';
import { ssoEvents } from './access/sso/event-definitions';
import { passkeyEvents } from './access/passkeys/event-definitions';
import { useEventCodecs } from './shared/domain/events';
import { describeEvent, EventDefinition, eventsOf } from './shared/slice';

/**
 * The slices' events alone: each one's schema, upcasters and wording, as the slices register them
 * (src/compose.ts gathers the same definitions with everything else the slices own). What reads
 * events without serving them loads this instead: `platform audit verify` rebuilds each export
 * line from it, on an auditor's machine, and the endpoints, stores, mail transport and projections
 * the whole composition reaches would cost it more memory than the verification itself
 * (docs/performance.md). A test checks that it holds exactly the composition's events.
 */
export const EVENTS: ReadonlyMap<string, EventDefinition> = eventsOf([
  { name: 'member', events: memberEvents },
  { name: 'credential', events: credentialEvents },
  { name: 'access', events: accessEvents },
  { name: 'sso', events: ssoEvents },
  { name: 'passkeys', events: passkeyEvents },
  { name: 'audit', events: auditEvents },
  { name: 'addon', events: addonEvents },
  { name: 'webhook', events: webhookEvents },
  { name: 'approval-rule', events: approvalRuleEvents },
]);

// Before anything is read: the kernel decodes events with what the slices registered.
useEventCodecs(EVENTS);

/** What an event did, in words, as its slice words it (Registry.describe, src/shared/slice.ts). */
export const describeRegisteredEvent = (type: string, data: Record<string, unknown>): string =>
  describeEvent(EVENTS, type, data);
