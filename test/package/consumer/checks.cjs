'use strict';
// What a partner's project checks, shared by esm.mjs and cjs.cjs (and otel.*): each passes the
// package's modules as its own module system loaded them (import or require conditions), so both
// builds are exercised by the same checks (scripts/check-package.mjs).
const assert = require('node:assert/strict');

/**
 * The client against `./testing`'s listen(), `./redis` without ioredis, and mswHandlers() with
 * msw (`loadMsw()` gives msw/node, or null when msw is not installed: then it must say to install it).
 */
exports.sdkChecks = async function sdkChecks(label, { sdk, testing, redis, events, bulk }, loadMsw) {
  const { PartnerClient, NotFoundError, ConfigurationError, ValidationError, isPartnerError } = sdk;
  const { redisBudget } = redis;
  const id = `${label}-1`;
  const name = `${label.toUpperCase()} Noodles`;
  const sandbox = testing.createSandbox({ seed: 3 });
  const apiKey = sandbox.issueKey();
  const { url, close } = await sandbox.listen(0);
  const client = new PartnerClient({ apiKey, baseUrl: url });
  try {
    const store = await client.locations.enroll({
      partner_location_id: id,
      name,
      address: { line1: '1 Main St', city: 'San Francisco', state: 'CA', postal_code: '94110', country: 'US' },
    });
    assert.equal(store.status, 'active');
    await assert.rejects(
      client.locations.get('nope'),
      (error) => error instanceof NotFoundError && isPartnerError(error),
    );

    // ./bulk and ./events run on the client they are given, with the main entry's error classes.
    const outcomes = [];
    const summary = await bulk.enrollMany(
      client,
      [
        { partner_location_id: id, name, address: store.address },
        { partner_location_id: `${id}-bad`, name },
      ],
      { onOutcome: (o) => void outcomes.push(o) },
    );
    assert.deepEqual(summary.counts, {
      created: 0,
      already_enrolled: 1,
      skipped: 0,
      invalid: 1,
      conflict: 0,
      failed: 0,
      not_attempted: 0,
    });
    assert.ok(outcomes.find((o) => o.status === 'invalid').error instanceof ValidationError);
    assert.throws(
      () => events.watchEvents(client, {}),
      (error) => error instanceof ConfigurationError && /needs a checkpoint/.test(error.message),
    );
    assert.equal(events.CheckpointLockedError, sdk.CheckpointLockedError);
    const watcher = events.watchEvents(client, {
      checkpoint: events.memoryCheckpoint(),
      startFrom: 'now',
      minInterval: 60_000,
    });
    // Without close() the loop would wait a minute between polls.
    setTimeout(() => void client.close(), 200);
    for await (const event of watcher) void event;
    assert.ok(client.closeSignal.aborted);
    console.log(
      `${label}: ./bulk enrollMany and ./events watchEvents with the main entry's classes, the watcher stops with client.close(): ok`,
    );
  } finally {
    await client.close();
    await close();
  }

  // ./redis: its errors are the main entry's classes, and without ioredis a call says to install it.
  assert.throws(
    () => redisBudget('http://x'),
    (error) => error instanceof ConfigurationError && /redis:\/\//.test(error.message),
  );
  assert.throws(
    () => new PartnerClient({ apiKey, baseUrl: url, rateLimit: { redis: 'redis://127.0.0.1:6379' } }),
    /Unknown option rateLimit\.redis/,
  );
  const warnings = [];
  const viaRedis = new PartnerClient({
    apiKey,
    baseUrl: url,
    logger: { warn: (message, fields) => warnings.push(`${message} ${fields.error}`) },
    rateLimit: { shared: redisBudget('redis://127.0.0.1:6379') },
  });
  await viaRedis.reports.summary().catch(() => undefined);
  assert.match(warnings.join('\n'), /npm install ioredis/);
  await viaRedis.close();
  console.log(
    `${label}: ./redis redisBudget() validates with the main ConfigurationError, says to install ioredis: ok`,
  );

  const msw = await loadMsw();
  if (msw) {
    const server = msw.setupServer(...sandbox.mswHandlers('https://sandbox.crp.test'));
    server.listen({ onUnhandledRequest: 'error' });
    const viaMsw = new PartnerClient({ apiKey, baseUrl: 'https://sandbox.crp.test' });
    try {
      assert.equal((await viaMsw.locations.get(id)).name, name);
    } finally {
      await viaMsw.close();
      server.close();
    }
    console.log(`${label}: client, ./testing listen() and mswHandlers() with msw installed: ok`);
  } else {
    assert.throws(() => sandbox.mswHandlers(), /needs msw/);
    console.log(
      `${label}: client and ./testing listen() without msw installed: ok (mswHandlers() says to install msw)`,
    );
  }
};

/**
 * ./otel must use the application's @opentelemetry/api: a propagator the application registers
 * is the one that writes into each attempt's headers, under the call's span.
 */
exports.otelCheck = function otelCheck(label, { propagation, trace }, { openTelemetry }) {
  propagation.setGlobalPropagator({
    inject: (ctx, carrier, setter) => setter.set(carrier, 'x-probe', trace.getSpan(ctx) ? 'span' : 'no-span'),
    extract: (ctx) => ctx,
    fields: () => ['x-probe'],
  });
  const observer = openTelemetry().startCall({
    operation: 'locations.get',
    method: 'GET',
    urlTemplate: '/partner/v1/locations/{partner_location_id}',
    serverAddress: '127.0.0.1',
    serverPort: 80,
  });
  const headers = {};
  observer.attemptStart?.({ attempt: 1, headers });
  observer.end?.({ attempts: 1, durationMs: 1, status: 200 });
  assert.equal(headers['x-probe'], 'span');
  console.log(`${label}: ./otel injects through the application's @opentelemetry/api propagator: ok`);
};
