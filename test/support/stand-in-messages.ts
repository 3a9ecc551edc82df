/**
 * The KurrentDB stand-in's messages (./kurrentdb-stand-in.ts): what it reads from a call (a stream's
 * name, an expected revision, a proposed event) and what it answers (events read, gRPC errors,
 * refusals), in the client package's own generated protobuf classes.
 */
import { randomUUID } from 'node:crypto';
import { Metadata, status, type ServerWritableStream } from '@grpc/grpc-js';
import { Empty, type StreamIdentifier } from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/shared_pb';
import { AppendReq, ReadReq, ReadResp } from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/streams_pb';
import { Status } from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/status_pb';
import { toRecordedEvent, type Expected, type Proposed, type Stored } from './stand-in-log';

export type UUIDOption = 'string' | 'structured';

/**
 * A gRPC error answered to the call: at once, or (reads only) after `afterEvents` events were
 * sent, as a server failing in the middle of a read does; or `lose-answer` (appends).
 */
export type Fault =
  { code: status; details?: string; metadata?: Record<string, string>; afterEvents?: number } | 'lose-answer';

export function grpcError(fault: Exclude<Fault, 'lose-answer'>): Error {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(fault.metadata ?? {})) metadata.set(key, value);
  return Object.assign(new Error(fault.details ?? 'injected fault'), {
    code: fault.code,
    details: fault.details ?? 'injected fault',
    metadata,
  });
}

export function toProposed(message: AppendReq.ProposedMessage): Proposed {
  return {
    id: message.getId()?.getString() ?? randomUUID(),
    type: message.getMetadataMap().get('type') ?? '',
    contentType: message.getMetadataMap().get('content-type') ?? 'application/json',
    data: Buffer.from(message.getData_asU8()),
    metadata: Buffer.from(message.getCustomMetadata_asU8()),
  };
}

export function eventResponse(event: Stored, all: boolean, uuids: UUIDOption): ReadResp {
  const read = new ReadResp.ReadEvent().setEvent(toRecordedEvent(event, uuids));
  if (all) read.setCommitPosition(event.position.toString());
  else read.setNoPosition(new Empty());
  return new ReadResp().setEvent(read);
}

/** A batch append refused for its expected version (google.rpc code 9); the adapter never sends batches, so no details. */
export function wrongVersionStatus(): Status {
  return new Status().setCode(9).setMessage('wrong expected version');
}

/** The stream a call names, as the text the service wrote it with. */
export function streamName(identifier: StreamIdentifier | undefined): string {
  return Buffer.from(identifier?.getStreamName_asU8() ?? []).toString('utf8');
}

/** What an append expects of its stream: the revision it names, else no stream, an existing one, or any. */
export function expectedOf(
  revision: string | undefined,
  options: { hasNoStream(): boolean; hasStreamExists(): boolean },
): Expected {
  if (revision !== undefined) return BigInt(revision);
  if (options.hasNoStream()) return 'no_stream';
  return options.hasStreamExists() ? 'stream_exists' : 'any';
}

/**
 * Ends a read with a gRPC status, as a server does. destroy(error) would not: the stream is gone
 * before its status is sent, so the client waits on a call that never ends.
 */
export function answerError(call: ServerWritableStream<ReadReq, ReadResp>, error: Error): void {
  call.emit('error', error);
}
