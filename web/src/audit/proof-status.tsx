import { useEffect, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api/client';
import { when } from '../ui/load';
import { brokenLinks, provenIn, type SignedTree } from './verify';

type AuditEvent = Schemas['AuditEvent'];

/** What the browser found when it checked a history against the service's public key. */
export interface Verification {
  /** Why each event that does not verify does not, by position. */
  broken: Map<string, string>;
  /** The checkpoint whose signed root holds the latest event it could prove (its tree size), and that event's position. */
  checkpoint: { size: number; signed_at: string; position: string } | null;
  /** Why no checkpoint could be shown, when none could. */
  unproven?: string;
}

// Events recorded since the latest checkpoint are not in it yet: so many are tried, newest first.
const PROOFS_TRIED = 5;

/** A history's events by stream, each stream's in order: each stream is a chain of its own. */
function byStream(events: AuditEvent[]): AuditEvent[][] {
  const streams = new Map<string, AuditEvent[]>();
  for (const event of events) streams.set(event.stream, [...(streams.get(event.stream) ?? []), event]);
  return [...streams.values()];
}

/** An event with the signed tree that holds it. */
interface Proven {
  event: AuditEvent;
  tree: SignedTree;
}

/** The newest event of one stream a checkpoint holds, proved; 'changed' when a proof does not hold. */
async function provenNewest(stream: AuditEvent[], verifierKey: string): Promise<Proven | 'changed' | null> {
  const newest = stream
    .filter((e) => e.id !== undefined)
    .reverse()
    .slice(0, PROOFS_TRIED);
  for (const event of newest) {
    const proof = await call(() => api.GET('/audit/proof', { params: { query: { event: event.id! } } }));
    if (!proof.ok) continue;
    const tree = await provenIn(proof.data, event, verifierKey);
    return tree ? { event, tree } : 'changed';
  }
  return null;
}

/**
 * Checks a member's history, stream by stream (their account's, their credential's): digests and
 * links, then the inclusion of the newest event of each stream a checkpoint holds, whose chain
 * links vouch for every event before it in that stream. A stream none of whose events a
 * checkpoint holds yet is newer than the checkpoint, as the last events of any stream may be.
 */
export async function verifyHistory(events: AuditEvent[]): Promise<Verification> {
  const streams = byStream(events);
  const broken = new Map<string, string>();
  for (const stream of streams) for (const [position, why] of await brokenLinks(stream)) broken.set(position, why);
  const key = await call(() => api.GET('/audit/key'));
  if (!key.ok) return { broken, checkpoint: null, unproven: key.refusal.message };
  let newest: Proven | null = null;
  for (const stream of streams) {
    const proven = await provenNewest(stream, key.data.verifier_key);
    if (proven === 'changed')
      return { broken, checkpoint: null, unproven: 'the signed checkpoint does not hold this history: it was changed' };
    // The history is in the order of the log: of two events, the later in it is the newer.
    if (proven && (!newest || events.indexOf(proven.event) > events.indexOf(newest.event))) newest = proven;
  }
  if (!newest) return { broken, checkpoint: null, unproven: 'no signed checkpoint holds these events yet' };
  return {
    broken,
    checkpoint: { size: newest.tree.size, signed_at: newest.tree.time, position: newest.event.position },
  };
}

/** "Verified up to the checkpoint of N events, signed at T", or why not, above the timeline it checked. */
export function ProofStatus({ verification }: { verification: Verification | null }) {
  if (!verification) return <p class="proof">Checking the history against the signed checkpoints…</p>;
  const { broken, checkpoint, unproven } = verification;
  return (
    <p class={`proof ${broken.size > 0 || !checkpoint ? 'unverified' : 'verified'}`} data-testid="proof-status">
      {checkpoint ? (
        <>
          Verified up to the checkpoint of {checkpoint.size} events, signed at{' '}
          <time dateTime={checkpoint.signed_at}>{when(checkpoint.signed_at)}</time>.
        </>
      ) : (
        <>Not verified: {unproven}.</>
      )}
      {broken.size > 0 && ` ${broken.size} ${broken.size === 1 ? 'event does' : 'events do'} not verify: marked below.`}
    </p>
  );
}

/** The verification of the history shown, redone whenever another history is shown. */
export function useVerification(events: AuditEvent[] | null): Verification | null {
  const [verification, setVerification] = useState<Verification | null>(null);
  useEffect(() => {
    setVerification(null);
    if (!events) return;
    let current = true;
    verifyHistory(events)
      // Only where WebCrypto is (HTTPS, or localhost), and on answers of the shape the contract gives.
      .catch(() => ({
        broken: new Map<string, string>(),
        checkpoint: null,
        unproven: 'this browser could not check the proof (the console must be served over HTTPS)',
      }))
      .then((v) => current && setVerification(v));
    return () => {
      current = false;
    };
  }, [events]);
  return verification;
}
