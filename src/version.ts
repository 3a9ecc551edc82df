import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The version of this implementation, from package.json (one level above both src/ and dist/).
 * It moves with every release; the contract's own version moves only when the contract does.
 */
export const IMPLEMENTATION_VERSION: string = (
  JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }
).version;
