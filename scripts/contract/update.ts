import { existsSync, writeFileSync } from 'node:fs';
import { unannouncedBreakingChanges } from './breaking-changes';
import { COMMITTED_CONTRACT, committedContractText, servedContractText } from './committed';

/**
 * `npm run contract:update`: writes the served contract to docs/openapi.json, unless it breaks
 * clients of the committed one without a new major info.version (CONTRACT_VERSION).
 */
const served = servedContractText();
const breaks = existsSync(COMMITTED_CONTRACT) ? unannouncedBreakingChanges(JSON.parse(committedContractText()), JSON.parse(served)) : [];
if (breaks.length > 0) {
  process.stderr.write(`contract:update: breaking changes without a new major CONTRACT_VERSION (src/shared/http/openapi.ts):\n${breaks.map((b) => `- ${b}`).join('\n')}\n`);
  process.exit(1);
}
writeFileSync(COMMITTED_CONTRACT, served);
process.stdout.write(`contract:update: wrote ${COMMITTED_CONTRACT}\n`);
