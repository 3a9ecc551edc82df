/**
 * Network faults on loopback, below any protocol: a proxy in front of a server that can pass
 * bytes, hold them (a silent partition: connections stay open, nothing arrives), delay them, cut
 * every connection, or stop listening; and a black hole (accepts, never answers). A closed port
 * is freePort() of ./service-process.ts. They fake the network only: what is behind the proxy
 * decides everything else.
 */
import { once } from 'node:events';
import { createServer, connect, type Server, type Socket } from 'node:net';

export type LinkState = 'up' | 'stalled' | 'down';

interface Pair {
  client: Socket;
  server: Socket;
}

/** Listens on 127.0.0.1:`port` (0: any free port) and forwards to 127.0.0.1:`target`. */
export class TcpFaultProxy {
  #state: LinkState = 'up';
  #delayMs = 0;
  #server: Server | undefined;
  readonly #pairs = new Set<Pair>();
  port = 0;

  private constructor(private readonly target: number) {}

  static async start(target: number, port = 0): Promise<TcpFaultProxy> {
    const proxy = new TcpFaultProxy(target);
    await proxy.listen(port);
    return proxy;
  }

  get state(): LinkState {
    return this.#state;
  }

  /** Forwards again; re-opens the port if it was down. Bytes held while stalled are dropped, as a partition drops them. */
  async up(): Promise<void> {
    if (this.#state === 'down') await this.listen(this.port);
    this.#state = 'up';
  }

  /** Every chunk reaches the other side `ms` later (0: at once). */
  slow(ms: number): void {
    this.#delayMs = ms;
  }

  /** A silent partition: open connections and new ones are kept, and nothing is passed either way. */
  stall(): void {
    this.#state = 'stalled';
  }

  /** Resets every open connection (as a crashed peer or a middlebox would); keeps listening. */
  cut(): void {
    for (const pair of this.#pairs) {
      pair.client.resetAndDestroy();
      pair.server.destroy();
    }
    this.#pairs.clear();
  }

  /** Closes the port and every connection: new connections are refused. */
  async down(): Promise<void> {
    this.#state = 'down';
    this.cut();
    const server = this.#server;
    this.#server = undefined;
    if (server) await new Promise((done) => server.close(done));
  }

  async close(): Promise<void> {
    await this.down();
  }

  private async listen(port: number): Promise<void> {
    const server = createServer((client) => this.accept(client));
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    this.#server = server;
    this.port = (server.address() as { port: number }).port;
  }

  private accept(client: Socket): void {
    const server = connect(this.target, '127.0.0.1');
    const pair = { client, server };
    this.#pairs.add(pair);
    const forget = () => {
      this.#pairs.delete(pair);
      client.destroy();
      server.destroy();
    };
    client.on('error', forget).on('close', forget);
    server.on('error', forget).on('close', forget);
    this.pipe(client, server);
    this.pipe(server, client);
  }

  private pipe(from: Socket, to: Socket): void {
    from.on('data', (chunk: Buffer) => {
      if (this.#state !== 'up') return;
      if (this.#delayMs === 0) to.write(chunk);
      else setTimeout(() => this.#state === 'up' && !to.destroyed && to.write(chunk), this.#delayMs);
    });
  }
}

/** A port that accepts connections and never sends a byte: a host behind a silent partition. */
export async function blackHole(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as { port: number }).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((done) => server.close(done));
    },
  };
}
