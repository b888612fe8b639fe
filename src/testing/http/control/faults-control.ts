import { FAULT_KINDS, type FaultShape, type FaultSpec } from '../../faults/faults.js';
import { validation } from '../api-error.js';
import { arrayOf, boolean, either, integer, number, object, oneOf, optional, recordOf, string, type Rule } from '../validation/rules.js';
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
/** Where a fault applies: `path` is exact; `pathPattern` (with `pathFlags`) is a RegExp source, JSON having no RegExp. */
const where = {
  path: optional(string({ min: 1 })),
  pathPattern: optional(string({ min: 1 })),
  pathFlags: optional(string({ pattern: /^[imsu]*$/, says: 'may only hold the RegExp flags i, m, s, u' })),
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

/** `path`, or `pathPattern` as a RegExp. */
function pathOf(input: { path?: string; pathPattern?: string; pathFlags?: string }): string | RegExp | undefined {
  if (input.path !== undefined && input.pathPattern !== undefined) throw validation('pathPattern', 'Send path (exact) or pathPattern (a RegExp source), not both.');
  if (input.pathPattern === undefined) return input.path;
  try {
    return new RegExp(input.pathPattern, input.pathFlags);
  } catch (error) {
    throw validation('pathPattern', `pathPattern is not a valid regular expression: ${(error as Error).message}.`);
  }
}

/** The in-process spec for a JSON one: the same fields, with the path rebuilt. */
function toSpec<T extends { path?: string; pathPattern?: string; pathFlags?: string }>(input: T): Omit<T, 'path' | 'pathPattern' | 'pathFlags'> & { path?: string | RegExp } {
  const { path: _p, pathPattern: _pp, pathFlags: _pf, ...rest } = input;
  const path = pathOf(input);
  return { ...rest, ...(path === undefined ? {} : { path }) };
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
      deps.faults.next(toSpec(faultSpec(await readObject(request), '')) as FaultSpec);
      return { status: 201, body: { pending: deps.faults.pending } };
    },
  },
  {
    method: 'POST',
    path: '/faults/random',
    summary: 'random faults from now on: the fields of sandbox.faults.random()',
    handler: async ({ deps, query, request }) => {
      noParams(query);
      const options = toSpec(randomFaults(await readObject(request), ''));
      deps.faults.random({ ...options, ...(options.kinds ? { kinds: options.kinds as Array<(typeof FAULT_KINDS)[number] | FaultShape> } : {}) });
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
