#!/usr/bin/env node
/**
 * crp-sandbox: serve the sandbox emulator on a real port.
 *
 *   npx crp-sandbox --port 4010 --seed 42 [--host 127.0.0.1] [--advance-every-ms N] [--advance-minutes M]
 *
 * Prints the base URL and a test key, then serves until SIGINT or SIGTERM. With
 * --advance-every-ms, simulated time moves on by --advance-minutes (default 60) every N real
 * milliseconds, so bookings keep arriving while you watch. Never loads msw.
 */
import { parseArgs } from 'node:util';
import { DIALECT_NAMES, type DialectName } from './access/dialects.js';
import { createEmulator } from './emulator.js';

const USAGE = 'Usage: crp-sandbox [--port 4010] [--seed 1] [--host 127.0.0.1] [--advance-every-ms N] [--advance-minutes 60] [--dialect contract]';

function number(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) {
    console.error(`crp-sandbox: --${name} must be a number of 0 or more, got ${JSON.stringify(text)}\n${USAGE}`);
    process.exit(2);
  }
  return value;
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        seed: { type: 'string' },
        host: { type: 'string' },
        'advance-every-ms': { type: 'string' },
        'advance-minutes': { type: 'string' },
        dialect: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    console.error(`crp-sandbox: ${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const dialect = values.dialect ?? 'contract';
  if (!(DIALECT_NAMES as readonly string[]).includes(dialect)) {
    console.error(`crp-sandbox: --dialect must be one of ${DIALECT_NAMES.join(', ')}, got ${JSON.stringify(dialect)}\n${USAGE}`);
    process.exit(2);
  }
  const { emulator: sandbox } = createEmulator({ seed: number('seed', values.seed, 1), dialect: dialect as DialectName });
  const key = sandbox.issueKey();
  const server = await sandbox.listen(number('port', values.port, 4010), values.host ?? '127.0.0.1');
  const every = number('advance-every-ms', values['advance-every-ms'], 0);
  const minutes = number('advance-minutes', values['advance-minutes'], 60);
  const ticker = every > 0 ? setInterval(() => sandbox.clock.advance({ minutes }), every) : undefined;

  console.log(`crp-sandbox listening on ${server.url}  (API at ${server.url}/partner/v1)`);
  console.log(`PARTNER_API_BASE_URL=${server.url}`);
  console.log(`PARTNER_API_KEY=${key}`);

  const stop = (): void => {
    if (ticker) clearInterval(ticker);
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
