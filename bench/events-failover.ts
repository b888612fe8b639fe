/**
 * Event stream failover: three replicas (test/redis-events/fixtures/replica.ts, run from source
 * with tsx) on one redisCheckpoint, `standby: true`, leaseMs 1 s, against an in-process sandbox on
 * a real port whose simulated time the leader moves on. The leader is SIGKILLed KILLS times (a
 * fresh replica replaces each one, so two always stand by). Measured: takeover time (from the
 * kill to a standby holding the lease in Redis), duplicate deliveries per takeover, and Redis
 * commands per delivered event (all replicas, the standbys' polls included).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { startRedis } from './lib/children.js';
import { fmt, median, sleep, type CaseResult } from './lib/stats.js';
import { leaderPid, readDeliveries, spawnReplica, startWorld, type Replica } from '../test/redis-events/replicas.js';

const KILLS = Number(process.env.FAILOVER_KILLS ?? 20);
const LEASE_MS = 1_000;
/** A standby asks every leaseMs / 10 (redisCheckpoint's poll interval for this lease). */
const POLL_MS = LEASE_MS / 10;

export async function run(): Promise<CaseResult> {
  const redisServer = await startRedis();
  const url = `redis://127.0.0.1:${redisServer.port}`;
  const redis = new Redis(url);
  const world = await startWorld(41, 40);
  const dir = mkdtempSync(join(tmpdir(), 'crp-failover-'));
  const record = join(dir, 'events.jsonl');
  const env = {
    PARTNER_API_BASE_URL: world.server.url,
    PARTNER_API_KEY: world.key,
    REDIS_URL: url,
    CHECKPOINT_KEY: 'bench',
    RECORD: record,
    LEASE_MS: String(LEASE_MS),
  };
  const replicas: Replica[] = [spawnReplica(env), spawnReplica(env), spawnReplica(env)];
  const takeovers: number[] = [];
  const commandsAtStart = await totalCommands(redis);
  try {
    for (let k = 0; k < KILLS; k++) {
      // Let the leader deliver for a while (a few of its events) before the kill.
      let pid: number | undefined;
      for (;;) {
        pid = await leaderPid(redis, 'bench');
        if (pid !== undefined && readDeliveries(record).filter((d) => d.pid === pid).length >= 5) break;
        await sleep(20);
      }
      const leader = replicas.find((r) => r.pid === pid) as Replica;
      const killedAt = performance.now();
      leader.child.kill('SIGKILL');
      await leader.exited;
      replicas.splice(replicas.indexOf(leader), 1);
      for (;;) {
        const next = await leaderPid(redis, 'bench');
        if (next !== undefined && next !== pid) break;
        await sleep(5);
      }
      takeovers.push(performance.now() - killedAt);
      replicas.push(spawnReplica(env));
    }
  } finally {
    for (const r of replicas) r.child.kill('SIGTERM');
    await Promise.all(replicas.map((r) => r.exited));
  }
  const commands = (await totalCommands(redis)) - commandsAtStart;
  redis.disconnect();
  await redisServer.stop();
  await world.server.close();
  const deliveries = readDeliveries(record);
  rmSync(dir, { recursive: true, force: true });
  const ids = new Map<string, number>();
  for (const d of deliveries) ids.set(d.id, (ids.get(d.id) ?? 0) + 1);
  const duplicates = [...ids.values()].reduce((sum, n) => sum + n - 1, 0);
  const goal = LEASE_MS + POLL_MS;
  const max = Math.max(...takeovers);
  return {
    id: 'events-failover',
    title: 'Event stream failover (3 replicas on a redisCheckpoint)',
    setup: `3 replicas with standby: true, leaseMs ${LEASE_MS}, standby poll ${POLL_MS} ms, 40 stores on simulated time; the leader SIGKILLed ${KILLS} times after it delivered 5 events, a fresh replica started after each kill`,
    rows: [
      {
        variant: 'takeover after SIGKILL, median / max',
        result: `${fmt.ms(median(takeovers))} / ${fmt.ms(max)}`,
        target: `≤ ${goal} ms (leaseMs + one poll)`,
        met: max <= goal,
      },
      {
        variant: 'duplicate deliveries per takeover',
        result: (duplicates / KILLS).toFixed(2),
        target: '≤ 1 (the event in flight)',
        met: duplicates <= KILLS,
      },
      {
        variant: 'Redis commands per delivered event (all replicas)',
        result: `${(commands / deliveries.length).toFixed(2)} (${commands} for ${deliveries.length} events)`,
      },
    ],
    data: {
      kills: KILLS,
      leaseMs: LEASE_MS,
      takeoversMs: takeovers,
      duplicates,
      deliveries: deliveries.length,
      redisCommands: commands,
    },
  };
}

async function totalCommands(redis: Redis): Promise<number> {
  const info = await redis.info('stats');
  return Number(/total_commands_processed:(\d+)/.exec(info)?.[1] ?? 0);
}
