/**
 * Client CPU per call and per page of two checkouts of the SDK, side by side in one process: each
 * run from its own src/ (through tsx), every request answered by a canned response (a real answer
 * of the sandbox, its RateLimit headers included, as the service sends them on every answer), so
 * no network and no server share the CPU. Rounds alternate the two checkouts and a bare ky call
 * beside each; the figures are medians over rounds of the SDK's CPU over the bare ky call's.
 *
 *   npx tsx bench/cpu-side-by-side.ts /work/wt/path-old     # the other checkout (its npm ci done)
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ky from 'ky';

const other = resolve(process.argv[2] ?? '.');
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const CALLS = Number(process.env.CALLS ?? 400);
const WALKS = Number(process.env.WALKS ?? 6);
const PAGES = 10;

type Sdk = typeof import('../src/index.js');
const load = async (root: string): Promise<Sdk> =>
  import(pathToFileURL(resolve(root, 'src/index.ts')).href) as Promise<Sdk>;
const here = resolve(import.meta.dirname, '..');
const sides: Record<string, Sdk> = { this: await load(here), other: await load(other) };

// Real answers, recorded once from the sandbox.
const { createSandbox } = await import('../src/testing/index.js');
const sandbox = createSandbox({ seed: 7 });
const server = await sandbox.listen(0);
const key = sandbox.issueKey({ rateLimit: { limit: 1_000_000_000, windowMs: 60_000 } });
const populated = sandbox.populate(key, { locations: 1, reservationsPerLocation: 200 }) as { locationIds: string[] };
const id = populated.locationIds[0] as string;
const auth = { authorization: `Bearer ${key}` };
const record = async (path: string) => {
  const response = await fetch(`${server.url}/partner/v1/${path}`, { headers: auth });
  return { body: await response.text(), headers: [...response.headers] };
};
const location = await record(`locations/${encodeURIComponent(id)}`);
const page = await record('reservations?limit=200');
await server.close();
const lastPage = JSON.stringify({ ...JSON.parse(page.body), next_cursor: null });
const midPage = JSON.stringify({ ...JSON.parse(page.body), next_cursor: '@cursor@' });
let pageNumber = 0;
const canned: typeof fetch = async (input) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (url.includes('/reservations')) {
    pageNumber += 1;
    const body = pageNumber % PAGES === 0 ? lastPage : midPage.replace('@cursor@', `c${pageNumber}`);
    return new Response(body, { headers: page.headers });
  }
  return new Response(location.body, { headers: location.headers });
};

const base = 'http://127.0.0.1:9'; // never reached: every request is answered by `canned`
const api = ky.create({ prefixUrl: `${base}/partner/v1/`, headers: auth, retry: 0, timeout: false, fetch: canned });
const clients = Object.fromEntries(
  Object.entries(sides).map(([name, sdk]) => [
    name,
    new sdk.PartnerClient({ apiKey: key, baseUrl: base, fetch: canned }),
  ]),
);
const path = `locations/${encodeURIComponent(id)}`;
const cpu = async (n: number, run: () => Promise<unknown>) => {
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) await run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
};
const kyWalk = async () => {
  let cursor = '';
  do {
    const body = await api.get(`reservations?limit=200${cursor}`).json<{ next_cursor: string | null }>();
    cursor = body.next_cursor ? `&cursor=${body.next_cursor}` : '';
  } while (cursor);
};
const sdkWalk = (name: string) => async () => {
  for await (const _ of clients[name]!.reservations.list({ limit: 200 })) void _;
};
const ratios: Record<string, { call: number[]; page: number[] }> = {
  this: { call: [], page: [] },
  other: { call: [], page: [] },
};
for (let round = -2; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? ['this', 'other'] : ['other', 'this'];
  for (const name of order) {
    const kyCall = await cpu(CALLS, () => api.get(path).json());
    const sdkCall = await cpu(CALLS, () => clients[name]!.locations.get(id));
    const kyPage = (await cpu(WALKS, kyWalk)) / PAGES;
    const sdkPage = (await cpu(WALKS, sdkWalk(name))) / PAGES;
    if (round < 0) continue; // warm-up
    ratios[name]!.call.push(sdkCall / kyCall);
    ratios[name]!.page.push(sdkPage / kyPage);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
for (const [name, { call, page: pages }] of Object.entries(ratios))
  console.log(
    `${name}: per call ${median(call).toFixed(3)}× bare ky, per page ${median(pages).toFixed(3)}× a ky loop (${call.length} rounds)`,
  );
const growth = (k: 'call' | 'page') => median(ratios.this![k]) / median(ratios.other![k]) - 1;
console.log(
  `this over other: per call ${(growth('call') * 100).toFixed(1)} %, per page ${(growth('page') * 100).toFixed(1)} %`,
);
for (const client of Object.values(clients)) await client.close();
