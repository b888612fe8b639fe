/**
 * `npm run build` (after tsup): the OpenAPI document of the service and of the sandbox's control
 * API, generated from src/schemas and src/resources (src/openapi/), written to dist/openapi.json
 * (shipped as `@crp/partner-sdk/openapi.json`) and to src/testing/http/openapi.json, which the
 * sandbox serves at GET /openapi.json (the sandbox imports nothing from the SDK, so it gets a
 * committed copy; test/openapi/drift.test.ts fails when that copy is stale).
 *
 *   tsx scripts/build-openapi.ts            write both
 *   tsx scripts/build-openapi.ts --sandbox  write only the sandbox's copy (no dist/ needed)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildDocument } from '../src/openapi/document.js';
import { SANDBOX_DOCUMENT_PATH, serialize } from '../src/openapi/serialize.js';

const text = serialize(await buildDocument());
writeFileSync(SANDBOX_DOCUMENT_PATH, text);
console.log(`openapi: ${SANDBOX_DOCUMENT_PATH} (${(text.length / 1024).toFixed(0)} kB)`);
if (!process.argv.includes('--sandbox')) {
  mkdirSync('dist', { recursive: true });
  writeFileSync('dist/openapi.json', text);
  console.log('openapi: dist/openapi.json');
}
