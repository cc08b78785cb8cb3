"""Lua scripts that run the dedup decision inside Redis, one tenant per call.

Why Lua: the decision (look up band buckets, compare the exact hashed-word Jaccard of every
candidate, insert if unique) must be atomic with the insert, or two near-duplicates racing
from two workers could both pass. Redis runs a script without interleaving other
commands, and every key a script touches carries the tenant's `{hash tag}`, so the script
is valid on Redis Cluster too (one tenant = one slot).

The algorithm is the one `dedup_memory.MemoryStore` runs in Python; a test feeds both the
same inputs and requires identical answers. Keep the two in step.

Key layout for tenant T under prefix P (all in T's slot):
  P:{T}:m        hash  next (id counter), level/split (linear hashing), entries
  P:{T}:i        hash  claim_id -> internal id
  P:{T}:r        hash  internal id -> record: 2-byte claim_id length, claim_id, token hashes
  P:{T}:b:<n>    hash  band key (8 bytes) -> "id" or "id,id,..."; shard n by linear hashing

Band keys live in many small hashes instead of one big one so that each stays in Redis'
compact listpack encoding (about 15 bytes per entry instead of about 70 in a hashtable).
Shards split one at a time (linear hashing) when the mean load passes `load`, so growth
never rehashes a whole tenant in one script call.

Scripts never raise on well-formed input (the Python side validates sizes and encodings
first): a Lua error midway would leave the writes before it in place.
"""

from __future__ import annotations

_PRELUDE = r"""
local meta, ids, rec = KEYS[1], KEYS[2], KEYS[3]
local bprefix = ARGV[1]

local m = redis.call('HMGET', meta, 'next', 'level', 'split', 'entries')
local next_id = tonumber(m[1]) or 0
local level = tonumber(m[2]) or 0
local split = tonumber(m[3]) or 0
local entries = tonumber(m[4]) or 0

-- the low 32 bits of a big-endian 8-byte band key choose its shard
local function shard_of(key)
  local b1, b2, b3, b4 = string.byte(key, 5, 8)
  local h = ((b1 * 256 + b2) * 256 + b3) * 256 + b4
  local size = 2 ^ level
  local a = h % size
  if a < split then a = h % (size * 2) end
  return a, h
end

-- shard key names, built once per call: number-to-string and concatenation are costly
local names = {}
local function shard_key(key)
  local a = shard_of(key)
  local name = names[a]
  if not name then
    name = bprefix .. a
    names[a] = name
  end
  return name
end

local function save_meta()
  redis.call('HSET', meta, 'next', next_id, 'level', level, 'split', split,
             'entries', entries)
end
"""

