#!/usr/bin/env node
/**
 * crp-sandbox: the sandbox emulator on a real port, with its control API under /_sandbox/.
 * `crp-sandbox --help` lists the options. Never loads msw.
 */
import { createEmulator, isLoopback } from './emulator.js';
import { reportActivity } from './cli/activity.js';
import { helpText, parseOptions, USAGE, UsageError, type CliOptions } from './cli/options.js';
import { describePace, flowTime, stepTime } from './cli/time-flow.js';
import type { ListeningSandbox } from './transports/node-server.js';

function usage(message: string): never {
  console.error(`crp-sandbox: ${message}\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<void> {
  let options: CliOptions;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) usage(error.message);
    throw error;
  }
  if (options.help) {
    console.log(helpText());
    return;
  }
  if (!isLoopback(options.host) && options.adminToken === undefined) {
    usage(
      `--host ${options.host} would let other machines drive the sandbox: add --admin-token <secret> (or bind 127.0.0.1)`,
    );
  }

  // A reset (POST /_sandbox/reset) goes back to the start-up state: the banner's key stays valid
  // (for a new, empty account) and the demo stores come back.
  const populateDemo = (): void => {
    if (options.stores > 0)
      sandbox.populate(key, { locations: options.stores, reservationsPerLocation: 20, idPrefix: 'demo-' });
  };
  const { emulator: sandbox, reissueKey } = createEmulator(
    {
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.visitsPerWeek === undefined ? {} : { visitsPerWeek: options.visitsPerWeek }),
      ...(options.start === undefined ? {} : { now: options.start }),
      ...(options.adminToken === undefined ? {} : { adminToken: options.adminToken }),
      allowedHosts: options.allowHosts,
      dialect: options.dialect,
    },
    {
      afterReset: () => {
        reissueKey(key);
        populateDemo();
      },
    },
  );
  const key = sandbox.issueKey();
  populateDemo();

  let server: ListeningSandbox;
  try {
    server = await sandbox.listen(options.port, options.host);
  } catch (error) {
    usage(bindProblem(error, options));
  }

  const stops: Array<() => void> = [];
  if (options.pace > 0) stops.push(flowTime(sandbox.clock, options.pace));
  else if (options.advanceEveryMs > 0)
    stops.push(stepTime(sandbox.clock, options.advanceEveryMs, options.advanceMinutes));
  const flowing = stops.length > 0;
  if (flowing && !options.quiet)
    stops.push(reportActivity(sandbox.inspect, sandbox.clock, key, (line) => console.log(line)));

  const control = `${server.url}/_sandbox`;
  const time =
    options.pace > 0
      ? `flows at ${options.pace}× (${describePace(options.pace)})`
      : options.advanceEveryMs > 0
        ? `moves ${options.advanceMinutes} simulated minutes every ${options.advanceEveryMs} real ms`
        : 'stands still until you advance it (or start with --pace 3600)';
  const adminHeader = options.adminToken === undefined ? '' : ` -H "X-Sandbox-Admin-Token: $CRP_SANDBOX_ADMIN_TOKEN"`;
  console.log(
    [
      `crp-sandbox listening on ${server.host}:${server.port}  (API at ${server.url}/partner/v1)`,
      `  control API  ${control}  ` +
        `${options.adminToken === undefined ? '(no token: reachable from this machine only)' : '(every call needs X-Sandbox-Admin-Token)'}`,
      `  dialect      ${options.dialect}`,
      `  seed         ${options.seed === undefined ? 'none: the key below is random; data follows seed 1' : `${options.seed} (same seed, same key and data)`}`,
      `  demo stores  ${options.stores === 0 ? 'none (--stores N adds some)' : `${options.stores} (demo-000001 …), with bookings`}`,
      `  time         simulated, now ${sandbox.clock.now().toISOString()}; ${time}`,
      `               advance it: curl -X POST ${control}/clock/advance -H 'content-type: application/json'${adminHeader} -d '{"by_ms":86400000}'`,
      `  reset        curl -X POST ${control}/reset -H 'content-type: application/json'${adminHeader}  (back to start-up: the key below stays valid)`,
      `  answers to   ${answersTo(server, options.allowHosts)}; other Host names get 403 (--allow-host adds one)`,
      `PARTNER_API_BASE_URL=${server.url}`,
      `PARTNER_API_KEY=${key}`,
    ].join('\n'),
  );

  const stop = (): void => {
    for (const s of stops) s();
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** The Host names the server takes, for the banner (interface addresses of a wildcard bind are left out). */
function answersTo(server: ListeningSandbox, allowed: readonly string[]): string {
  const names = [
    'localhost',
    '127.0.0.1',
    '[::1]',
    server.host.includes(':') ? `[${server.host}]` : server.host,
  ].filter((n) => n !== '0.0.0.0' && n !== '[::]');
  return [...new Set(names)].concat(allowed).join(', ');
}

/** Why listen() failed, in the terms of the command line. */
function bindProblem(error: unknown, options: CliOptions): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'EADDRINUSE':
      return `port ${options.port} is already in use on ${options.host}: choose another with --port, or --port 0 for a free one`;
    case 'EACCES':
      return `not allowed to bind port ${options.port} on ${options.host} (ports below 1024 need privileges): choose another with --port`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
    case 'EINVAL':
      return `--host ${options.host} is not an address of this machine: use 127.0.0.1, ::1, 0.0.0.0 or one of its interface addresses`;
    default:
      return `could not serve on ${options.host}:${options.port}: ${(error as Error).message}`;
  }
}

void main();
