"""Lua scripts that run the dedup decision inside Redis, one tenant per call.

Why Lua: the decision (look up band buckets, compare the exact hashed-word Jaccard of every
candidate, insert if unique) must be atomic with the insert, or two near-duplicates racing
from two workers could both pass. Redis runs a script without interleaving other
commands, and every key a script touches carries the tenant's `{hash tag}`, so the script
is valid on Redis Cluster too (one tenant = one slot).

The algorithm is the one `dedup_memory.MemoryStore` runs in Python; a test feeds both the
same inputs and requires identical answers. Keep the two in step.

Two namespaces share one band index (docs/dedup.md "Pending review"):

* **memories**: approved claims. A near-duplicate of one is a duplicate (blocked).
* **pending**: claims queued for review, not memories yet. A near-duplicate of one is
  reported (status 3, with the pending claim's id) and is otherwise unique. Each pending
  entry expires `pending_retention_s` after it was queued; every call first purges up to
  64 expired entries, and an expired entry never matches even before it is purged.
  `PROMOTE` turns a pending entry into a memory (a person approved it), `DISCARD` drops it.

Key layout for tenant T under prefix P (all in T's slot):
  P:{T}:m        hash  next, pnext (id counters), level/split (linear hashing), entries
  P:{T}:i        hash  claim_id -> memory id
  P:{T}:r        hash  memory id -> record: header, claim_id, [salt], token hashes
  P:{T}:pi       hash  claim_id -> pending id
  P:{T}:pr       hash  pending id -> record: header, claim_id, [salt], 2-byte band count,
                       band keys (8 bytes each), token hashes
  P:{T}:px       zset  pending id -> expiry (ms since the epoch)
  P:{T}:b:<n>    hash  band key (8 bytes) -> postings "id,p7,id,...": a memory id, or "p"
                       and a pending id; shard n by linear hashing

Record header: 2 bytes, the claim_id's length; its high bit says an 8-byte scope salt
follows the claim_id (dedup scope `user` / `user_and_type`: band keys are salted per scope,
and `remove` needs the salt to find them again); the next bit says the token hashes are in
the order their words first occur in the text (every record written since session 10;
older ones are never read for order: the role-swap check of docs/dedup.md §Variants skips
them); the next bit says a count byte and the text's marks (its negations and numbers,
and since session 11 its names after them, 4-byte hashes, at most 255) follow the salt,
so a claim that drops one of them is a variant (session 10; older records only have
their negations recognised, by hash). A claim's names and antonyms (`contrasts`) are
compared with a record's token hashes, which every record has.
Pending records keep their band keys so an expired entry can be purged inside the script.

Band keys live in many small hashes instead of one big one so that each stays in Redis'
compact listpack encoding (about 15 bytes per entry instead of about 70 in a hashtable).
Shards split one at a time (linear hashing) when the mean load passes `load`, so growth
never rehashes a whole tenant in one script call.

Scripts never raise on well-formed input (the Python side validates sizes and encodings
first): a Lua error midway would leave the writes before it in place.
"""

from __future__ import annotations

from groundwire.guards.dedup.minhash import (
    NEGATION_HASHES,
    NOT_HASH,
    PIECE_BREAK,
    SENTENCE_BREAK,
)

PURGE_PER_CALL = 64


def _lua_bytes(h: int) -> str:
    """A 4-byte big-endian token hash as a Lua string literal."""
    return '"' + "".join(f"\\{b:03d}" for b in h.to_bytes(4, "big")) + '"'


def _negations_table() -> str:
    """The negations' token hashes as a Lua set of 4-byte big-endian strings."""
    keys = (f"[{_lua_bytes(h)}]=true" for h in sorted(NEGATION_HASHES))
    return (
        "local NEGATIONS = {"
        + ", ".join(keys)
        + "}\n"
        + f"local NOT = {_lua_bytes(NOT_HASH)}\n"
        + f"local BREAK = {_lua_bytes(PIECE_BREAK)}\n"
        + f"local SBREAK = {_lua_bytes(SENTENCE_BREAK)}\n"
    )


