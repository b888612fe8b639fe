/**
 * Entry for Node, Bun and Deno: `<runtime> run.mjs <sdk-entry-url> <runtime-name>`, with
 * PARTNER_API_KEY and PARTNER_API_BASE_URL in the environment. Imports the built SDK from the
 * given URL (the dist of a packed-and-installed copy) and runs the smoke client.
 */
import { smoke } from './client.mjs';

const args = globalThis.Deno ? globalThis.Deno.args : process.argv.slice(2);
const env = (name) => (globalThis.Deno ? globalThis.Deno.env.get(name) : process.env[name]);
const [sdkUrl, runtime] = args;
const sdk = await import(sdkUrl);
const line = await smoke(sdk, { apiKey: env('PARTNER_API_KEY'), baseUrl: env('PARTNER_API_BASE_URL'), runtime });
console.log(line);
