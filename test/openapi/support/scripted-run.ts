import type { Recorded } from './response-checker.js';

interface CallOptions {
  key?: string | undefined;
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  /** A raw body (for a body over the size limit). */
  raw?: string;
}

/**
 * A run of typical calls against a sandbox over a real port, with plain fetch: every endpoint of
 * the service and of the control API at least once, and the error answers each can give.
 * Returns every answer, with the path template it was asked for.
 */
export async function scriptedRun(baseUrl: string, tokenBaseUrl: string): Promise<Recorded[]> {
  const answers: Recorded[] = [];
  const call = async (
    method: string,
    template: string,
    options: CallOptions = {},
    base = baseUrl,
  ): Promise<Recorded> => {
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(options.params?.[name] ?? ''));
    const query = new URLSearchParams(Object.entries(options.query ?? {}).map(([k, v]) => [k, String(v)]));
    const response = await fetch(`${base}${path}${query.size ? `?${query}` : ''}`, {
      method,
      headers: {
        ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
        ...(options.body !== undefined || options.raw || (method === 'POST' && template.startsWith('/_sandbox'))
          ? { 'content-type': 'application/json' }
          : {}),
      },
      ...(options.raw
        ? { body: options.raw }
        : options.body !== undefined
          ? { body: JSON.stringify(options.body) }
          : {}),
    });
    const text = await response.text();
    const answer = {
      method,
      template,
      status: response.status,
      headers: response.headers,
      body: text === '' ? undefined : JSON.parse(text),
    };
    answers.push(answer);
    return answer;
  };
  const body = <T>(answer: Recorded) => answer.body as T;
  const S = '/partner/v1';
  const ONE = `${S}/locations/{partner_location_id}`;

  await call('GET', '/openapi.json');
  await call('GET', '/_sandbox');
  await call('GET', '/_sandbox/clock');
  const key = body<{ key: string }>(await call('POST', '/_sandbox/keys', { body: {} })).key;
  await call('POST', '/_sandbox/keys', { body: { colour: 'red' } });

  const address = { line1: '1 Main St', city: 'Seattle', state: 'WA', postal_code: '98101', country: 'US' };
  const full = {
    partner_location_id: 'sf-001',
    name: 'Noodle Bar',
    address,
    hours: {
      weekly: {
        mon: [{ open: '11:00', close: '22:00' }],
        tue: [{ open: '11:00', close: '22:00' }],
        wed: [{ open: '11:00', close: '22:00' }],
        thu: [{ open: '11:00', close: '22:00' }],
        fri: [{ open: '11:00', close: '23:00' }],
        sat: [{ open: '10:00', close: '23:00' }],
        sun: [{ open: '10:00', close: '21:00' }],
      },
    },
    time_zone: 'America/Los_Angeles',
    preferred_language: 'en',
    plan: { name: 'growth', videos_per_month: 8 },
    dishes: ['dan dan noodles'],
    contact: { name: 'Ana', email: 'ana@example.com', phone: '+1 206 555 0100' },
    rules: {
      follower_range: { min: 1000, max: 500000 },
      follower_range_by_platform: { tiktok: { min: 5000 } },
      platforms: ['instagram', 'tiktok'],
    },
  };
  await call('POST', `${S}/locations`, { key, body: full });
  await call('POST', `${S}/locations`, { key, body: full });
  await call('POST', `${S}/locations`, { key, body: { ...full, name: 'Another Bar' } });
  await call('POST', `${S}/locations`, {
    key,
    body: { ...full, partner_location_id: 'sf-002', rules: { min_age: 21 } },
  });
  await call('POST', `${S}/locations`, { key, body: { ...full, partner_location_id: 'sf-002', colour: 'red' } });
  await call('POST', `${S}/locations`, { key, raw: JSON.stringify({ ...full, dishes: ['x'.repeat(300 * 1024)] }) });
  // Postal code ending in 0: the sandbox finds no hours (hours.state missing, weekly null).
  await call('POST', `${S}/locations`, {
    key,
    body: { partner_location_id: 'sf-002', name: 'Dumpling Hall', address: { ...address, postal_code: '98110' } },
  });

  await call('GET', ONE, { key, params: { partner_location_id: 'sf-001' } });
  await call('GET', ONE, { key, params: { partner_location_id: 'nowhere' } });
  await call('PATCH', ONE, { key, params: { partner_location_id: 'sf-001' }, body: { preferred_language: 'zh' } });
  await call('PATCH', ONE, { key, params: { partner_location_id: 'sf-001' }, body: { status: 'paused' } });
  await call('PATCH', ONE, { key, params: { partner_location_id: 'sf-001' }, body: { rules: { gender: 'any' } } });
  await call('PATCH', ONE, { key, params: { partner_location_id: 'nowhere' }, body: { name: 'x' } });

  await call('POST', '/_sandbox/populate', {
    key,
    body: { locations: 2, reservationsPerLocation: 30, idPrefix: 'pop-' },
  });
  await call('POST', '/_sandbox/clock/advance', { body: { by_ms: 12 * 86_400_000 } });
  await call('POST', '/_sandbox/clock/advance', { body: { by_ms: -1 } });

  const first = body<{ items: Array<{ reservation_id: string }>; next_cursor: string | null }>(
    await call('GET', `${S}/reservations`, {
      key,
      query: { limit: 5, status: 'pending,confirmed,completed,no_show,cancelled,rejected' },
    }),
  );
  await call('GET', `${S}/reservations`, { key, query: { limit: 5, cursor: first.next_cursor ?? '' } });
  await call('GET', `${S}/reservations`, {
    key,
    query: { acknowledged: false, from: '2026-12-01', to: '2026-12-31', partner_location_id: 'sf-001' },
  });
  await call('GET', `${S}/reservations`, { key, query: { status: 'lost' } });
  await call('GET', `${S}/locations/{partner_location_id}/reservations`, {
    key,
    params: { partner_location_id: 'sf-001' },
  });
  await call('GET', `${S}/locations/{partner_location_id}/reservations`, {
    key,
    params: { partner_location_id: 'nowhere' },
  });
  const booking = first.items[0]?.reservation_id ?? 'none';
  await call('POST', `${S}/reservations/{reservation_id}/acknowledge`, {
    key,
    params: { reservation_id: booking },
    body: { acknowledged_kind: 'forwarded_to_manager' },
  });
  await call('POST', `${S}/reservations/{reservation_id}/acknowledge`, {
    key,
    params: { reservation_id: 'res_nowhere' },
    body: { acknowledged_kind: 'acknowledged_self' },
  });
  await call('POST', `${S}/reservations/{reservation_id}/acknowledge`, {
    key,
    params: { reservation_id: booking },
    body: { acknowledged_kind: 'seen' },
  });

  for (const list of ['content', 'creators']) {
    await call('GET', `${S}/locations/{partner_location_id}/${list}`, {
      key,
      params: { partner_location_id: 'pop-000001' },
      query: { limit: 200 },
    });
    await call('GET', `${S}/locations/{partner_location_id}/${list}`, {
      key,
      params: { partner_location_id: 'sf-001' },
    });
    await call('GET', `${S}/locations/{partner_location_id}/${list}`, {
      key,
      params: { partner_location_id: 'nowhere' },
    });
  }
  const batch = body<{ batch_id: string }>(
    await call('GET', `${S}/locations/{partner_location_id}/creator-samples`, {
      key,
      params: { partner_location_id: 'sf-001' },
    }),
  );
  await call('GET', `${S}/locations/{partner_location_id}/creator-samples`, {
    key,
    params: { partner_location_id: 'sf-002' },
  });
  const decision = `${S}/locations/{partner_location_id}/creator-samples/{batch_id}/decision`;
  const next = body<{ batch_id: string }>(
    await call('POST', decision, {
      key,
      params: { partner_location_id: 'sf-001', batch_id: batch.batch_id },
      body: { decision: 'new_batch' },
    }),
  );
  await call('POST', decision, {
    key,
    params: { partner_location_id: 'sf-001', batch_id: next.batch_id },
    body: { decision: 'approve' },
  });
  await call('POST', decision, {
    key,
    params: { partner_location_id: 'sf-001', batch_id: next.batch_id },
    body: { decision: 'approve' },
  });
  await call('POST', decision, {
    key,
    params: { partner_location_id: 'sf-001', batch_id: 'batch_nowhere' },
    body: { decision: 'approve' },
  });
  await call('POST', decision, {
    key,
    params: { partner_location_id: 'sf-001', batch_id: next.batch_id },
    body: { decision: 'maybe' },
  });

  await call('GET', `${S}/summary`, { key });
  await call('GET', `${S}/billing/monthly`, { key, query: { month: '2026-12' } });
  await call('GET', `${S}/billing/monthly`, { key, query: { month: '2026-13' } });
  await call('GET', `${S}/pricing/quote`, { key, query: { plan: 'growth', videos_per_month: 8, country: 'GB' } });
  await call('GET', `${S}/pricing/quote`, { key, query: { plan: 'growth' } });
  await call('GET', `${S}/settings`, { key });
  await call('PUT', `${S}/settings`, { key, body: { surcharge_per_video_cents: 250 } });
  await call('PUT', `${S}/settings`, { key, body: { surcharge_per_video_cents: -1 } });

  await call('POST', `${ONE}/dashboard-token`, { key, params: { partner_location_id: 'sf-001' } });
  await call('POST', `${ONE}/dashboard-token`, { key, params: { partner_location_id: 'nowhere' } });
  const tokenKey = body<{ key: string }>(await call('POST', '/_sandbox/keys', { body: {} }, tokenBaseUrl)).key;
  await call('POST', `${S}/locations`, { key: tokenKey, body: full }, tokenBaseUrl);
  await call(
    'POST',
    `${ONE}/dashboard-token`,
    { key: tokenKey, params: { partner_location_id: 'sf-001' } },
    tokenBaseUrl,
  );

  await call('POST', `${ONE}/pause`, { key, params: { partner_location_id: 'sf-001' } });
  await call('POST', `${ONE}/pause`, { key, params: { partner_location_id: 'nowhere' } });
  await call('POST', `${ONE}/resume`, { key, params: { partner_location_id: 'sf-001' } });
  await call('POST', `${ONE}/terminate`, { key, params: { partner_location_id: 'sf-002' } });
  await call('POST', `${ONE}/terminate`, { key, params: { partner_location_id: 'nowhere' } });
  await call('POST', `${ONE}/resume`, { key, params: { partner_location_id: 'sf-002' } });
  await call('POST', `${ONE}/pause`, { key, params: { partner_location_id: 'sf-002' } });

  // Refusals before the endpoint: no key, a bad key, an address off the allow-list, the rate limit.
  await call('GET', `${S}/summary`);
  await call('GET', `${S}/summary`, { key: 'crp_test_not_issued' });
  const fenced = body<{ key: string }>(await call('POST', '/_sandbox/keys', { body: { allowIps: ['10.9.9.9'] } })).key;
  await call('GET', `${S}/settings`, { key: fenced });
  const tight = body<{ key: string }>(
    await call('POST', '/_sandbox/keys', { body: { rateLimit: { limit: 1, windowMs: 60_000 } } }),
  ).key;
  await call('GET', `${S}/summary`, { key: tight });
  await call('GET', `${S}/summary`, { key: tight });

  // Server failures, by fault injection.
  await call('POST', '/_sandbox/faults', { body: { status: 500, path: `${S}/summary` } });
  await call('POST', '/_sandbox/faults', {
    body: { status: 503, path: `${S}/settings`, headers: { 'Retry-After': '2' } },
  });
  await call('GET', '/_sandbox/faults');
  await call('GET', `${S}/summary`, { key });
  await call('GET', `${S}/settings`, { key });
  await call('POST', '/_sandbox/faults/random', {
    body: { rate: 0, kinds: ['unavailable', { status: 502 }], seed: 7 },
  });
  await call('POST', '/_sandbox/faults/random', { body: { kinds: ['unavailable'] } });
  await call('DELETE', '/_sandbox/faults');

  await call('GET', '/_sandbox/changes', { key, query: { after: 0, limit: 1000 } });
  await call('GET', '/_sandbox/changes');
  await call('GET', '/_sandbox/requests', { query: { after: 0, limit: 1000 } });
  await call('GET', '/_sandbox/requests', { query: { limit: 0 } });
  await call('POST', '/_sandbox/reset', { body: { now: true } });
  await call('POST', '/_sandbox/reset');
  return answers;
}
