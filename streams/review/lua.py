"""Lua scripts of the review queue: each state change is one script, so it is atomic.

Why Lua: "only the owner may act", "a claim leaves the queue once" and "every action is
audited" must hold together. A script runs without interleaving, so the ownership check,
the removal of the item and the outbox entry that carries the decision to Kafka happen
as one step: of two racing decisions on one claim exactly one finds the item.

Key layout, every key of one shard in its `{shard}` hash-tag slot (valid on Redis
Cluster); B = <prefix>:{<shard>}: (streams/review/keys.py builds the names):
  B i:<queue_id>       hash  t tenant, o owner, c claim_id, s submitted ms, m zset member,
                             d the routed record (JSON), ok/tk/ck its other keys' names
  B o:<owner hash>     zset  the owner's pending members "<13-digit ms>:<queue_id>"
  B t:<tenant hash>    zset  the tenant's pending members (tenant admins, listing)
  B a                  zset  every pending member of the shard (total bound, oldest item)
  B c:<tenant hash>:<claim hash>  hash  st queued|approve|reject|overflow, q queue_id,
                             og origin of the review record, s submitted ms, lm limit hit
  B x                  stream the outbox: one entry per action to be written to Kafka
  B lease              string the relay that owns this shard's outbox
Members are ordered by their zero-padded submission time, so ZREVRANGEBYLEX pages newest
first and an exclusive bound on the last member seen is an exact cursor.

The item's owner and tenant are compared inside the scripts (a hash collision in a key
name can never show one owner another's claim). A missing item and another owner's item
take the same path: one HMGET, one XADD of a `denied` audit entry, the same reply.
Scripts never raise on well-formed input (Python validates first).
"""

from __future__ import annotations

# The outbox entry every script writes: field names are short, values are strings.
#   a action, t tenant, u actor, r role, at ms, rq request id, q queue id, c claim id,
#   o owner, rs reason, dn denial, n count, s submitted ms, d routed record (decisions)
_AUDIT = r"""
local function audit(outbox, fields)
  return redis.call('XADD', outbox, '*', unpack(fields))
end
local function may_act(it_t, it_o, tenant, actor, admin)
  if it_t ~= tenant then return nil end
  if it_o == actor and actor ~= '' then return 'owner' end
  if admin == '1' then return 'tenant_admin' end
  return nil
end
"""

# KEYS: shard-all zset. ARGV: base, max per owner, max per shard, retention s, n, then per
# item: tenant hash, owner hash, claim hash, queue id, tenant, owner, claim id,
# submitted ms, member, origin, record.
# Reply per item: state, queue id, submitted ms, seen ('2' new, '1' same origin, '0'
# another origin), limit.
ENQUEUE = r"""
local all = KEYS[1]
local base = ARGV[1]
local maxo, maxs = tonumber(ARGV[2]), tonumber(ARGV[3])
local ret = tonumber(ARGV[4])
local n = tonumber(ARGV[5])
local out = {}
for i = 0, n - 1 do
  local j = 6 + i * 11
  local th, oh, ch, qid = ARGV[j], ARGV[j + 1], ARGV[j + 2], ARGV[j + 3]
  local t, o, cid, sub = ARGV[j + 4], ARGV[j + 5], ARGV[j + 6], ARGV[j + 7]
  local m, og, doc = ARGV[j + 8], ARGV[j + 9], ARGV[j + 10]
  local ck = base .. 'c:' .. th .. ':' .. ch
  local st = redis.call('HMGET', ck, 'st', 'q', 's', 'og', 'lm')
  if st[1] then
    local seen = '0'
    if st[4] == og then seen = '1' end
    out[#out + 1] = st[1]; out[#out + 1] = st[2] or ''; out[#out + 1] = st[3] or sub
    out[#out + 1] = seen; out[#out + 1] = st[5] or ''
  else
    local ok = base .. 'o:' .. oh
    local tk = base .. 't:' .. th
    local lim = ''
    if redis.call('ZCARD', ok) >= maxo then
      lim = 'owner'
    elseif redis.call('ZCARD', all) >= maxs then
      lim = 'total'
    end
    if lim ~= '' then
      redis.call('HSET', ck, 'st', 'overflow', 'q', '', 's', sub, 'og', og, 'lm', lim)
      redis.call('EXPIRE', ck, ret)
      out[#out + 1] = 'overflow'; out[#out + 1] = ''; out[#out + 1] = sub
    else
      local ik = base .. 'i:' .. qid
      redis.call('HSET', ik, 't', t, 'o', o, 'c', cid, 's', sub, 'm', m, 'd', doc,
                 'ok', ok, 'tk', tk, 'ck', ck)
      redis.call('ZADD', ok, 0, m)
      redis.call('ZADD', tk, 0, m)
      redis.call('ZADD', all, 0, m)
      redis.call('HSET', ck, 'st', 'queued', 'q', qid, 's', sub, 'og', og)
      out[#out + 1] = 'queued'; out[#out + 1] = qid; out[#out + 1] = sub
    end
    out[#out + 1] = '2'; out[#out + 1] = lim
  end
end
return out
"""

