"""The memory view's one write: a tenant's changes of one batch, atomically, with checks.

KEYS (all of one tenant, one hash-tag slot): 1 active memories (hash id -> record),
2 history (superseded memories), 3 versions (hash id -> version), 4 the (subject,
predicate) index of active memories (hash field -> space-separated ids), 5 the op log
(hash op id -> what the op wrote), 6 op times (sorted set, for trimming the log).

ARGV: now_ms, cutoff_ms (ops older than this are forgotten), then
  n_ops, n_ops x [op_id, blob],
  n_writes, n_writes x [memory_id, expected_version (0 = absent), new_version, where, json]
    (where: "a" active, "h" history, "-" removed),
  n_sp, n_sp x [field, ids ("" removes the field)].

Nothing is written unless every op is new and every memory is at its expected version:
a replayed batch or a second writer (a zombie from before a rebalance) gets
{"conflict", why} and changes nothing; the stage then re-reads and decides again.
"""

from __future__ import annotations

COMMIT = r"""
local now, cutoff = ARGV[1], tonumber(ARGV[2])
local pos = 3
local n_ops = tonumber(ARGV[pos]); pos = pos + 1
local ops_at = pos
for _ = 1, n_ops do
  if redis.call('HEXISTS', KEYS[5], ARGV[pos]) == 1 then
    return {'conflict', 'op ' .. ARGV[pos] .. ' was applied already'}
  end
  pos = pos + 2
end
local n_w = tonumber(ARGV[pos]); pos = pos + 1
local writes_at = pos
for _ = 1, n_w do
  local current = tonumber(redis.call('HGET', KEYS[3], ARGV[pos]) or '0')
  if current ~= tonumber(ARGV[pos + 1]) then
    return {'conflict', ARGV[pos] .. ' is at version ' .. current .. ', expected ' .. ARGV[pos + 1]}
  end
  pos = pos + 5
end
local n_sp = tonumber(ARGV[pos]); pos = pos + 1
local sp_at = pos
pos = ops_at
for _ = 1, n_ops do
  redis.call('HSET', KEYS[5], ARGV[pos], ARGV[pos + 1])
  redis.call('ZADD', KEYS[6], now, ARGV[pos])
  pos = pos + 2
end
pos = writes_at
for _ = 1, n_w do
  local id, version, where, json = ARGV[pos], ARGV[pos + 2], ARGV[pos + 3], ARGV[pos + 4]
  if where == '-' then
    redis.call('HDEL', KEYS[1], id)
    redis.call('HDEL', KEYS[2], id)
    redis.call('HDEL', KEYS[3], id)
  elseif where == 'a' then
    redis.call('HSET', KEYS[1], id, json)
    redis.call('HDEL', KEYS[2], id)
    redis.call('HSET', KEYS[3], id, version)
  else
    redis.call('HSET', KEYS[2], id, json)
    redis.call('HDEL', KEYS[1], id)
    redis.call('HSET', KEYS[3], id, version)
  end
  pos = pos + 5
end
pos = sp_at
for _ = 1, n_sp do
  if ARGV[pos + 1] == '' then
    redis.call('HDEL', KEYS[4], ARGV[pos])
  else
    redis.call('HSET', KEYS[4], ARGV[pos], ARGV[pos + 1])
  end
  pos = pos + 2
end
local old = redis.call('ZRANGEBYSCORE', KEYS[6], '-inf', cutoff, 'LIMIT', 0, 200)
for _, op in ipairs(old) do
  redis.call('HDEL', KEYS[5], op)
  redis.call('ZREM', KEYS[6], op)
end
return {'ok'}
"""

# A lease: SET the key to the holder if it is free or already the holder's, with a TTL.
LEASE = r"""
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""

RELEASE = r"""
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""