_PRELUDE = (
    _negations_table()
    + r"""
local meta, ids, rec, pids, prec, pexp = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local bprefix = ARGV[1]

local m = redis.call('HMGET', meta, 'next', 'level', 'split', 'entries', 'pnext')
local next_id = tonumber(m[1]) or 0
local level = tonumber(m[2]) or 0
local split = tonumber(m[3]) or 0
local entries = tonumber(m[4]) or 0
local pnext = tonumber(m[5]) or 0

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
             'entries', entries, 'pnext', pnext)
end

-- a record's claim_id length, the position after its claim_id, salt and marks, whether
-- its token hashes are in the text's order (records written before that was kept are
-- not), and where its marks (negations and numbers, 4-byte hashes) start and end
local function header(blob)
  local l = string.byte(blob, 1) * 256 + string.byte(blob, 2)
  local extra = 0
  if l >= 32768 then
    l = l - 32768
    extra = 8
  end
  local ordered = false
  if l >= 16384 then
    l = l - 16384
    ordered = true
  end
  local marked = false
  if l >= 8192 then -- a count byte and the marks follow the salt
    l = l - 8192
    marked = true
  end
  local pos = 3 + l + extra
  local mfrom, mto = pos, pos - 1
  if marked then
    local m = string.byte(blob, pos)
    mfrom, mto = pos + 1, pos + 4 * m
    pos = pos + 1 + 4 * m
  end
  return l, pos, ordered, mfrom, mto
end

-- a pending record: claim_id, band keys, position of the first token hash
local function pending_parts(blob)
  local l, pos = header(blob)
  local nb = string.byte(blob, pos) * 256 + string.byte(blob, pos + 1)
  return string.sub(blob, 3, 2 + l), string.sub(blob, pos + 2, pos + 1 + nb * 8),
         pos + 2 + nb * 8
end

-- remove one posting from a band entry
local function drop_posting(bk, posting)
  local key = shard_key(bk)
  local v = redis.call('HGET', key, bk)
  if not v then return end
  local kept, found = {}, false
  for x in string.gmatch(v, '[^,]+') do
    if x == posting and not found then found = true else kept[#kept + 1] = x end
  end
  if not found then return end
  if #kept == 0 then
    redis.call('HDEL', key, bk)
  else
    redis.call('HSET', key, bk, table.concat(kept, ','))
  end
  entries = entries - 1
end

local function purge_pending(pid)
  local blob = redis.call('HGET', prec, pid)
  if blob then
    local cid, bands = pending_parts(blob)
    local posting = 'p' .. pid
    for i = 1, #bands - 7, 8 do drop_posting(string.sub(bands, i, i + 7), posting) end
    if redis.call('HGET', pids, cid) == pid then redis.call('HDEL', pids, cid) end
    redis.call('HDEL', prec, pid)
  end
  redis.call('ZREM', pexp, pid)
end

-- expired pending entries, a bounded number per call; true if any was purged
local function sweep(now)
  local due = redis.call('ZRANGEBYSCORE', pexp, '-inf', now, 'LIMIT', 0, """
    + str(PURGE_PER_CALL)
    + r""")
  for _, pid in ipairs(due) do purge_pending(pid) end
  return #due > 0
end

local function live_pending(pid, now)
  local exp = tonumber(redis.call('ZSCORE', pexp, pid))
  return exp ~= nil and exp > now
end

-- the query's token hashes as a set
local function token_set(toks)
  local qset, qn = {}, 0
  for i = 1, #toks - 3, 4 do
    qset[string.sub(toks, i, i + 3)] = true
    qn = qn + 1
  end
  return qset, qn
end

local function overlap(qset, blob, from)
  local inter, cn = 0, 0
  for j = from, #blob - 3, 4 do
    cn = cn + 1
    if qset[string.sub(blob, j, j + 3)] then inter = inter + 1 end
  end
  return inter, cn
end

-- a 4-byte big-endian count at position i of s
local function u32(s, i)
  local b1, b2, b3, b4 = string.byte(s, i, i + 3)
  return ((b1 * 256 + b2) * 256 + b3) * 256 + b4
end

-- the names of a claim's contrasts (`qcon`: groups of a 4-byte word hash, a 4-byte form
-- count and the forms' hashes; no forms: a name), back to back: a record keeps them
-- among its marks
local function contrast_names(qcon)
  local out, i = {}, 1
  while i + 7 <= #qcon do
    local k = u32(qcon, i + 4)
    if k == 0 then out[#out + 1] = string.sub(qcon, i, i + 3) end
    i = i + 8 + 4 * k
  end
  return table.concat(out)
end

-- the claim's negations' other spellings (`qspell`: groups of a 4-byte negation hash, a
-- 4-byte count and the one-word spellings' hashes, a 4-byte count and the auxiliaries'
-- hashes; minhash.py `spelling_hashes`) as {negation -> {singles, auxes}} and the set of
-- the record negations they spell (minhash.py `spelled_cover`)
local function spellings(qspell)
  local groups, cover, i = {}, {}, 1
  while i + 11 <= #qspell do
    local neg = string.sub(qspell, i, i + 3)
    local ns = u32(qspell, i + 4)
    local singles = {}
    for j = i + 8, i + 4 + 4 * ns, 4 do
      local t = string.sub(qspell, j, j + 3)
      singles[#singles + 1] = t
      cover[t] = true
    end
    i = i + 8 + 4 * ns
    local na = u32(qspell, i)
    local auxes = {}
    for j = i + 4, i + 4 * na, 4 do auxes[#auxes + 1] = string.sub(qspell, j, j + 3) end
    if na > 0 then cover[NOT] = true end
    i = i + 4 + 4 * na
    groups[neg] = {singles, auxes}
  end
  return groups, cover
end

-- the record (`cset`) has the claim's negation `t` in another spelling: a one-word one,
-- or an auxiliary and "not" (minhash.py `spelled_in`)
local function spelled_in(t, groups, cset)
  local g = groups[t]
  if not g then return false end
  for _, s in ipairs(g[1]) do if cset[s] then return true end end
  if cset[NOT] then
    for _, a in ipairs(g[2]) do if cset[a] then return true end end
  end
  return false
end

-- the claim and a near-duplicate (a record from `from`) differ in a mark: one of the
-- claim's negations or numbers (`qmarks`, 4-byte hashes) is not in the record, or one of
-- the record's negations is not in the claim; the claim put a name or an antonym in the
-- place of one of the record's words (`qcon`, minhash.py `contrasts`; `lacks`: the record
-- has a word the claim lacks); or, for a record whose hashes are in the
-- text's order, a word of the claim's in the place of the record's before a word both
-- have (minhash.py `replaced_in_place`), or three of the claim's content words
-- (`qorder`, in the claim's order) stand in the reverse order in it: swapped roles
-- (minhash.py `reversed_roles`, the same loop)
local function differs(qset, qmarks, blob, from, qorder, ordered, mfrom, mto, novel, qcon,
                       lacks, sgroups, scover)
  -- one of the record's own marks is not in the claim: a negation, or a number with
  -- another word in its place (`novel`: the claim has a word the record lacks; a claim
  -- that only leaves a number out says less, not something else)
  for j = mfrom, mto - 3, 4 do
    local t = string.sub(blob, j, j + 3)
    if not qset[t] and not scover[t] and (novel or NEGATIONS[t]) then return true end
  end
  local cset, arr = {}, {}
  local k = 0
  for j = from, #blob - 3, 4 do
    local t = string.sub(blob, j, j + 3)
    if NEGATIONS[t] and not qset[t] and not scover[t] then return true end
    k = k + 1
    cset[t] = k
    arr[k] = t
  end
  for i = 1, #qmarks - 3, 4 do
    local t = string.sub(qmarks, i, i + 3)
    if not cset[t] and not spelled_in(t, sgroups, cset) then return true end
  end
  -- a name or an antonym in the place of one of the record's words: a name opening one
  -- of the claim's sentences that the record lacks while the record has a word the claim
  -- lacks, or a form of an antonym of a claim's word in the record but not in the claim
  local g = 1
  while g + 7 <= #qcon do
    local k = u32(qcon, g + 4)
    if k == 0 then
      if lacks and not cset[string.sub(qcon, g, g + 3)] then return true end
    else
      for j = g + 8, g + 4 + 4 * k, 4 do
        local f = string.sub(qcon, j, j + 3)
        if cset[f] and not qset[f] then return true end
      end
    end
    g = g + 8 + 4 * k
  end
  if not ordered or #qorder < 12 then return false end
  -- a content word of the claim the record lacks, right before one it has, where the
  -- record has a word the claim lacks right before that one: a word in the place of
  -- another ("the search API" / "the checkout API"; minhash.py `replaced_in_place`)
  local prev = nil
  for i = 1, #qorder - 3, 4 do
    local t = string.sub(qorder, i, i + 3)
    if t == BREAK or t == SBREAK then
      prev = nil
    else
      if prev and not cset[prev] then
        local p = cset[t]
        if p and p > 1 and not qset[arr[p - 1]] and not scover[arr[p - 1]] then
          return true
        end
      end
      prev = t
    end
  end
  -- the record's places of the claim's content words, in the claim's order, and the
  -- piece of the claim's lists and the sentence each is in (4-byte 0: a break between
  -- pieces, 1: between sentences)
  local q, pc, sc, piece, sentence = {}, {}, {}, 0, 0
  for i = 1, #qorder - 3, 4 do
    local t = string.sub(qorder, i, i + 3)
    if t == BREAK then
      piece = piece + 1
    elseif t == SBREAK then
      piece = piece + 1
      sentence = sentence + 1
    else
      local p = cset[t]
      if p then
        q[#q + 1] = p
        pc[#q] = piece
        sc[#q] = sentence
      end
    end
  end
  -- three in reverse order, two of them in one piece or not all in one sentence (a
  -- list's items read in another order are no roles)
  for j = 2, #q - 1 do
    local mid, pj, sj, before, good = q[j], pc[j], sc[j], false, false
    for i = 1, j - 1 do
      if q[i] > mid then
        before = true
        if pc[i] == pj or sc[i] ~= sj then
          good = true
          break
        end
      end
    end
    if before then
      for k = j + 1, #q do
        if q[k] < mid and (good or pc[k] == pj or sc[k] ~= sj) then return true end
      end
    end
  end
  return false
end

-- Every entry sharing a band key with the query, confirmed by exact Jaccard. Returns the
-- most similar memory above the threshold {id, claim_id, inter, union} (ties: lowest id)
-- or nil, the same for pending entries, the band lookups (kept for an insert), and the
-- most similar memory above the threshold that the query differs from in a mark (a
-- variant; pending entries it differs from are no match at all).
local function scan(qset, qn, bands, threshold, now, qmarks, qorder, qcon, qspell)
  local bkeys, bshards, bvals = {}, {}, {}
  local sgroups, scover = spellings(qspell)
  local mb, pb, vb = nil, nil, nil
  if qn == 0 then return mb, pb, bkeys, bshards, bvals, vb end
  local seen = {}
  for i = 1, #bands - 7, 8 do
    local bk = string.sub(bands, i, i + 7)
    local shard = shard_key(bk)
    local v = redis.call('HGET', shard, bk)
    bkeys[#bkeys + 1] = bk
    bshards[#bshards + 1] = shard
    bvals[#bvals + 1] = v
    if v then
      for sid in string.gmatch(v, '[^,]+') do
        if not seen[sid] then
          seen[sid] = true
          if string.byte(sid, 1) == 112 then -- 'p': a pending entry
            local pid = string.sub(sid, 2)
            local blob = live_pending(pid, now) and redis.call('HGET', prec, pid)
            if blob then
              local cid, _, from = pending_parts(blob)
              local _, _, ordered, mfrom, mto = header(blob)
              local inter, cn = overlap(qset, blob, from)
              local union = qn + cn - inter
              local sim = inter / union
              local id = tonumber(pid)
              if sim > threshold and (pb == nil or sim > pb[5]
                                      or (sim == pb[5] and id < pb[1]))
                 and not differs(qset, qmarks, blob, from, qorder, ordered, mfrom, mto,
                                 inter < qn, qcon, inter < cn, sgroups, scover) then
                pb = {id, cid, inter, union, sim}
              end
            end
          else
            local blob = redis.call('HGET', rec, sid)
            if blob then
              local l, from, ordered, mfrom, mto = header(blob)
              local inter, cn = overlap(qset, blob, from)
              local union = qn + cn - inter
              local sim = inter / union
              local id = tonumber(sid)
              if sim > threshold then
                local best = mb
                local variant = differs(qset, qmarks, blob, from, qorder, ordered, mfrom,
                                        mto, inter < qn, qcon, inter < cn, sgroups, scover)
                if variant then best = vb end
                if best == nil or sim > best[5] or (sim == best[5] and id < best[1]) then
                  best = {id, string.sub(blob, 3, 2 + l), inter, union, sim}
                  if variant then vb = best else mb = best end
                end
              end
            end
          end
        end
      end
    end
  end
  return mb, pb, bkeys, bshards, bvals, vb
end

local function record_head(cid, salt, marks)
  local l = #cid + 16384 -- the token hashes follow in the text's order
  if #salt == 8 then l = l + 32768 end
  local tail = ''
  if #marks >= 4 then -- the text's marks, so a claim that drops one is a variant
    local m = math.min(math.floor(#marks / 4), 255)
    l = l + 8192
    tail = string.char(m) .. string.sub(marks, 1, 4 * m)
  end
  return string.char(math.floor(l / 256), l % 256) .. cid .. salt .. tail
end
"""
)

