import { validation } from '../api-error.js';
import { integer, object, optional, string } from '../validation/rules.js';
import { bearerKey, type ControlRoute, noParams, readObject } from './control-route.js';

const DEFAULT_PAGE = 100;
const MAX_PAGE = 1000;
const MAX_POPULATED = 2_000_000;

const populateOptions = object({
  locations: integer(0, 100_000),
  reservationsPerLocation: optional(integer(0, 10_000)),
  idPrefix: optional(
    string({
      pattern: /^[A-Za-z0-9._:-]{0,100}$/,
      says: 'must be up to 100 characters of letters, digits, ".", "_", ":" or "-"',
    }),
  ),
});

function intParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const values = query.getAll(name);
  if (values.length === 0) return fallback;
  if (values.length > 1) throw validation(name, `${name} was given ${values.length} times; give it once.`);
  const text = values[0] as string;
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max))
    throw validation(name, `${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(text)}.`);
  return value;
}

/** `?after=<seq>&limit=<n>` over a seq-ordered log: a page, and the seq to ask after for the next one. */
function pageAfter<T extends { seq: number }>(
  query: URLSearchParams,
  log: { read(after: number, limit: number): T[]; hasAfter(seq: number): boolean },
) {
  const after = intParam(query, 'after', 0, 0, Number.MAX_SAFE_INTEGER);
  const limit = intParam(query, 'limit', DEFAULT_PAGE, 1, MAX_PAGE);
  const unknown = [...query.keys()].find((k) => k !== 'after' && k !== 'limit');
  if (unknown !== undefined)
    throw validation(
      unknown,
      `${JSON.stringify(unknown)} is not a recognised query parameter here. Accepted: after, limit.`,
    );
  const items = log.read(after, limit);
  const last = items.at(-1);
  return { items, next_after: last && log.hasAfter(last.seq) ? last.seq : null };
}

/** The change log, the request log, populate and reset: what happened, making data, and forgetting it all. */
export const dataRoutes: ControlRoute[] = [
  {
    method: 'GET',
    path: '/changes',
    summary: '?after=<seq>&limit=<1..1000> with the key’s Authorization → { items, next_after }',
    handler: ({ world, query, request }) => {
      const { account } = bearerKey(world, request, 'read');
      return { body: pageAfter(query, account.changes) };
    },
  },
  {
    method: 'GET',
    path: '/requests',
    summary:
      '?after=<seq>&limit=<1..1000> → { items, next_after }: the requests the service got, with headers (keys redacted)',
    handler: ({ deps, query }) => ({ body: pageAfter(query, deps.log) }),
  },
  {
    method: 'POST',
    path: '/populate',
    summary:
      '{ locations, reservationsPerLocation?, idPrefix? } with the key’s Authorization → { locationIds, reservations }',
    handler: async ({ deps, world, query, request }) => {
      noParams(query);
      const { key } = bearerKey(world, request, 'populate');
      const options = populateOptions(await readObject(request), '');
      if (options.locations * (options.reservationsPerLocation ?? 0) > MAX_POPULATED) {
        throw validation(
          'reservationsPerLocation',
          `locations × reservationsPerLocation may be at most ${MAX_POPULATED.toLocaleString('en-US')} bookings a call (each costs memory).`,
        );
      }
      return { status: 201, body: deps.populate(key, options) };
    },
  },
  {
    method: 'POST',
    path: '/reset',
    // crp-sandbox's afterReset hook issues its banner's key again: the summary says so, since that key is the one people hold.
    summary:
      'forget keys, accounts, faults and the request log and go back to the start time; crp-sandbox then ' +
      'issues the key its banner printed again, for a new empty account with its demo stores → { now }',
    handler: async ({ deps, query, request }) => {
      noParams(query);
      const body = await readObject(request);
      const first = Object.keys(body)[0];
      if (first !== undefined)
        throw validation(first, `${JSON.stringify(first)} is not a recognised field: reset takes no body.`);
      deps.reset();
      return { body: { now: deps.world().clock.now().toISOString() } };
    },
  },
];