# KEYS: the zset to page (owner's or tenant's), outbox. ARGV: base, tenant, actor, role,
# admin flag, limit, cursor member ('' = from the newest), now ms, request id.
# Reply: next cursor ('' at the end), then queue id, submitted ms, owner, record per item.
LIST = (
    _AUDIT
    + r"""
local zkey, outbox = KEYS[1], KEYS[2]
local base, tenant, actor, role, admin = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local limit = tonumber(ARGV[6])
local cursor, now, rq = ARGV[7], ARGV[8], ARGV[9]
local hi = '+'
if cursor ~= '' then hi = '(' .. cursor end
local members = redis.call('ZREVRANGEBYLEX', zkey, hi, '-', 'LIMIT', 0, limit + 1)
local out = {''}
local shown = 0
for i = 1, math.min(#members, limit) do
  local m = members[i]
  local qid = string.sub(m, 15)
  local it = redis.call('HMGET', base .. 'i:' .. qid, 't', 'o', 's', 'd')
  if it[1] and may_act(it[1], it[2], tenant, actor, admin) then
    out[#out + 1] = qid; out[#out + 1] = it[3]; out[#out + 1] = it[2]; out[#out + 1] = it[4]
    shown = shown + 1
  end
end
if #members > limit then out[1] = members[limit] end
audit(outbox, {'a', 'view', 't', tenant, 'u', actor, 'r', role, 'at', now, 'rq', rq,
               'n', tostring(shown)})
return out
"""
)

# KEYS: item, outbox. ARGV: tenant, actor, admin flag, now ms, request id, queue id.
# Reply: {'ok', role, submitted ms, owner, claim id, record} or {'no', denial}.
GET = (
    _AUDIT
    + r"""
local ik, outbox = KEYS[1], KEYS[2]
local tenant, actor, admin, now, rq, qid = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local it = redis.call('HMGET', ik, 't', 'o', 's', 'c', 'd')
local role = nil
if it[1] then role = may_act(it[1], it[2], tenant, actor, admin) end
if not role then
  local dn = 'not_found'
  if it[1] then dn = 'not_owner' end
  audit(outbox, {'a', 'denied', 't', tenant, 'u', actor, 'r', 'owner', 'at', now, 'rq', rq,
                 'q', qid, 'dn', dn, 'rs', 'view'})
  return {'no', dn}
end
audit(outbox, {'a', 'view', 't', tenant, 'u', actor, 'r', role, 'at', now, 'rq', rq,
               'q', qid, 'c', it[4], 'o', it[2], 'n', '1'})
return {'ok', role, it[3], it[2], it[4], it[5]}
"""
)

# KEYS: item, shard-all zset, outbox. ARGV: tenant, actor, admin flag, decision
# (approve|reject), reason, now ms, request id, retention s, queue id.
# Reply: {'ok', role, submitted ms, owner, claim id, outbox entry id} or {'no', denial}.
DECIDE = (
    _AUDIT
    + r"""
local ik, all, outbox = KEYS[1], KEYS[2], KEYS[3]
local tenant, actor, admin, decision = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local reason, now, rq, ret, qid = ARGV[5], ARGV[6], ARGV[7], tonumber(ARGV[8]), ARGV[9]
local it = redis.call('HMGET', ik, 't', 'o', 's', 'c', 'd', 'm', 'ok', 'tk', 'ck')
local role = nil
if it[1] then role = may_act(it[1], it[2], tenant, actor, admin) end
if not role then
  local dn = 'not_found'
  if it[1] then dn = 'not_owner' end
  audit(outbox, {'a', 'denied', 't', tenant, 'u', actor, 'r', 'owner', 'at', now, 'rq', rq,
                 'q', qid, 'dn', dn, 'rs', decision})
  return {'no', dn}
end
redis.call('DEL', ik)
redis.call('ZREM', all, it[6])
redis.call('ZREM', it[7], it[6])
redis.call('ZREM', it[8], it[6])
redis.call('HSET', it[9], 'st', decision)
redis.call('EXPIRE', it[9], ret)
local id = audit(outbox, {'a', decision, 't', tenant, 'u', actor, 'r', role, 'at', now,
                          'rq', rq, 'q', qid, 'c', it[4], 'o', it[2], 'rs', reason,
                          's', it[3], 'd', it[5]})
return {'ok', role, it[3], it[2], it[4], id}
"""
)

# KEYS: outbox. ARGV: the entry's fields and values (an audit-only action such as a
# refused credential). Reply: the entry id.
AUDIT = r"""
return redis.call('XADD', KEYS[1], '*', unpack(ARGV))
"""

# KEYS: lease. ARGV: holder, ttl ms. Take the lease when free or already ours; reply 1/0.
LEASE = r"""
local cur = redis.call('GET', KEYS[1])
if cur == false or cur == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""

# KEYS: lease. ARGV: holder. Give the lease up if it is ours.
RELEASE = r"""
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
