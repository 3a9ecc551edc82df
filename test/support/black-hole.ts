/**
 * Network peers for fault tests of real clients and drivers, on loopback only: a black hole that
 * accepts every TCP connection and never answers (a server that hangs, or a partition that drops
 * packets after the handshake), and a closed port (a server that is down: connections are refused).
 * They check what the client does when the network fails, not what a real server would answer.
 */
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { freePort } from './service-process';

export interface BlackHole {
  port: number;
  /** Connections accepted so far. */
  accepted(): number;
  /** Bytes the clients sent, which nobody will ever answer. */
  received(): number;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 at a port the OS picks; reads whatever comes and answers nothing. */
export async function blackHole(): Promise<BlackHole> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  let received = 0;
  const server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('data', (chunk) => (received += chunk.length));
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as { port: number }).port,
    accepted: () => accepted,
    received: () => received,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((done) => server.close(done));
    },
  };
}

/** A loopback port nobody listens on: connecting is refused at once (ECONNREFUSED). */
export const closedPort = freePort;
