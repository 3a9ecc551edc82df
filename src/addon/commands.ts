import { AddonCommand, addonDecider, AddonEvent, AddonState, addonStream } from './decider';
import { EventStore } from '../stores/ports';
import { CommandContext } from '../shared/commands/context';
import { Decision, handle } from '../shared/commands/handle';

/**
 * Every add-on command goes through the add-on's one stream, appended with the revision it was
 * decided on: of two simultaneous installs of one key, exactly one is recorded.
 */
export function decideAddon(
  store: EventStore,
  command: AddonCommand,
  ctx: CommandContext,
): Promise<Decision<AddonEvent, AddonState>> {
  return handle(store, addonStream(command.data.key), addonDecider, command, ctx);
}
