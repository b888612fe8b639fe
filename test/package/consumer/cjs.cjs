'use strict';
// A partner's CommonJS project, with the packed tarball installed (scripts/check-package.mjs).
// WITH_MSW=1: msw is installed too, and mswHandlers() must work with the partner's setupServer.
const assert = require('node:assert/strict');

async function main() {
  const { PartnerClient, NotFoundError, ConfigurationError, isPartnerError } = require('@crp/partner-sdk');
  const { createSandbox } = require('@crp/partner-sdk/testing');
  const { redisBudget } = require('@crp/partner-sdk/redis');

  const sandbox = createSandbox({ seed: 3 });
  const apiKey = sandbox.issueKey();
  const { url, close } = await sandbox.listen(0);
  const client = new PartnerClient({ apiKey, baseUrl: url });
  try {
    const store = await client.locations.enroll({
      partner_location_id: 'cjs-1',
      name: 'CJS Noodles',
      address: { line1: '1 Main St', city: 'San Francisco', state: 'CA', postal_code: '94110', country: 'US' },
    });
    assert.equal(store.status, 'active');
    await assert.rejects(client.locations.get('nope'), (error) => error instanceof NotFoundError && isPartnerError(error));
  } finally {
    await client.close();
    await close();
  }

  // ./redis: its errors are the main entry's classes, and without ioredis a call says to install it.
  assert.throws(() => redisBudget('http://x'), (error) => error instanceof ConfigurationError && /redis:\/\//.test(error.message));
  assert.throws(() => new PartnerClient({ apiKey, baseUrl: url, rateLimit: { redis: 'redis://127.0.0.1:6379' } }), /Unknown option rateLimit\.redis/);
  const warnings = [];
  const viaRedis = new PartnerClient({ apiKey, baseUrl: url, logger: { warn: (message, fields) => warnings.push(`${message} ${fields.error}`) }, rateLimit: { shared: redisBudget('redis://127.0.0.1:6379') } });
  await viaRedis.reports.summary().catch(() => undefined);
  assert.match(warnings.join('\n'), /npm install ioredis/);
  await viaRedis.close();
  console.log('cjs: ./redis redisBudget() validates with the main ConfigurationError, says to install ioredis: ok');

  if (process.env.WITH_MSW === '1') {
    const { setupServer } = require('msw/node');
    const server = setupServer(...sandbox.mswHandlers('https://sandbox.crp.test'));
    server.listen({ onUnhandledRequest: 'error' });
    const viaMsw = new PartnerClient({ apiKey, baseUrl: 'https://sandbox.crp.test' });
    try {
      assert.equal((await viaMsw.locations.get('cjs-1')).name, 'CJS Noodles');
    } finally {
      await viaMsw.close();
      server.close();
    }
    console.log('cjs: client, ./testing listen() and mswHandlers() with msw installed: ok');
  } else {
    assert.throws(() => sandbox.mswHandlers(), /needs msw/);
    console.log('cjs: client and ./testing listen() without msw installed: ok (mswHandlers() says to install msw)');
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
