/**
 * A stand-in KurrentDB peer for fault tests. It checks CLIENT BEHAVIOUR ONLY: it is not a
 * KurrentDB server and proves nothing about one (no cluster, no idempotent-write check beyond
 * matching event ids, no filters, no ACLs). It is a @grpc/grpc-js server on 127.0.0.1 built from
 * the service definitions the client package itself ships (generated/kurrentdb/protocols/v1:
 * streams, server features), with an in-memory log good enough for the paths the service's
 * adapter takes: stream and $all reads in both directions, unary and batch appends with expected
 * revisions, and $all subscriptions. A TcpFaultProxy in front of it makes it down (port closed),
 * stalled (accepts, never answers), slow, or cut mid-stream.
 */
import { randomUUID } from 'node:crypto';
import {
  Server,
  ServerCredentials,
  status,
  type ServerDuplexStream,
  type ServerReadableStream,
  type ServerWritableStream,
  type sendUnaryData,
} from '@grpc/grpc-js';
import { StreamsService } from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/streams_grpc_pb';
import { ServerFeaturesService } from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/serverfeatures_grpc_pb';
import {
  SupportedMethod,
  SupportedMethods,
} from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/serverfeatures_pb';
import { AllStreamPosition, Empty, UUID } from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/shared_pb';
import {
  AppendReq,
  AppendResp,
  BatchAppendReq,
  BatchAppendResp,
  ReadReq,
  ReadResp,
} from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/streams_pb';
import { Empty as GoogleEmpty } from 'google-protobuf/google/protobuf/empty_pb';
import { TcpFaultProxy } from './tcp-faults';
import { StandInLog, type Expected, type Proposed, type Stored } from './stand-in-log';
import {
  answerError,
  eventResponse,
  expectedOf,
  grpcError,
  streamName,
  toProposed,
  wrongVersionStatus,
  type Fault,
  type UUIDOption,
} from './stand-in-messages';

export interface StandInOptions {
  /** PEM key and certificate: the stand-in then speaks TLS (tls=true in the URL). */
  tls?: { key: Buffer; cert: Buffer };
}

type ReadCall = ServerWritableStream<ReadReq, ReadResp>;

export class KurrentDbStandIn {
  readonly log = new StandInLog();
  /** Every call the stand-in received, by method name (`Read`, `Append`, `BatchAppend`, ...). */
  readonly calls = new Map<string, number>();
  readonly #subscriptions = new Set<{ call: ReadCall; after: bigint | undefined; uuids: UUIDOption }>();
  /** Holds every answer (a server that stopped answering calls, its connection still healthy). */
  #holdAnswers = false;
  /** Faults for the next calls of a method, used up in order. */
  readonly #faults = new Map<string, Fault[]>();
  /** Whether each Read call asked for the leader (the requires-leader header). */
  readonly leaderReads: boolean[] = [];
  /** The fault of the read in progress, answered once its first events were sent. */
  #midRead: { fault: Fault; fail: (error: Error) => void } | undefined;

  private constructor(
    private readonly server: Server,
    readonly proxy: TcpFaultProxy,
    private readonly tls: boolean,
  ) {}

