import { Readable } from 'node:stream';
import { UnavailableError, UnknownError, type KurrentDBClient } from '@kurrent/kurrentdb-client';
import { STABLE_AFTER_MS, followAll } from '../../../src/stores/eventstoredb/subscription';
import { InvalidPosition, START } from '../../../src/stores/ports';

/**
 * The adapter's resubscribe loop around the client's subscription (a Readable that emits
 * 'confirmation', as the client's does): how long it waits after each drop and what it tells
 * its consumer. A server that confirms and then fails is what no server here can be made to do.
 */

/** A client whose every subscription is a stream `play` then drives: events, confirmation, failure. */
function subscribingClient(play: (stream: Readable) => void = () => undefined) {
  let subscriptions = 0;
  const client = {
    subscribeToAll: () => {
      subscriptions += 1;
      const stream = Object.assign(new Readable({ objectMode: true, read() {} }), {
        unsubscribe: async () => undefined,
      });
      play(stream);
      return stream;
    },
  } as unknown as KurrentDBClient;
  return { client, subscriptions: () => subscriptions };
}

function confirmingThenFailing(clock: { now: number }, upForMs: () => number) {
  return subscribingClient((stream) =>
    setImmediate(() => {
      stream.emit('confirmation');
      clock.now += upForMs();
      stream.destroy(new UnavailableError({ code: 14, details: 'reset', message: '14 UNAVAILABLE' } as never));
    }),
  );
}

async function drops(count: number, upForMs: (n: number) => number) {
  const clock = { now: 0 };
  let n = 0;
  const { client } = confirmingThenFailing(clock, () => upForMs(n++));
  const stop = new AbortController();
  const seen: { live: number; waits: number[] } = { live: 0, waits: [] };
  const observer = {
    onLive: () => (seen.live += 1),
    onDropped: (_error: unknown, retryInMs: number) => {
      seen.waits.push(retryInMs);
      if (seen.waits.length === count) stop.abort();
    },
  };
  const follow = followAll(client, START, stop.signal, async () => START, {
    random: () => 0,
    now: () => clock.now,
    observer,
  });
  for await (const _event of follow) {
    // No events: only drops.
  }
  return seen;
}

describe('KurrentDB subscription back-off', () => {
  it('keeps backing off when the server confirms each subscription and then fails it', async () => {
    const seen = await drops(4, () => 10);
    expect(seen.waits).toEqual([100, 200, 400, 800]);
    expect(seen.live).toBe(4);
  });

  it('starts again from the first step after a subscription stayed up long enough', async () => {
    const seen = await drops(3, (n) => (n === 1 ? STABLE_AFTER_MS : 10));
    expect(seen.waits).toEqual([100, 100, 200]);
  });

  it('halts loudly on a checkpoint after the head of the log, once the grace for a lagging node is over', async () => {
    const client = {
      subscribeToAll: () => {
        throw new Error('must not subscribe');
      },
    } as unknown as KurrentDBClient;
    const head = '00000000000000000100:00000000000000000100';
    const noGrace = { refusalGraceMs: 0 };
    const follow = followAll(
      client,
      '00000000000000000200:00000000000000000200',
      new AbortController().signal,
      async () => head,
      noGrace,
    );
    await expect(follow.next()).rejects.toThrow(InvalidPosition);
    await expect(
      followAll(
        client,
        '00000000000000000200:00000000000000000200',
        new AbortController().signal,
        async () => head,
        noGrace,
      ).next(),
    ).rejects.toThrow(/after the head of the log \(00000000000000000100:00000000000000000100\)/);
  });

  it("halts loudly, once the grace is over, when the server refuses the checkpoint as no event's position", async () => {
    // What the client makes of the server's answer to a position inside a record.
    const { client, subscriptions } = subscribingClient((stream) =>
      setImmediate(() =>
        stream.destroy(
          new UnknownError({
            code: 2,
            details: 'Trying to read from an invalid position.',
            message: '2 UNKNOWN: Trying to read from an invalid position.',
          } as never),
        ),
      ),
    );
    const checkpoint = '00000000000000000150:00000000000000000150';
    const head = '00000000000000000900:00000000000000000900';
    const dropped: unknown[] = [];
    const follow = followAll(client, checkpoint, new AbortController().signal, async () => head, {
      random: () => 0,
      observer: { onDropped: (error) => dropped.push(error) },
      refusalGraceMs: 0,
    });
    await expect(follow.next()).rejects.toThrow(
      /not where an event of this log begins.*platform projections rebuild.*00000000000000000150/,
    );
    expect(subscriptions()).toBe(1);
    expect(dropped).toEqual([]);
  });

  it('passes over events the service could not have written, so another application sharing the database cannot stop it', async () => {
    const at = (n: number) => ({ commit: BigInt(n), prepare: BigInt(n) });
    const base = { streamId: 'credential-1', revision: 0n, id: 'e', created: new Date(), metadata: { time: 'then' } };
    const written = [
      { ...base, streamId: 'other-app', type: 'Blob', isJson: false, data: new Uint8Array([1, 2]), position: at(10) },
      { ...base, streamId: 'other-app', type: 'Listed', isJson: true, data: [1, 2], position: at(20) },
      { ...base, type: 'CredentialApplied', isJson: true, data: { member_id: 1, username: 'ada' }, position: at(30) },
    ];
    const stop = new AbortController();
    const { client } = subscribingClient((stream) => {
      for (const event of written) stream.push({ event });
    });
    const follow = followAll(client, START, stop.signal, async () => START);
    const first = await follow.next();
    stop.abort();
    expect(first.value).toMatchObject({
      type: 'CredentialApplied',
      stream: 'credential-1',
      data: { member_id: 1, username: 'ada' },
    });
  });

  it('treats a head it cannot read as a drop, and tells the consumer', async () => {
    const stop = new AbortController();
    const dropped: unknown[] = [];
    const client = {} as KurrentDBClient;
    const follow = followAll(
      client,
      '00000000000000000200:00000000000000000200',
      stop.signal,
      async () => {
        throw new UnavailableError({ code: 14, details: 'down', message: '14 UNAVAILABLE' } as never);
      },
      {
        random: () => 0,
        observer: {
          onDropped: (error) => {
            dropped.push(error);
            stop.abort();
          },
        },
      },
    );
    await expect(follow.next()).resolves.toEqual({ done: true, value: undefined });
    expect(dropped).toEqual([expect.any(UnavailableError)]);
  });

  it('ends without subscribing when it is stopped while the head of the log is read', async () => {
    // Found by the reliability suite: a subscription opened after the abort never heard it, and shutdown waited forever.
    const stop = new AbortController();
    const { client, subscriptions } = subscribingClient();
    const head = async () => {
      stop.abort();
      return '00000000000000000200:00000000000000000200';
    };
    const follow = followAll(client, '00000000000000000200:00000000000000000200', stop.signal, head);
    await expect(follow.next()).resolves.toEqual({ done: true, value: undefined });
    expect(subscriptions()).toBe(0);
  });
});
