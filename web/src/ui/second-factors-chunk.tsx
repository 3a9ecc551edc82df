import { Chunk } from './chunk';
import type { SecondFactorsProps } from './second-factors';

/**
 * The account screen's second-factor cards, their own chunk: the QR encoder and the cards stay
 * off the first screen's script budget (test/web/first-screen-budget.test.ts).
 */
export const SecondFactorsChunk = (props: SecondFactorsProps) => (
  <Chunk
    load={() => import('./second-factors').then((m) => m.SecondFactors)}
    what="your second factors"
    props={props}
  />
);
