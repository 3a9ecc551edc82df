import { Chunk } from '../ui/chunk';

const loadReference = () => import('./reference/partner-reference').then((module) => module.PartnerReference);

/** The partner reference is its own chunk, fetched when a member opens it: the contract, the schema tree and "try it" stay off the first screen. */
export function PartnerReference({ apiid }: { apiid: string | null }) {
  return <Chunk load={loadReference} what="the API reference" props={{ apiid }} />;
}
