/**
 * The summary that opens each pass: read again while no answers agree on the service's time (at
 * most 4 reads), and the first place a clock gone back under the checkpoint is noticed, with its
 * reason kept until the reconciliation that forgets the state.
 */
import { describe, expect, it } from 'vitest';
import { REWOUND } from '../../src/events/history.js';
import { detectorFor, useSimEnv } from './support.js';

const HOUR = 3_600_000;

async function drain(pass: AsyncGenerator<unknown>): Promise<void> {
  for await (const _ of pass);
}

describe('Detector.summary', () => {
  const startSimEnv = useSimEnv();

  it('reads the summary again while its answers disagree on the time, at most 4 times; once they agree, once a pass', async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 1 });
    let skew = 0;
    let summaries = 0;
    const client = env.client({
      fetch: async (input, init) => {
        const request = new Request(input, init);
        if (!new URL(request.url).pathname.endsWith('/summary')) return fetch(request);
        summaries++;
        const answer = await fetch(request);
        if (skew === 0) return answer;
        // Each answer hours from the one before: no two agree.
        const at = new Date(env.clock.now() + summaries * skew);
        const body = { ...(await answer.json()), generated_at: at.toISOString() };
        const headers = new Headers(answer.headers);
        headers.set('date', at.toUTCString());
        headers.delete('content-length');
        return new Response(JSON.stringify(body), { status: answer.status, headers });
      },
    });
    const { detector, service } = detectorFor(client, { videoScanSpacing: 60_000, maxLag: 900_000 });
    skew = 5 * HOUR;
    await detector.summary();
    expect(summaries).toBe(4);
    expect(service.confirmed).toBe(false);

    skew = 0;
    summaries = 0;
    await detector.summary();
    expect(service.confirmed).toBe(true);
    expect(summaries).toBeGreaterThanOrEqual(1);
    summaries = 0;
    await detector.summary();
    expect(summaries).toBe(1);
  });

  it("notices a clock gone back under the checkpoint's latest time, keeps the first reason, and a reconciliation forgets it", async () => {
    const env = await startSimEnv('msw', { visitsPerWeek: 0 });
    env.sandbox.populate(env.key, { locations: 1, reservationsPerLocation: 2 });
    const { detector, state, service } = detectorFor(env.client(), { videoScanSpacing: 60_000, maxLag: 900_000 });
    await detector.summary();
    await drain(detector.reconcile());
    await detector.summary();
    expect(detector.rewound).toBeUndefined();
    expect(detector.choose(0)).toEqual({ kind: 'poll', reason: 'not due' });

    // The checkpoint saw a time two hours ahead of the service's: its history went back.
    state.seenAt = service.now() + 2 * HOUR;
    await detector.summary();
    expect(detector.rewound).toBe(REWOUND.clock);
    expect(detector.choose(0)).toEqual({ kind: 'reconciliation', reason: 'history reset' });
    const resets = state.resets;
    await drain(detector.reconcile());
    expect(state.resets).toBe(resets + 1);
    expect(detector.rewound).toBeUndefined();

    // A reason noted first stays: a later sign in the same pass does not replace it.
    detector.rewound = REWOUND.list;
    state.seenAt = service.now() + 2 * HOUR;
    await detector.summary();
    expect(detector.rewound).toBe(REWOUND.list);
  });
});