  static async start(options: StandInOptions = {}): Promise<KurrentDbStandIn> {
    const server = new Server();
    const credentials = options.tls
      ? ServerCredentials.createSsl(null, [{ private_key: options.tls.key, cert_chain: options.tls.cert }], false)
      : ServerCredentials.createInsecure();
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', credentials, (error, bound) => (error ? reject(error) : resolve(bound))),
    );
    const proxy = await TcpFaultProxy.start(port);
    const standIn = new KurrentDbStandIn(server, proxy, options.tls !== undefined);
    standIn.serve();
    return standIn;
  }

  /** The connection string the service would be given; `options` are appended to the query. */
  url(options = ''): string {
    return `kurrentdb://127.0.0.1:${this.proxy.port}?tls=${this.tls}${options ? `&${options}` : ''}`;
  }

  /** Calls are received and never answered, while the connection itself stays healthy. */
  holdAnswers(hold: boolean): void {
    this.#holdAnswers = hold;
  }

  /**
   * The next call of `method` (`Read`, `ReadStream` for reads of one stream only, `Append`,
   * `BatchAppend`, ...) fails with `fault`: `refuse` answers a gRPC error before doing
   * anything; `lose-answer` (Append only) commits, then answers UNAVAILABLE, as a connection lost
   * after the commit and before the answer does.
   */
  failNext(method: string, ...faults: Fault[]): void {
    this.#faults.set(method, [...(this.#faults.get(method) ?? []), ...faults]);
  }

  async close(): Promise<void> {
    await this.proxy.close();
    for (const { call } of this.#subscriptions) call.destroy();
    this.server.forceShutdown();
  }

  private count(method: string): boolean {
    this.calls.set(method, (this.calls.get(method) ?? 0) + 1);
    return !this.#holdAnswers;
  }

  /** The fault planned for this call, answered at once when it is a refusal; a mid-read one is left to the read. */
  private fault(method: string, fail: (error: Error) => void): Fault | undefined {
    const fault = this.#faults.get(method)?.shift();
    if (fault && fault !== 'lose-answer') {
      if (fault.afterEvents !== undefined) {
        this.#midRead = { fault, fail };
        return undefined;
      }
      fail(grpcError(fault));
    }
    return fault;
  }

  /** A fault that ends the read in progress after its events, if one is planned; else the read ends. */
  private endRead(call: ReadCall, sent: number): void {
    const planned = this.#midRead;
    this.#midRead = undefined;
    if (planned && planned.fault !== 'lose-answer' && sent >= (planned.fault.afterEvents ?? 0))
      return planned.fail(grpcError(planned.fault));
    call.end();
  }

  private serve(): void {
    this.server.addService(ServerFeaturesService, {
      getSupportedMethods: (_call: unknown, done: sendUnaryData<SupportedMethods>) => {
        if (!this.count('GetSupportedMethods')) return;
        const methods = ['read', 'append', 'batchappend'].map((name) =>
          new SupportedMethod().setServiceName('event_store.client.streams.streams').setMethodName(name),
        );
        done(null, new SupportedMethods().setMethodsList(methods).setEventStoreServerVersion('24.10.0'));
      },
    });
    this.server.addService(StreamsService, {
      read: (call: ReadCall) => this.read(call),
      append: (call: ServerReadableStream<AppendReq, AppendResp>, done: sendUnaryData<AppendResp>) =>
        this.append(call, done),
      batchAppend: (call: ServerDuplexStream<BatchAppendReq, BatchAppendResp>) => this.batchAppend(call),
    });
  }

  private read(call: ReadCall): void {
    this.leaderReads.push(call.metadata.get('requires-leader')[0] === 'true');
    const options = call.request.getOptions();
    // `ReadStream` faults reach only reads of one stream (a command's), never the $all reads that
    // subscriptions and liveness probes make meanwhile.
    const refuse = (error: Error) => answerError(call, error);
    if (!this.count('Read') || this.fault('Read', refuse) || (options?.hasStream() && this.fault('ReadStream', refuse)))
      return;
    if (!options) return answerError(call, Object.assign(new Error('no options'), { code: status.INVALID_ARGUMENT }));
    const uuids: UUIDOption = options.getUuidOption()?.hasStructured() ? 'structured' : 'string';
    const backwards = options.getReadDirection() === ReadReq.Options.ReadDirection.BACKWARDS;
    const count = options.hasCount() ? Number(options.getCount()) : Number.MAX_SAFE_INTEGER;
    const send = (event: Stored, all: boolean) => call.write(eventResponse(event, all, uuids));
    if (options.hasStream()) {
      const streamOptions = options.getStream() as ReadReq.Options.StreamOptions;
      const stream = streamName(streamOptions.getStreamIdentifier());
      const events = this.log.stream(stream);
      if (events.length === 0) {
        call.write(
          new ReadResp().setStreamNotFound(
            new ReadResp.StreamNotFound().setStreamIdentifier(streamOptions.getStreamIdentifier()),
          ),
        );
        return void call.end();
      }
      const from = streamOptions.hasRevision()
        ? BigInt(streamOptions.getRevision())
        : streamOptions.hasEnd()
          ? BigInt(events.length)
          : -1n;
      const chosen = this.log.readStream(stream, from, backwards);
      const sent = chosen.slice(0, count);
      for (const event of sent) send(event, false);
      return this.endRead(call, sent.length);
    }
    const all = options.getAll() as ReadReq.Options.AllOptions;
    const position = all.hasPosition() ? BigInt(all.getPosition()?.getCommitPosition() ?? '0') : undefined;
    if (options.hasSubscription()) return this.subscribe(call, all.hasEnd() ? this.log.head() : position, uuids);
    if (position !== undefined && !this.log.beginsAt(position)) {
      return answerError(
        call,
        Object.assign(new Error('Trying to read from an invalid position.'), { code: status.UNKNOWN }),
      );
    }
    // Backwards from the end, or forwards from the start, is the whole log.
    const whole = backwards ? all.hasEnd() : all.hasStart();
    const chosen = this.log.readAll(whole ? undefined : position, backwards);
    const sent = chosen.slice(0, count);
    for (const event of sent) send(event, true);
    this.endRead(call, sent.length);
  }

  private subscribe(call: ReadCall, after: bigint | undefined, uuids: UUIDOption): void {
    const subscription = { call, after, uuids };
    call.write(new ReadResp().setConfirmation(new ReadResp.SubscriptionConfirmation().setSubscriptionId(randomUUID())));
    for (const event of this.log.all())
      if (after === undefined || event.position > after) call.write(eventResponse(event, true, uuids));
    this.#subscriptions.add(subscription);
    const forget = () => this.#subscriptions.delete(subscription);
    call.on('cancelled', forget).on('close', forget).on('error', forget);
  }

  private append(call: ServerReadableStream<AppendReq, AppendResp>, done: sendUnaryData<AppendResp>): void {
    if (!this.count('Append')) return;
    const fault = this.fault('Append', (error) => done(error));
    if (fault && fault !== 'lose-answer') return;
    let stream = '';
    let expected: Expected = 'any';
    const proposed: Proposed[] = [];
    call.on('data', (req: AppendReq) => {
      const options = req.getOptions();
      if (options) {
        stream = streamName(options.getStreamIdentifier());
        expected = expectedOf(options.hasRevision() ? options.getRevision() : undefined, options);
      }
      const message = req.getProposedMessage();
      if (message) proposed.push(toProposed(message));
    });
    call.on('end', () => {
      if (this.#holdAnswers) return;
      const outcome = this.log.append(stream, expected, proposed);
      if ('actual' in outcome) {
        const wrong = new AppendResp.WrongExpectedVersion();
        if (outcome.actual === undefined) wrong.setCurrentNoStream(new Empty());
        else wrong.setCurrentRevision(outcome.actual.toString());
        return done(null, new AppendResp().setWrongExpectedVersion(wrong));
      }
      this.publish(outcome.written);
      if (fault)
        return done(Object.assign(new Error('connection lost after the commit'), { code: status.UNAVAILABLE }));
      const success = new AppendResp.Success()
        .setCurrentRevision(outcome.revision.toString())
        .setPosition(
          new AppendResp.Position()
            .setCommitPosition(outcome.position.toString())
            .setPreparePosition(outcome.position.toString()),
        );
      done(null, new AppendResp().setSuccess(success));
    });
  }

  private batchAppend(call: ServerDuplexStream<BatchAppendReq, BatchAppendResp>): void {
    if (!this.count('BatchAppend')) return;
    const pending = new Map<string, { stream: string; expected: Expected; proposed: Proposed[] }>();
    call.on('data', (req: BatchAppendReq) => {
      const id = req.getCorrelationId()?.getString() ?? '';
      const options = req.getOptions();
      const entry = pending.get(id) ?? { stream: '', expected: 'any' as Expected, proposed: [] };
      if (options) {
        entry.stream = streamName(options.getStreamIdentifier());
        entry.expected = expectedOf(options.hasStreamPosition() ? options.getStreamPosition() : undefined, options);
      }
      for (const message of req.getProposedMessagesList()) entry.proposed.push(toProposed(message));
      pending.set(id, entry);
      if (!req.getIsFinal() || this.#holdAnswers) return;
      pending.delete(id);
      const outcome = this.log.append(entry.stream, entry.expected, entry.proposed);
      const resp = new BatchAppendResp().setCorrelationId(new UUID().setString(id));
      if ('actual' in outcome) return call.write(resp.setError(wrongVersionStatus()));
      const success = new BatchAppendResp.Success()
        .setCurrentRevision(outcome.revision.toString())
        .setPosition(
          new AllStreamPosition()
            .setCommitPosition(outcome.position.toString())
            .setPreparePosition(outcome.position.toString()),
        );
      call.write(resp.setSuccess(success).setAny(new GoogleEmpty()));
      this.publish(outcome.written);
    });
  }

  private publish(events: Stored[]): void {
    for (const { call, uuids } of this.#subscriptions)
      for (const event of events) call.write(eventResponse(event, true, uuids));
  }
}
