import { existsSync, writeFileSync } from 'node:fs';
import { unannouncedBreakingChanges } from './breaking-changes';
import { COMMITTED_CONTRACT, committedContractText, servedContractText } from './committed';

/**
 * `npm run contract:update`: writes the served contract to docs/openapi.json, unless it breaks
 * clients of the committed one without a new major info.version (CONTRACT_VERSION).
 * `node -r ./test/support/load-ts.js scripts/contract/update.ts --accept-breaking` (npm would hand the flag to
 * client:generate, the script's second command) writes it anyway, listing what breaks: the
 * specification fixes the version at 1.1.0, so a break it demands is accepted by name in the
 * commit that makes it, never silently.
 */
const served = servedContractText();
const breaks = existsSync(COMMITTED_CONTRACT) ? unannouncedBreakingChanges(JSON.parse(committedContractText()), JSON.parse(served)) : [];
const accepted = process.argv.includes('--accept-breaking');
if (breaks.length > 0 && accepted) process.stdout.write(`contract:update: accepted breaking changes:\n${breaks.map((b) => `- ${b}`).join('\n')}\n`);
if (breaks.length > 0 && !accepted) {
  process.stderr.write(`contract:update: breaking changes without a new major CONTRACT_VERSION (src/shared/http/openapi.ts); name them in the commit and pass --accept-breaking when a rule demands them:\n${breaks.map((b) => `- ${b}`).join('\n')}\n`);
  process.exit(1);
}
writeFileSync(COMMITTED_CONTRACT, served);
process.stdout.write(`contract:update: wrote ${COMMITTED_CONTRACT}\n`);
