/**
 * A stand-in MongoDB primary on loopback: it speaks enough of the wire protocol (OP_MSG, and
 * OP_QUERY for a legacy handshake) for the real `mongodb` driver to connect to it as to a
 * standalone server, records every command the driver sends, and answers each with what the
 * test's handler returns. It evaluates no query and stores nothing: it checks **what the client
 * sends and how it takes the answers**, never what a real server would do with them.
 */
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { BSON, type Document } from 'mongodb';

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;

export type Answer = (command: Document) => Document | undefined;

export interface MongoStandIn {
  port: number;
  url: string;
  /** Every command received, handshakes and session bookkeeping left out. */
  commands: Document[];
  close(): Promise<void>;
}

const HANDSHAKE = new Set(['hello', 'ismaster', 'isMaster', 'ping', 'endSessions', 'buildInfo']);

function helloAnswer(): Document {
  return {
    helloOk: true,
    isWritablePrimary: true,
    ismaster: true,
    maxBsonObjectSize: 16 * 1024 * 1024,
    maxMessageSizeBytes: 48_000_000,
    maxWriteBatchSize: 100_000,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: 1,
    minWireVersion: 0,
    maxWireVersion: 21,
    readOnly: false,
    ok: 1,
  };
}

/** The body of an OP_MSG, its document sequences folded in under their identifiers. */
function readMessage(body: Buffer): Document {
  let offset = 4; // flagBits
  let command: Document = {};
  const sequences: Record<string, Document[]> = {};
  while (offset < body.length) {
    const kind = body[offset]!;
    offset += 1;
    if (kind === 0) {
      const size = body.readInt32LE(offset);
      command = BSON.deserialize(body.subarray(offset, offset + size));
      offset += size;
    } else {
      const size = body.readInt32LE(offset);
      const end = offset + size;
      const nameEnd = body.indexOf(0, offset + 4);
      const name = body.toString('utf8', offset + 4, nameEnd);
      let at = nameEnd + 1;
      const docs: Document[] = [];
      while (at < end) {
        const docSize = body.readInt32LE(at);
        docs.push(BSON.deserialize(body.subarray(at, at + docSize)));
        at += docSize;
      }
      sequences[name] = docs;
      offset = end;
    }
  }
  return { ...command, ...sequences };
}

function frame(requestId: number, opCode: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(16);
  header.writeInt32LE(16 + payload.length, 0);
  header.writeInt32LE(requestId + 1_000_000, 4);
  header.writeInt32LE(requestId, 8);
  header.writeInt32LE(opCode, 12);
  return Buffer.concat([header, payload]);
}

function reply(requestId: number, opCode: number, answer: Document): Buffer {
  const doc = Buffer.from(BSON.serialize(answer));
  if (opCode === OP_MSG) return frame(requestId, OP_MSG, Buffer.concat([Buffer.alloc(5), doc]));
  const head = Buffer.alloc(20); // responseFlags, cursorID (8), startingFrom, numberReturned
  head.writeInt32LE(1, 16);
  return frame(requestId, OP_REPLY, Buffer.concat([head, doc]));
}

function commandOf(opCode: number, body: Buffer): Document {
  if (opCode === OP_MSG) return readMessage(body);
  // OP_QUERY: flags, the collection's full name, skip, limit, then the command.
  const nameEnd = body.indexOf(0, 4);
  const at = nameEnd + 1 + 8;
  return BSON.deserialize(body.subarray(at, at + body.readInt32LE(at)));
}

/** Listens on 127.0.0.1 at a port the OS picks; `answer` gives each recorded command's answer ({ ok: 1 } when it gives none). */
export async function mongoStandIn(answer: Answer): Promise<MongoStandIn> {
  const commands: Document[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 16 && pending.length >= pending.readInt32LE(0)) {
        const length = pending.readInt32LE(0);
        const requestId = pending.readInt32LE(4);
        const opCode = pending.readInt32LE(12);
        const command = commandOf(opCode, pending.subarray(16, length));
        pending = pending.subarray(length);
        const name = Object.keys(command)[0] ?? '';
        let answered: Document;
        if (HANDSHAKE.has(name)) answered = name === 'ping' || name === 'endSessions' ? { ok: 1 } : helloAnswer();
        else {
          commands.push(command);
          answered = answer(command) ?? { ok: 1 };
        }
        socket.write(reply(requestId, opCode === OP_QUERY ? OP_QUERY : OP_MSG, answered));
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  return {
    port,
    url: `mongodb://127.0.0.1:${port}/platform?directConnection=true`,
    commands,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((done) => server.close(done));
    },
  };
}