CHECK_AND_INSERT = (
    _PRELUDE
    + r"""
local threshold = tonumber(ARGV[2])
local load = tonumber(ARGV[3])
local n = tonumber(ARGV[4])
-- the batch travels as a few blobs (fewer arguments to encode and parse):
-- flags: one per claim, '0' look only, '1' insert as a memory, '2' insert as pending;
-- counts: 2 bytes per claim (token count); alltoks: every claim's 4-byte token hashes
-- back to back; allbands: bw bytes per claim; salts: 8 bytes per claim, or empty when no
-- claim has one; mcounts: 2 bytes per claim (its marks: negations and numbers); allmarks:
-- every claim's 4-byte mark hashes back to back; ocounts, allorder: the same for its
-- content words in order (the role-swap check); ccounts, allcon: the same for its
-- contrasts (4-byte words: hash, count, forms; names and antonyms); scounts, allspell:
-- the same for its negations' other spellings (`spellings`); then one claim_id per claim
-- from ARGV[21]
local flags, counts, alltoks, allbands = ARGV[5], ARGV[6], ARGV[7], ARGV[8]
local bw = tonumber(ARGV[9])
local now = tonumber(ARGV[10])
local pending_until = ARGV[11]
local salts = ARGV[12]
local mcounts, allmarks = ARGV[13], ARGV[14]
local ocounts, allorder = ARGV[15], ARGV[16]
local ccounts, allcon = ARGV[17], ARGV[18]
local scounts, allspell = ARGV[19], ARGV[20]
local mpos, opos, cpos, spos = 1, 1, 1, 1
local no_salt = string.rep('\0', 8)
local nb_bytes = string.char(math.floor(bw / 8 / 256), (bw / 8) % 256)
local tpos = 1
local dirty = sweep(now)

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

local function add_postings(bkeys, bshards, bvals, posting)
  for i = 1, #bkeys do
    local v = bvals[i]
    if v then v = v .. ',' .. posting else v = posting end
    redis.call('HSET', bshards[i], bkeys[i], v)
    entries = entries + 1
  end
  maybe_split()
end

-- reply: {statuses, then claim_id, intersection, union for each status 2 or 3}; statuses
-- has one character per claim: '0' unique, '1' already indexed (a memory or pending),
-- '2' duplicate of a memory, '3' unique but a near-duplicate of a pending entry, '5' a
-- variant of a memory (near-duplicate but for a mark), inserted as pending if at all
local status, out = {}, {''}
-- claim c's status, and the claim_id, intersection and union of the entry it matched
local function answer(c, code, best)
  status[c + 1] = code
  out[#out + 1] = best[2]; out[#out + 1] = best[3]; out[#out + 1] = best[4]
end
-- claim c's part of a packed argument: its count (2 bytes in `cnts`) of 4-byte hashes,
-- read from `all` at `pos`; returns the part and where the next claim's starts
local function take(all, pos, cnts, c)
  local cnt = string.byte(cnts, 2 * c + 1) * 256 + string.byte(cnts, 2 * c + 2)
  return string.sub(all, pos, pos + 4 * cnt - 1), pos + 4 * cnt
end
for c = 0, n - 1 do
  local cid = ARGV[21 + c]
  local mode = string.byte(flags, c + 1)
  local toks, qmarks, qorder, qcon, qspell
  toks, tpos = take(alltoks, tpos, counts, c)
  local bands = string.sub(allbands, c * bw + 1, (c + 1) * bw)
  qmarks, mpos = take(allmarks, mpos, mcounts, c)
  qorder, opos = take(allorder, opos, ocounts, c)
  qcon, cpos = take(allcon, cpos, ccounts, c)
  qspell, spos = take(allspell, spos, scounts, c)
  local known = redis.call('HEXISTS', ids, cid) == 1
  local queued = false
  if not known then
    local pid = redis.call('HGET', pids, cid)
    if pid then
      if live_pending(pid, now) then
        known = true
        queued = true
      else
        purge_pending(pid)
        dirty = true
      end
    end
  end
  if known then
    -- already indexed (a replay): unique, never a duplicate of itself; but one asked in
    -- as a memory and found pending was queued as a variant, and is one still
    local vb = nil
    if queued and mode == 49 then
      local qset, qn = token_set(toks)
      vb = select(6, scan(qset, qn, bands, threshold, now, qmarks, qorder, qcon, qspell))
    end
    if vb then answer(c, '5', vb) else status[c + 1] = '1' end
  else
    local qset, qn = token_set(toks)
    -- band lookups are kept for the insert below: nothing writes in between
    local mb, pb, bkeys, bshards, bvals, vb = scan(qset, qn, bands, threshold, now, qmarks,
                                                   qorder, qcon, qspell)
    if mb then
      answer(c, '2', mb)
    else
      if vb then
        answer(c, '5', vb)
      elseif pb then
        answer(c, '3', pb)
      else
        status[c + 1] = '0'
      end
      if mode ~= 48 and qn > 0 then
        local salt = ''
        if #salts > 0 then
          salt = string.sub(salts, c * 8 + 1, c * 8 + 8)
          if salt == no_salt then salt = '' end
        end
        local rmarks = qmarks .. contrast_names(qcon)
        if mode == 49 and not vb then
          local sid = tostring(next_id)
          next_id = next_id + 1
          redis.call('HSET', ids, cid, sid)
          redis.call('HSET', rec, sid, record_head(cid, salt, rmarks) .. toks)
          add_postings(bkeys, bshards, bvals, sid)
        else
          local pid = tostring(pnext)
          pnext = pnext + 1
          redis.call('HSET', pids, cid, pid)
          redis.call('HSET', prec, pid,
                     record_head(cid, salt, rmarks) .. nb_bytes .. bands .. toks)
          redis.call('ZADD', pexp, pending_until, pid)
          add_postings(bkeys, bshards, bvals, 'p' .. pid)
        end
        dirty = true
      end
    end
  end
end
if dirty then save_meta() end
out[1] = table.concat(status)
return out
"""
)

