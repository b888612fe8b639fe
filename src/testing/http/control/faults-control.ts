import { FAULT_KINDS, type FaultShape, type FaultSpec } from '../../faults/faults.js';
import { MAX_GLOB_LENGTH } from '../../faults/path-glob.js';
import { validation } from '../api-error.js';
import {
  arrayOf,
  boolean,
  either,
  integer,
  number,
  object,
  oneOf,
  optional,
  recordOf,
  string,
  type Rule,
} from '../validation/rules.js';
import { type ControlRoute, noParams, readObject } from './control-route.js';

/** `hang`, `reset` and `malformed` are switches: true, or left out. */
const on: Rule<true> = (value, path) => {
  if (boolean()(value, path) !== true) throw validation(path, `${path} must be true, or left out.`);
  return true;
};

const shape = {
  status: optional(integer(100, 599)),
  body: optional(oneOf(['json', 'html', 'empty'] as const)),
  headers: optional(recordOf(string())),
  delayMs: optional(integer(0, 600_000)),
  hang: optional(on),
  reset: optional(on),
  malformed: optional(on),
};
/**
 * Where a fault applies: `path` is exact; `pathPattern` a glob (`*` any run of characters). Never
 * a RegExp: a pattern from outside could backtrack for seconds and block the whole server.
 */
const where = {
  path: optional(string({ min: 1 })),
  pathPattern: optional(string({ min: 1, max: MAX_GLOB_LENGTH })),
  method: optional(string({ min: 1 })),
  when: optional(oneOf(['before', 'after'] as const)),
};
const faultSpec = object({ ...shape, ...where, times: optional(integer(1, 1_000_000)) });
const randomFaults = object({
  ...where,
  rate: number(0, 1),
  kinds: optional(arrayOf(either(oneOf(FAULT_KINDS), object(shape)))),
  seed: optional(integer(0, 2 ** 32 - 1)),
});

/** The fields as sent, refusing what the sandbox no longer takes with a message that says what to send instead. */
async function readWhere(request: Request): Promise<Record<string, unknown>> {
  const body = await readObject(request);
  if (body.pathFlags !== undefined)
    throw validation(
      'pathFlags',
      'pathFlags is no longer taken: pathPattern is a glob now, not a RegExp. Write it with * for any run of ' +
        'characters, e.g. "/partner/v1/locations/*" (matching is case-sensitive).',
    );
  if (body.path !== undefined && body.pathPattern !== undefined)
    throw validation('pathPattern', 'Send path (exact) or pathPattern (a glob with *), not both.');
  return body;
}

export const faultRoutes: ControlRoute[] = [
  {
    method: 'GET',
    path: '/faults',
    summary: '{ pending }: queued faults still to apply',
    handler: ({ deps, query }) => {
      noParams(query);
      return { body: { pending: deps.faults.pending } };
    },
  },
  {
    method: 'POST',
    path: '/faults',
    summary: 'queue a fault for the next matching request(s): the fields of sandbox.faults.next() → { pending }',
    handler: async ({ deps, query, request }) => {
      noParams(query);
      deps.faults.next(faultSpec(await readWhere(request), '') as FaultSpec);
      return { status: 201, body: { pending: deps.faults.pending } };
    },
  },
  {
    method: 'POST',
    path: '/faults/random',
    summary: 'random faults from now on: the fields of sandbox.faults.random()',
    handler: async ({ deps, query, request }) => {
      noParams(query);
      const options = randomFaults(await readWhere(request), '');
      deps.faults.random({
        ...options,
        ...(options.kinds ? { kinds: options.kinds as Array<(typeof FAULT_KINDS)[number] | FaultShape> } : {}),
      });
      return { body: { random: true, pending: deps.faults.pending } };
    },
  },
  {
    method: 'DELETE',
    path: '/faults',
    summary: 'remove every queued and random fault',
    handler: ({ deps, query }) => {
      noParams(query);
      deps.faults.clear();
      return { body: { pending: 0 } };
    },
  },
];
