/**
 * The runtime smoke test's client side. Plain JavaScript with no imports of its own and no Node
 * built-ins, so the same file runs in Node, Bun, Deno and edge-runtime: it receives the SDK's
 * module namespace (the built dist) and talks to a sandbox served over HTTP by Node.
 *
 * enroll a store -> walk every booking with for await (several pages) -> acknowledge the open
 * ones -> a typed error from the server (404) and one refused before sending (400).
 * Throws on the first thing that is not as expected; returns a summary line.
 */
export async function smoke(sdk, { apiKey, baseUrl, runtime }) {
  const check = (ok, what) => {
    if (!ok) throw new Error(`[${runtime}] smoke check failed: ${what}`);
  };
  const client = new sdk.PartnerClient({ apiKey, baseUrl, maxRetries: 1 });
  try {
    check(client.environment === 'sandbox', `environment is ${client.environment}`);

    const store = await client.locations.enroll({
      partner_location_id: `smoke-${runtime}`,
      name: `Smoke test (${runtime})`,
      address: { line1: '2100 Mission St', city: 'San Francisco', state: 'CA', postal_code: '94110', country: 'US' },
    });
    check(
      store.partner_location_id === `smoke-${runtime}` && store.status === 'active',
      `enrolled store ${JSON.stringify(store)}`,
    );

    let bookings = 0;
    let pages = 0;
    let acknowledged = 0;
    for await (const page of client.reservations.list({ limit: 20 }).pages()) {
      pages++;
      for (const booking of page.items) {
        bookings++;
        if (booking.acknowledged_kind === null && acknowledged < 5) {
          const done = await client.reservations.acknowledge(booking.reservation_id, 'forwarded_to_manager');
          check(done.acknowledged_kind === 'forwarded_to_manager', `acknowledged ${booking.reservation_id}`);
          acknowledged++;
        }
      }
    }
    let iterated = 0;
    for await (const booking of client.reservations.list({ limit: 50 })) if (booking.reservation_id) iterated++;
    check(bookings > 20 && pages > 1, `walked ${bookings} bookings in ${pages} pages (expected several pages)`);
    check(iterated === bookings, `for await saw ${iterated} bookings, pages saw ${bookings}`);
    check(acknowledged > 0, 'acknowledged at least one booking');

    let notFound;
    try {
      await client.locations.get('no-such-store');
    } catch (error) {
      notFound = error;
    }
    check(notFound instanceof sdk.NotFoundError, `404 gives NotFoundError, got ${String(notFound)}`);
    check(
      sdk.isPartnerError(notFound) && notFound.code === 'not_found' && notFound.status === 404,
      '404 code and status',
    );
    check(
      typeof notFound.requestId === 'string' && !JSON.stringify(notFound.toJSON()).includes(apiKey),
      'error carries a request id and never the key',
    );

    let invalid;
    try {
      await client.locations.update(`smoke-${runtime}`, { preferred_language: 'fr' });
    } catch (error) {
      invalid = error;
    }
    check(
      invalid instanceof sdk.ValidationError && invalid.field === 'preferred_language',
      `refused before sending: ${String(invalid)}`,
    );

    const limit = client.rateLimit;
    check(limit !== undefined && limit.limit > 0, 'rate-limit headers were read');
    return `[${runtime}] ok: enrolled 1 store, walked ${bookings} bookings in ${pages} pages, acknowledged ${acknowledged}, NotFoundError ${notFound.requestId}, ValidationError on ${invalid.field}`;
  } finally {
    await client.close();
  }
}

/**
 * The browser guard, for a runtime where `window` and `document` have been defined: the client
 * must refuse to start and say why, unless dangerouslyAllowBrowser is true.
 */
export async function browserGuard(sdk, { apiKey, baseUrl, runtime }) {
  let refused;
  try {
    new sdk.PartnerClient({ apiKey, baseUrl });
  } catch (error) {
    refused = error;
  }
  if (
    !(refused instanceof sdk.ConfigurationError) ||
    !/browser/.test(refused.message) ||
    !/dangerouslyAllowBrowser/.test(refused.message)
  ) {
    throw new Error(`[${runtime}] the client started in a browser-like global scope: ${String(refused)}`);
  }
  const client = new sdk.PartnerClient({ apiKey, baseUrl, dangerouslyAllowBrowser: true });
  try {
    const summary = await client.reports.summary();
    if (typeof summary.locations.total !== 'number') throw new Error(`[${runtime}] summary unreadable`);
  } finally {
    await client.close();
  }
  return `[${runtime}] browser guard ok: "${refused.message.slice(0, 60)}…"; with dangerouslyAllowBrowser: true a call succeeds`;
}
