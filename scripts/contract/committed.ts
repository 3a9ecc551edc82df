import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { platformContract } from '../../src/app';

/** The contract as committed: what the last accepted change left, and what clients are built against. */
export const COMMITTED_CONTRACT = join(__dirname, '..', '..', 'docs', 'openapi.json');

/** The served contract (GET /openapi, `platform openapi`), as the committed file holds it. */
export function servedContractText(): string {
  return `${JSON.stringify(platformContract(), null, 2)}\n`;
}

export function committedContractText(): string {
  return readFileSync(COMMITTED_CONTRACT, 'utf8');
}
