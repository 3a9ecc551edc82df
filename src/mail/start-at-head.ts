import { DocumentStore, EventStore, START } from '../stores/ports';

/**
 * A mail notifier's first start moves its checkpoint to the head of the log, so that turning
 * mail on does not mail about everything that happened before.
 */
export async function startAtHead(events: EventStore, documents: DocumentStore, checkpoint: string): Promise<void> {
  if ((await documents.checkpoint(checkpoint)) !== START) return;
  const head = await events.headPosition();
  if (head !== START) await documents.write([], { projection: checkpoint, position: head });
}