# ARGV: band prefix, claim_id. Returns {memory id, salt ("" or 8 bytes), token bytes} of a
# memory, or false if the claim_id is not a memory.
FETCH_TOKENS = r"""
local sid = redis.call('HGET', KEYS[2], ARGV[2])
if not sid then return false end
local blob = redis.call('HGET', KEYS[3], sid)
if not blob then return false end
local l = string.byte(blob, 1) * 256 + string.byte(blob, 2)
local extra = 0
if l >= 32768 then
  l = l - 32768
  extra = 8
end
if l >= 16384 then l = l - 16384 end -- token hashes in the text's order
local skip = 0
if l >= 8192 then -- the record's marks: a count byte and 4 bytes each
  l = l - 8192
  skip = 1 + 4 * string.byte(blob, 3 + l + extra)
end
return {sid, string.sub(blob, 3 + l, 2 + l + extra), string.sub(blob, 3 + l + extra + skip)}
"""

# ARGV: band prefix, claim_id, memory id seen by FETCH_TOKENS, band keys blob.
REMOVE = (
    _PRELUDE
    + r"""
local cid, sid, bands = ARGV[2], ARGV[3], ARGV[4]
if redis.call('HGET', ids, cid) ~= sid then return 0 end
for i = 1, #bands - 7, 8 do drop_posting(string.sub(bands, i, i + 7), sid) end
redis.call('HDEL', rec, sid)
redis.call('HDEL', ids, cid)
save_meta()
return 1
"""
)

