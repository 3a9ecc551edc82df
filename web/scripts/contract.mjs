// Types, the enums' values and the partner reference come from the contract the server prints, never from its source
// files: the console builds against what /api/v1 promises, wherever the server keeps its code.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(web, 'generated');
const contract = JSON.parse(execFileSync(process.execPath, [join(web, '..', 'dist', 'cli.js'), 'openapi'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));

mkdirSync(out, { recursive: true });
// With the enums' values as arrays too: the console offers the statuses, event types and permissions the contract lists.
writeFileSync(join(out, 'contract.ts'), astToString(await openapiTS(contract, { enumValues: true })));
writeFileSync(join(out, 'partner-contract.json'), JSON.stringify(partnerPart(contract)));

/** The open endpoints and the schemas they name: what a member may read (GET /openapi is administrators' only). */
function partnerPart(document) {
  const paths = {};
  for (const [path, operations] of Object.entries(document.paths)) {
    const open = Object.fromEntries(Object.entries(operations).filter(([, op]) => op.tags?.includes('partner')));
    if (Object.keys(open).length) paths[path] = open;
  }
  const schemas = {};
  const wanted = [paths];
  while (wanted.length) {
    const text = JSON.stringify(wanted.pop());
    for (const [, name] of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (schemas[name]) continue;
      schemas[name] = document.components.schemas[name];
      wanted.push(schemas[name]);
    }
  }
  const { securitySchemes } = document.components;
  return { openapi: document.openapi, info: document.info, servers: document.servers, paths, components: { schemas, securitySchemes: { apiId: securitySchemes.apiId, apiKey: securitySchemes.apiKey } } };
}
