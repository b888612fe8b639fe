/**
 * The Lua scripts of `redisCheckpoint()`: each runs atomically in Redis, so taking the lease,
 * renewing it and saving under it can never interleave with another watcher's.
 *
 * Keys of a checkpoint `<key>`: `<key>:lease` (the holder's id, expiring `leaseMs` after its last
 * renewal), `<key>:meta` (a hash: `fence`, raised by one on every acquisition; `holder`, the id
 * of whoever took that fence; `released`, that id once it let go; `seq`, the number of the
 * holder's last save) and `<key>:records` (a list, oldest first).
 *
 * A fence alone can repeat: when `<key>:meta` is lost (FLUSHALL, a restart without persistence,
 * a stray DEL) it starts again at 1, the number an earlier holder may still carry. The holder's
 * id is random for each acquisition and never repeats, so every check takes fence and id together.
 */

/**
 * KEYS lease, meta; ARGV id, ms → [1, fence, handed] when taken (handed: 1 when the holder before
 * released it, 0 when its lease expired or vanished), [0, holder, pttl] while another holds it.
 * Taken already by this id (a retry whose first answer was lost): the same fence again, so a
 * retry never waits out its own lease and takes a second fence.
 */
export const ACQUIRE = `
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  local mine = redis.call('HMGET', KEYS[2], 'fence', 'holder')
  if mine[2] == ARGV[1] then return {1, mine[1], 0} end
end
if holder then return {0, holder, redis.call('PTTL', KEYS[1])} end
local before = redis.call('HMGET', KEYS[2], 'holder', 'released')
local fence = redis.call('HINCRBY', KEYS[2], 'fence', 1)
redis.call('HSET', KEYS[2], 'seq', 0, 'holder', ARGV[1])
redis.call('HDEL', KEYS[2], 'released')
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
local handed = 0
if before[1] and before[1] == before[2] then handed = 1 end
return {1, tostring(fence), handed}
`;

/** The lease record still names this acquisition (KEYS[meta] at `meta`, ARGV fence and id at `fence`, `id`). */
const OURS = (meta: string, fence: string, id: string) => `
local mine = redis.call('HMGET', ${meta}, 'fence', 'holder')
if mine[1] ~= ${fence} or mine[2] ~= ${id} then return 0 end`;

/**
 * KEYS lease, meta; ARGV id, fence, ms → 1 when still ours, 0 when lost (taken over, or the lease
 * record vanished). A lease that expired with nobody taking it since (the record unchanged) is
 * taken back: the holder was only cut off.
 */
export const RENEW = `${OURS('KEYS[2]', 'ARGV[2]', 'ARGV[1]')}
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return 1
`;

/**
 * KEYS meta, records; ARGV fence, id, seq, replace ('1' or '0'), record → 1 saved (or saved
 * before: a retry of a save whose answer was lost), 0 refused: the lease is no longer this one.
 */
export const SAVE = `${OURS('KEYS[1]', 'ARGV[1]', 'ARGV[2]')}
if tonumber(redis.call('HGET', KEYS[1], 'seq') or '0') >= tonumber(ARGV[3]) then return 1 end
if ARGV[4] == '1' then redis.call('DEL', KEYS[2]) end
redis.call('RPUSH', KEYS[2], ARGV[5])
redis.call('HSET', KEYS[1], 'seq', ARGV[3])
return 1
`;

/**
 * KEYS lease, meta; ARGV id → frees the lease if it is still ours, noting that its holder let go.
 * The lease first: a `<key>:meta` of another type fails the note, never the release.
 */
export const RELEASE = `
local ours = redis.call('GET', KEYS[1]) == ARGV[1]
if ours then redis.call('DEL', KEYS[1]) end
if redis.call('HGET', KEYS[2], 'holder') == ARGV[1] then redis.call('HSET', KEYS[2], 'released', ARGV[1]) end
if ours then return 1 end
return 0
`;

/** What each key of a checkpoint holds, as Redis's TYPE names it: anything else is another program's data. */
export const KEY_TYPES = { lease: 'string', meta: 'hash', records: 'list' } as const;
