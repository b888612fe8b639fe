/**
 * The Lua scripts of `redisCheckpoint()`: each runs atomically in Redis, so taking the lease,
 * renewing it and saving under it can never interleave with another watcher's.
 *
 * Keys of a checkpoint `<key>`: `<key>:lease` (the holder's id, expiring `leaseMs` after its last
 * renewal), `<key>:meta` (a hash: `fence`, raised by one on every acquisition and never lowered;
 * `seq`, the number of the holder's last save) and `<key>:records` (a list, oldest first).
 */

/** KEYS lease, meta; ARGV id, ms → [1, fence] when taken, [0, holder, pttl] while another holds it. */
export const ACQUIRE = `
local holder = redis.call('GET', KEYS[1])
if holder then return {0, holder, redis.call('PTTL', KEYS[1])} end
local fence = redis.call('HINCRBY', KEYS[2], 'fence', 1)
redis.call('HSET', KEYS[2], 'seq', 0)
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return {1, tostring(fence)}
`;

/**
 * KEYS lease, meta; ARGV id, fence, ms → 1 when still ours, 0 when lost. A lease that expired with
 * nobody taking it since (the fence unchanged) is taken back: the holder was only cut off.
 */
export const RENEW = `
if redis.call('HGET', KEYS[2], 'fence') ~= ARGV[2] then return 0 end
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return 1
`;

/**
 * KEYS meta, records; ARGV fence, seq, replace ('1' or '0'), record → 1 saved (or saved before:
 * a retry of a save whose answer was lost), 0 refused: another holder took over since `fence`.
 */
export const SAVE = `
if redis.call('HGET', KEYS[1], 'fence') ~= ARGV[1] then return 0 end
if tonumber(redis.call('HGET', KEYS[1], 'seq') or '0') >= tonumber(ARGV[2]) then return 1 end
if ARGV[3] == '1' then redis.call('DEL', KEYS[2]) end
redis.call('RPUSH', KEYS[2], ARGV[4])
redis.call('HSET', KEYS[1], 'seq', ARGV[2])
return 1
`;

/** KEYS lease; ARGV id → frees the lease if it is still ours. */
export const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;
