/*
 * The Lua scripts of RedisSessionStore. Each runs atomically on the server.
 * KEYS[1] is `<prefix>{<sessionId>}:meta` and KEYS[2] `<prefix>{<sessionId>}:records`;
 * the values of slice number n are the list `<prefix>{<sessionId>}:s:<n>`, named from KEYS[1],
 * so every key of a session shares the hash tag `{<sessionId>}` (one Redis Cluster slot).
 *
 * The meta hash holds `version`, `createdAt`, `tags` (JSON text), `count` (slices so far) and,
 * for slice number n, `n:<n>` (its name) and `p:<n>` (its policy), and `s:<name>` (its number).
 * Slices are numbered in the order first written; an emptied slice keeps its number.
 */

/**
 * ARGV: expected version, createdAt, tags; the replaced slices (their count, then for each
 * its name, policy, number of values and the values as JSON text); the appended slices, alike;
 * the records (their count, then key and JSON text pairs, '' deleting the key).
 * Returns {1, new version}, or {0, stored version} having written nothing.
 */
export const commitScript = `
local meta, records = KEYS[1], KEYS[2]
local base = string.sub(meta, 1, -5)
local actual = tonumber(redis.call('HGET', meta, 'version') or '0')
if tonumber(ARGV[1]) ~= actual then return {0, actual} end
if actual == 0 then
  redis.call('HSET', meta, 'createdAt', ARGV[2], 'tags', ARGV[3], 'count', 0)
end
local function slice_key(name, policy)
  local n = redis.call('HGET', meta, 's:' .. name)
  if not n then
    n = redis.call('HINCRBY', meta, 'count', 1)
    redis.call('HSET', meta, 's:' .. name, n, 'n:' .. n, name)
  end
  redis.call('HSET', meta, 'p:' .. n, policy)
  return base .. 's:' .. n
end
local function push(key, first, last)
  while first <= last do
    local upto = math.min(first + 999, last)
    redis.call('RPUSH', key, unpack(ARGV, first, upto))
    first = upto + 1
  end
end
local i = 4
for pass = 1, 2 do
  local slices = tonumber(ARGV[i])
  i = i + 1
  for _ = 1, slices do
    local key = slice_key(ARGV[i], ARGV[i + 1])
    local size = tonumber(ARGV[i + 2])
    if pass == 1 then redis.call('DEL', key) end
    push(key, i + 3, i + 2 + size)
    i = i + 3 + size
  end
end
local pairs_count = tonumber(ARGV[i])
i = i + 1
for _ = 1, pairs_count do
  if ARGV[i + 1] == '' then
    redis.call('HDEL', records, ARGV[i])
  else
    redis.call('HSET', records, ARGV[i], ARGV[i + 1])
  end
  i = i + 2
end
redis.call('HSET', meta, 'version', actual + 1)
return {1, actual + 1}
`;

/**
 * Returns nil when the session does not exist, otherwise {version, createdAt, tags,
 * {{name, policy, {values...}}...} (non-empty slices in order), {key, value, key, value...}}.
 * Damaged keys (not numbers, or keys of another type) are answered with what the server said
 * in place of the part they hold (a string), never a script error: the meta hash's error as
 * the whole reply, a count that is no number as the slices, a slice list's error as its
 * values, the records hash's error as the records.
 */
export const loadScript = `
local meta, records = KEYS[1], KEYS[2]
local base = string.sub(meta, 1, -5)
local head = redis.pcall('HMGET', meta, 'version', 'createdAt', 'tags', 'count')
if head.err then return head.err end
if not head[1] then return false end
local count = tonumber(head[4])
if not count then return {head[1], head[2], head[3], 'count ' .. tostring(head[4]), {}} end
local slices = {}
for n = 1, count do
  local values = redis.pcall('LRANGE', base .. 's:' .. n, 0, -1)
  if values.err or #values > 0 then
    local about = redis.call('HMGET', meta, 'n:' .. n, 'p:' .. n)
    slices[#slices + 1] = {about[1], about[2], values.err or values}
  end
end
local stored = redis.pcall('HGETALL', records)
return {head[1], head[2], head[3], slices, stored.err or stored}
`;

/**
 * Deletes every key of the session, a damaged one too: the slice lists up to `count` and those
 * named by `n:<n>` fields (either may be damaged). Returns the number of slice lists removed.
 */
export const deleteScript = `
local meta, records = KEYS[1], KEYS[2]
local base = string.sub(meta, 1, -5)
local numbers = {}
local count = tonumber(redis.pcall('HGET', meta, 'count'))
if count then for n = 1, count do numbers[#numbers + 1] = n end end
local fields = redis.pcall('HKEYS', meta)
if not fields.err then
  for _, field in ipairs(fields) do
    if string.sub(field, 1, 2) == 'n:' then numbers[#numbers + 1] = string.sub(field, 3) end
  end
end
local removed = 0
for _, n in ipairs(numbers) do removed = removed + redis.call('DEL', base .. 's:' .. n) end
redis.call('DEL', meta, records)
return removed
`;