CHECK_AND_INSERT = (
    _PRELUDE
    + r"""
local threshold = tonumber(ARGV[2])
local load = tonumber(ARGV[3])
local n = tonumber(ARGV[4])
-- the batch travels as a few blobs (fewer arguments to encode and parse):
-- flags: one '1'/'0' per claim (insert?); counts: 2 bytes per claim (token count);
-- alltoks: every claim's 4-byte token hashes back to back; allbands: bw bytes per claim;
-- then one claim_id per claim from ARGV[10]
local flags, counts, alltoks, allbands = ARGV[5], ARGV[6], ARGV[7], ARGV[8]
local bw = tonumber(ARGV[9])
local tpos = 1
local dirty = false

local function maybe_split()
  local size = 2 ^ level
  if entries <= load * (size + split) then return end
  local src = bprefix .. split
  local dst = bprefix .. (split + size)
  local all = redis.call('HGETALL', src)
  local pairs_, fields = {}, {}
  for i = 1, #all, 2 do
    local _, h = shard_of(all[i])
    if h % (size * 2) ~= split then
      pairs_[#pairs_ + 1] = all[i]
      pairs_[#pairs_ + 1] = all[i + 1]
      fields[#fields + 1] = all[i]
    end
  end
  -- few calls per split (each redis.call costs microseconds); chunks keep unpack() far
  -- below Lua's C-stack limit even for an oversized shard
  for i = 1, #fields, 100 do
    local j = math.min(i + 99, #fields)
    redis.call('HSET', dst, unpack(pairs_, 2 * i - 1, 2 * j))
    redis.call('HDEL', src, unpack(fields, i, j))
  end
  split = split + 1
  if split == size then
    level = level + 1
    split = 0
  end
end

-- reply: {statuses, then claim_id, intersection, union for each duplicate}; statuses
-- has one character per claim: '0' unique, '1' already indexed, '2' duplicate
local status, out = {}, {''}
for c = 0, n - 1 do
  local cid = ARGV[10 + c]
  local ins = string.byte(flags, c + 1) == 49
  local cnt = string.byte(counts, 2 * c + 1) * 256 + string.byte(counts, 2 * c + 2)
  local toks = string.sub(alltoks, tpos, tpos + 4 * cnt - 1)
  tpos = tpos + 4 * cnt
  local bands = string.sub(allbands, c * bw + 1, (c + 1) * bw)
  if redis.call('HEXISTS', ids, cid) == 1 then
    -- already indexed (a replay): unique, never a duplicate of itself
    status[c + 1] = '1'
  else
    local qset, qn = {}, 0
    for i = 1, #toks - 3, 4 do
      qset[string.sub(toks, i, i + 3)] = true
      qn = qn + 1
    end
    local best, best_cid, best_sim, best_i, best_u = nil, '', -1, 0, 0
    -- band lookups are kept for the insert below: nothing writes in between
    local bkeys, bshards, bvals = {}, {}, {}
    if qn > 0 then
      local seen = {}
      for i = 1, #bands - 7, 8 do
        local bk = string.sub(bands, i, i + 7)
        local shard = shard_key(bk)
        local v = redis.call('HGET', shard, bk)
        bkeys[#bkeys + 1] = bk
        bshards[#bshards + 1] = shard
        bvals[#bvals + 1] = v
        if v then
          for sid in string.gmatch(v, '%d+') do
            if not seen[sid] then
              seen[sid] = true
              local blob = redis.call('HGET', rec, sid)
              if blob then
                local l = string.byte(blob, 1) * 256 + string.byte(blob, 2)
                local inter, cn = 0, 0
                for j = 3 + l, #blob - 3, 4 do
                  cn = cn + 1
                  if qset[string.sub(blob, j, j + 3)] then inter = inter + 1 end
                end
                local union = qn + cn - inter
                local sim = inter / union
                local id = tonumber(sid)
                if sim > threshold and (sim > best_sim or (sim == best_sim and id < best)) then
                  best, best_sim, best_i, best_u = id, sim, inter, union
                  best_cid = string.sub(blob, 3, 2 + l)
                end
              end
            end
          end
        end
      end
    end
    if best then
      status[c + 1] = '2'
      out[#out + 1] = best_cid; out[#out + 1] = best_i; out[#out + 1] = best_u
    else
      if ins and qn > 0 then
        local id = next_id
        next_id = next_id + 1
        local sid = tostring(id)
        redis.call('HSET', ids, cid, sid)
        local l = #cid
        redis.call('HSET', rec, sid,
                   string.char(math.floor(l / 256), l % 256) .. cid .. toks)
        for i = 1, #bkeys do
          local v = bvals[i]
          if v then v = v .. ',' .. sid else v = sid end
          redis.call('HSET', bshards[i], bkeys[i], v)
          entries = entries + 1
        end
        maybe_split()
        dirty = true
      end
      status[c + 1] = '0'
    end
  end
end
if dirty then save_meta() end
out[1] = table.concat(status)
return out
"""
)

# ARGV: band prefix, claim_id. Returns the record's token bytes, or false if not indexed.
FETCH_TOKENS = r"""
local sid = redis.call('HGET', KEYS[2], ARGV[2])
if not sid then return false end
local blob = redis.call('HGET', KEYS[3], sid)
if not blob then return false end
local l = string.byte(blob, 1) * 256 + string.byte(blob, 2)
return {sid, string.sub(blob, 3 + l)}
"""

# ARGV: band prefix, claim_id, internal id seen by FETCH_TOKENS, band keys blob.
REMOVE = (
    _PRELUDE
    + r"""
local cid, sid, bands = ARGV[2], ARGV[3], ARGV[4]
if redis.call('HGET', ids, cid) ~= sid then return 0 end
for i = 1, #bands - 7, 8 do
  local bk = string.sub(bands, i, i + 7)
  local key = shard_key(bk)
  local v = redis.call('HGET', key, bk)
  if v then
    local kept = {}
    for x in string.gmatch(v, '%d+') do
      if x ~= sid then kept[#kept + 1] = x end
    end
    if #kept == 0 then
      redis.call('HDEL', key, bk)
    else
      redis.call('HSET', key, bk, table.concat(kept, ','))
    end
    entries = entries - 1
  end
end
redis.call('HDEL', rec, sid)
redis.call('HDEL', ids, cid)
save_meta()
return 1
"""
)