# ARGV: band prefix, claim_id. Drops a pending entry; 1 if there was one.
DISCARD = (
    _PRELUDE
    + r"""
local pid = redis.call('HGET', pids, ARGV[2])
if not pid then return 0 end
purge_pending(pid)
save_meta()
return 1
"""
)

# ARGV: band prefix, threshold, claim_id, now (ms), the claim's marks (4-byte hashes; may
# be empty), its content words in order (4-byte hashes; may be empty), its contrasts
# (names and antonyms, as in CHECK_AND_INSERT; may be empty), its negations' other
# spellings (as in CHECK_AND_INSERT; may be empty). A pending entry
# becomes a memory unless a memory is now its near-duplicate (a memory it is a variant of
# does not stop it: a person approved the difference). Reply:
# {'0'} promoted; {'1'} already a memory; {'2', claim_id, intersection, union} a memory is
# its near-duplicate (the pending entry is dropped, nothing is inserted); {'4'} not
# pending (never queued, expired or discarded).
PROMOTE = (
    _PRELUDE
    + r"""
local threshold, cid, now = tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
local qmarks = ARGV[5] or ''
local qorder = ARGV[6] or ''
local qcon = ARGV[7] or ''
local qspell = ARGV[8] or ''
if redis.call('HEXISTS', ids, cid) == 1 then return {'1'} end
local pid = redis.call('HGET', pids, cid)
if not pid then return {'4'} end
local blob = live_pending(pid, now) and redis.call('HGET', prec, pid)
if not blob then
  purge_pending(pid)
  save_meta()
  return {'4'}
end
local _, pos = header(blob)
local _, bands, from = pending_parts(blob)
local toks = string.sub(blob, from)
local qset, qn = token_set(toks)
local mb = scan(qset, qn, bands, threshold, now, qmarks, qorder, qcon, qspell)
if mb then
  purge_pending(pid)
  save_meta()
  return {'2', mb[2], mb[3], mb[4]}
end
local sid = tostring(next_id)
next_id = next_id + 1
redis.call('HSET', ids, cid, sid)
redis.call('HSET', rec, sid, string.sub(blob, 1, pos - 1) .. toks)
local posting = 'p' .. pid
for i = 1, #bands - 7, 8 do
  local bk = string.sub(bands, i, i + 7)
  local key = shard_key(bk)
  local v = redis.call('HGET', key, bk)
  local kept, found = {}, false
  if v then
    for x in string.gmatch(v, '[^,]+') do
      if x == posting and not found then
        found = true
        kept[#kept + 1] = sid
      else
        kept[#kept + 1] = x
      end
    end
  end
  if not found then
    kept[#kept + 1] = sid
    entries = entries + 1
  end
  redis.call('HSET', key, bk, table.concat(kept, ','))
end
redis.call('HDEL', pids, cid)
redis.call('HDEL', prec, pid)
redis.call('ZREM', pexp, pid)
save_meta()
return {'0'}
"""
)
