import { Chunk } from './chunk';
import type { Side } from './passkeys-api';

type TotpCardProps = { side: Side; onDone: (message: string) => void; required?: boolean };

/**
 * The authenticator app's card, its own chunk: the QR encoder it carries stays off the first
 * screen's script budget (test/web/first-screen-budget.test.ts).
 */
export const TotpCardChunk = (props: TotpCardProps) => (
  <Chunk load={() => import('./totp').then((m) => m.TotpCard)} what="the authenticator app's card" props={props} />
);
