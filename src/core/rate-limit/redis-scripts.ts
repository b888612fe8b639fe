/**
 * The reservoir rules of budget-local.ts, run atomically inside Redis so that every process
 * sharing a key id sees one window and one reservoir.
 *
 * They write Bottleneck 2.19.5's own settings hash (`b_<id>_settings`: `reservoir`, `running`,
 * `maxConcurrent`) and keep the window in `b_<id>_crp_window`. Times are Redis's clock: each
 * process sends its times as offsets from its own "now", so hosts whose clocks differ still agree.
 * Here Bottleneck's cluster-wide `running` (registered and not yet freed, in any process) is what
 * is subtracted from the server's Remaining, and a refill is `limit - running`, done once per
 * window by whichever process gets there first. Capacity changes are published on Bottleneck's
 * channel (`b_<id>`, `capacity:`) so that queued jobs in every process are drained.
 *
 * KEYS[1] = b_<id>_settings, KEYS[2] = b_<id>_crp_window
 */

const PRELUDE = `
local settings_key, window_key = KEYS[1], KEYS[2]
local clock = redis.call('time')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local function fmt(x) if x == nil then return '' end return string.format('%d', x) end
local s = redis.call('hmget', settings_key, 'reservoir', 'running', 'id')
if not s[3] then return {-1} end
local reservoir = tonumber(s[1])
local running = tonumber(s[2]) or 0
local channel = 'b_' .. s[3]
local w = redis.call('hmget', window_key, 'lo', 'hi', 'limit', 'refreshed', 'refreshed_at', 'paused_until', 'pause_pending')
local wlo, whi, wlimit = tonumber(w[1]), tonumber(w[2]), tonumber(w[3])
local refreshed = w[4] == '1'
local refreshed_at = tonumber(w[5]) or -1
local paused_until = tonumber(w[6]) or 0
local pause_pending = w[7] == '1'
local function target()
  local t = 0
  if whi ~= nil and not refreshed then t = whi end
  if pause_pending and paused_until > t then t = paused_until end
  return t
end
local function save_window()
  redis.call('hset', window_key, 'lo', fmt(wlo), 'hi', fmt(whi), 'limit', fmt(wlimit),
    'refreshed', refreshed and '1' or '0', 'refreshed_at', fmt(refreshed_at),
    'paused_until', fmt(paused_until), 'pause_pending', pause_pending and '1' or '0')
  redis.call('pexpire', window_key, 86400000)
end
`;

/**
 * ARGV: has_budget (0|1), remaining, limit, lo, hi, sent_at (the last three as offsets from the
 * caller's now, ms), self_in_flight (0|1), retry_after_ms (-1 when none).
 * Returns { ms until the next refill (-1: none), reservoir (-1 when unbounded) }.
 */
export const OBSERVE_SCRIPT = `${PRELUDE}
local before = reservoir
local leave_serial = false
local pause_ms = tonumber(ARGV[8])
if pause_ms >= 0 then
  paused_until = math.max(paused_until, now + pause_ms)
  pause_pending = true
  if reservoir == nil or reservoir > 0 then reservoir = 0 end
end
local may_raise = now >= paused_until

if ARGV[1] == '1' then
  local remaining, limit = tonumber(ARGV[2]), tonumber(ARGV[3])
  local lo, hi, sent_at = now + tonumber(ARGV[4]), now + tonumber(ARGV[5]), now + tonumber(ARGV[6])
  local pessimistic = remaining - (running - tonumber(ARGV[7]))
  local verdict
  if whi == nil then verdict = 'first'
  elseif lo >= whi then verdict = 'newer'
  elseif hi < wlo then verdict = 'older'
  elseif refreshed or sent_at < refreshed_at then verdict = 'older'
  else verdict = 'same' end

  if verdict == 'first' or (verdict == 'newer' and not refreshed and may_raise) then
    if may_raise then reservoir = pessimistic
    else reservoir = math.min(reservoir or pessimistic, pessimistic) end
    leave_serial = wlimit == nil
  elseif verdict == 'newer' or verdict == 'same' then
    local raised_by = limit - (wlimit or limit)
    if not may_raise and raised_by > 0 then raised_by = 0 end
    local own = (reservoir or pessimistic) + raised_by
    if own <= remaining then reservoir = own else reservoir = math.min(own, pessimistic) end
  end
  if verdict == 'first' or verdict == 'newer' then
    wlo, whi, wlimit, refreshed = lo, hi, limit, false
  elseif verdict == 'same' then
    wlo, whi, wlimit = math.max(wlo, lo), math.min(whi, hi), limit
  end
end

save_window()
if reservoir ~= before then redis.call('hset', settings_key, 'reservoir', fmt(reservoir)) end
if leave_serial then redis.call('hset', settings_key, 'maxConcurrent', '') end
if leave_serial or (reservoir ~= nil and before ~= nil and reservoir > before) then
  redis.call('publish', channel, 'capacity:')
end
local t = target()
return { t > 0 and (t - now) or -1, reservoir or -1 }
`;

/**
 * Refill when the window (or a Retry-After pause) is over; once per window whichever process asks.
 * Returns { ms until the refill is due (-1: none due, 0: refilled now), reservoir (-1: unbounded) }.
 */
export const REFRESH_SCRIPT = `${PRELUDE}
local t = target()
if t == 0 then return { -1, reservoir or -1 } end
if now < t then return { t - now, reservoir or -1 } end
if wlimit ~= nil then
  reservoir = wlimit - running
  refreshed = true
  refreshed_at = now
else
  reservoir = nil
end
pause_pending = false
save_window()
redis.call('hset', settings_key, 'reservoir', fmt(reservoir))
redis.call('publish', channel, 'capacity:')
return { 0, reservoir or -1 }
`;
