/// The Lua scripts that make each step atomic in Redis.
enum ClusterScripts {
    /// How many numbers a room's reservation covers: the entry that goes
    /// past it writes a new one to the append-only file (one fsync per this
    /// many entries not kept; an entry kept writes the file anyway).
    static let reservation = 1000

    /// ARGV the rooms set, the incarnation's rooms set, then each entry
    /// as seven values: room, what it is (`1` a hello, `0` another entry
    /// kept, `e` an entry not kept after a crash of Redis), and the entry's
    /// stream fields' values (k, c, o, t, m). For each entry, in order:
    /// takes the room's next index, appends the entry under it and
    /// publishes it (index and values joined by U+001F, which JSON text
    /// never holds raw); a hello records the room for the node. One call
    /// carries every entry the writer had queued (up to
    /// `ClusterWriter.entriesPerCall`), so Redis pays one script call, one
    /// reply and (with `appendfsync always`) one fsync for all of them.
    /// Answers each entry's index, or the error that refused it (the others
    /// still go in).
    ///
    /// What reaches the append-only file (and so waits for its fsync): an
    /// entry kept, its hello's memberships, and the room's reservation when
    /// the index goes past it. An entry not kept is numbered, appended and
    /// published in memory only (`redis.set_repl(redis.REPL_NONE)`): a call
    /// of such entries alone writes nothing to the file, and Redis answers
    /// and publishes it without an fsync. The counter is kept in memory
    /// only too; the file has the reservation for it, which covers every
    /// number handed out.
    static let append = appendScript(held: false)

    /// The append script of a shard whose replicas confirm entries
    /// (`--redis-replicas`, docs/CLUSTER.md "Replicas and Sentinel"): an
    /// entry is *held* (appended, kept, not published; its index answered
    /// negative) when it is kept, when it writes a reservation, or when an
    /// entry before it is held; the writer publishes held entries with
    /// `release` once `WAIT` says a replica has them. Other entries are
    /// published at once, as by `append`.
    static let appendHeld = appendScript(held: true)

    private static func appendScript(held: Bool) -> String {
        counter + """
        local held_mode = \(held)
        local out = {}
        for i = 3, #ARGV, 7 do
          local room = ARGV[i]
          local key = 'neonsync:{' .. room .. '}:'
          local n, reserved = number(key)
          local marked = held_mode and redis.call('GET', key .. 'v')
          local v = tonumber(marked or (n - 1))
          local held = held_mode and (ARGV[i + 1] ~= 'e' or reserved or v < n - 1)
          if ARGV[i + 1] ~= 'e' or held then redis.set_repl(redis.REPL_ALL) end
          local id = string.format('%d', n)
          local added = redis.pcall('XADD', key .. 'log', id .. '-0', 'k', ARGV[i + 2], 'c', ARGV[i + 3],
                                    'o', ARGV[i + 4], 't', ARGV[i + 5], 'm', ARGV[i + 6])
          if type(added) == 'table' and added.err then
            out[#out + 1] = added
            redis.set_repl(redis.REPL_NONE)
            if marked and v == n - 1 then redis.call('DEL', key .. 'v') end
          else
            if ARGV[i + 1] == '1' then
              redis.call('SADD', ARGV[1], room)
              redis.call('SADD', ARGV[2], room)
            end
            redis.set_repl(redis.REPL_NONE)
            if held then
              redis.call('SET', key .. 'v', v)
              redis.call('ZADD', 'neonsync:held', 'NX', redis.call('TIME')[1], room)
              out[#out + 1] = -n
            else
              if marked then
                redis.call('DEL', key .. 'v')
                redis.call('ZREM', 'neonsync:held', room)
              end
              redis.call('PUBLISH', key .. 'events',
                         table.concat({id, ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5], ARGV[i + 6]}, '\\31'))
              out[#out + 1] = n
            end
          end
        end
        redis.set_repl(redis.REPL_ALL)
        return out
        """
    }

    /// Lua functions the scripts that number or read a room's entries
    /// begin with. `settled(key, create)`: the room's counter (keys
    /// prefixed `key`), settled once after each start of Redis: the first
    /// script to touch the room in a Redis process (its `run_id` is not the
    /// room's `run`) takes the counter up to the reservation when it is
    /// below, as after a restart from the append-only file, whose counter
    /// may be the reservation or, after a rewrite of the file, any number
    /// the room's counter had then; `create` false leaves a room with no
    /// keys without any. `number(key)`: the room's next number, counted in
    /// memory; past the reservation, a new one is written to the file (the
    /// counter with it). Both leave propagation off (`REPL_NONE`).
    static let counter = """
    local run = string.match(redis.call('INFO', 'server'), 'run_id:(%x+)')
    local function settled(key, create)
      local n = tonumber(redis.call('GET', key .. 'n') or '0')
      redis.set_repl(redis.REPL_NONE)
      if redis.call('GET', key .. 'run') ~= run then
        local r = redis.call('GET', key .. 'r')
        if not create and not r and n == 0 then return 0 end
        if r and tonumber(r) > n then
          n = tonumber(r)
          redis.call('SET', key .. 'n', n)
        end
        redis.call('SET', key .. 'run', run)
        redis.call('DEL', key .. 'v')
      end
      return n
    end
    local function number(key)
      local n = settled(key, true) + 1
      redis.call('SET', key .. 'n', n)
      if n > tonumber(redis.call('GET', key .. 'r') or '0') then
        local reserved = n + \(reservation - 1)
        redis.set_repl(redis.REPL_ALL)
        redis.call('MSET', key .. 'r', reserved, key .. 'n', reserved)
        redis.set_repl(redis.REPL_NONE)
        redis.call('SET', key .. 'n', n)
        return n, true
      end
      return n, false
    end

    """

    /// KEYS snapshot, log. The room's last snapshot (or nil), every entry
    /// after it, and the room's counter, settled (its keys are the
    /// snapshot's with `n`, `r`, `run` for `snap`), read at one instant.
    /// After a restart from the append-only file the counter is the
    /// reservation, past the log's last entry: the numbers between were
    /// taken by entries not kept.
    static let load = counter + """
    local snap = redis.call('GET', KEYS[1])
    local from = 0
    if snap then from = tonumber(string.match(snap, '^(%d+)')) end
    local n = settled(string.sub(KEYS[1], 1, -5), false)
    local v = redis.call('GET', string.sub(KEYS[1], 1, -5) .. 'v')
    local entries = redis.call('XRANGE', KEYS[2], '(' .. from .. '-0', v and (v .. '-0') or '+')
    redis.set_repl(redis.REPL_ALL)
    return {snap or false, entries, tonumber(v or n)}
    """

    /// KEYS snapshot, log; ARGV index, image JSON, trim-below index. Keeps
    /// a newer snapshot than the stored one and trims the log below the
    /// previous snapshot (a margin for nodes still reading it).
    static let snapshot = """
    local cur = redis.call('GET', KEYS[1])
    if cur and tonumber(string.match(cur, '^(%d+)')) >= tonumber(ARGV[1]) then return 0 end
    redis.call('SET', KEYS[1], ARGV[1] .. '\\n' .. ARGV[2])
    if tonumber(ARGV[3]) > 0 then redis.call('XTRIM', KEYS[2], 'MINID', ARGV[3] .. '-0') end
    return 1
    """

    /// ARGV room, entry number, time (ms since 1970). Entry n left the room
    /// empty: it is idle since then, unless a later entry said so already
    /// (every node holding the room may say it).
    static let idle = """
    local at = tonumber(redis.call('HGET', 'neonsync:idle:entry', ARGV[1]) or '0')
    if tonumber(ARGV[2]) <= at then return 0 end
    redis.call('ZADD', 'neonsync:idle', ARGV[3], ARGV[1])
    redis.call('HSET', 'neonsync:idle:entry', ARGV[1], ARGV[2])
    return 1
    """

    /// ARGV now (ms since 1970), --room-ttl (ms), at most this many rooms.
    /// Removes the rooms idle since before now − ttl whose log has not
    /// moved since they were left empty (nobody joined since; its last
    /// entry is still the one that emptied it, also after a restart from
    /// the append-only file): their counter, reservation, log and image,
    /// their place in the rooms set; tells the
    /// nodes holding one on its channel. A record overtaken by a later
    /// entry is dropped (the room is recorded again when it empties again).
    /// Answers how many records it looked at, then each removed room and
    /// when it went idle.
    static let expire = """
    local rooms = redis.call('ZRANGEBYSCORE', 'neonsync:idle', '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]),
                             'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[3]))
    local out = {#rooms / 2}
    for i = 1, #rooms, 2 do
      local room = rooms[i]
      local key = 'neonsync:{' .. room .. '}:'
      local at = redis.call('HGET', 'neonsync:idle:entry', room)
      redis.call('ZREM', 'neonsync:idle', room)
      redis.call('HDEL', 'neonsync:idle:entry', room)
      local last = redis.call('XREVRANGE', key .. 'log', '+', '-', 'COUNT', 1)[1]
      if at and last and string.match(last[1], '^(%d+)') == at then
        redis.call('DEL', key .. 'n', key .. 'r', key .. 'run', key .. 'log', key .. 'snap')
        redis.call('SREM', 'neonsync:rooms', room)
        redis.call('PUBLISH', key .. 'events', 'removed')
        out[#out + 1] = room
        out[#out + 1] = rooms[i + 1]
      end
    end
    return out
    """

    /// ARGV incarnation, time. When that incarnation is no longer its
    /// node's live one, appends a `gone` entry to each room it had members
    /// in and forgets it; run by any survivor, it happens once.
    static let reap = counter + """
    redis.set_repl(redis.REPL_ALL)
    local name = redis.call('HGET', 'neonsync:incarnations', ARGV[1])
    if not name then return -1 end
    if redis.call('GET', 'neonsync:node:' .. name) == ARGV[1] then return -2 end
    local rooms = redis.call('SMEMBERS', 'neonsync:gen:' .. ARGV[1] .. ':rooms')
    for _, room in ipairs(rooms) do
      -- A room removed since (--room-ttl) has nobody to leave it.
      if redis.call('EXISTS', 'neonsync:{' .. room .. '}:n') == 1 then
        local n = number('neonsync:{' .. room .. '}:')
        redis.set_repl(redis.REPL_ALL)
        redis.call('XADD', 'neonsync:{' .. room .. '}:log', n .. '-0', 'k', 'g', 'c', '', 'o', ARGV[1], 't', ARGV[2], 'm', '')
        -- Behind entries held for a replica, it waits for their release.
        if redis.call('EXISTS', 'neonsync:{' .. room .. '}:v') == 0 then
          redis.call('PUBLISH', 'neonsync:{' .. room .. '}:events', table.concat({n, 'g', '', ARGV[1], ARGV[2], ''}, '\\31'))
        end
      end
    end
    redis.call('DEL', 'neonsync:gen:' .. ARGV[1] .. ':rooms')
    redis.call('HDEL', 'neonsync:incarnations', ARGV[1])
    return #rooms
    """

    /// KEYS node key, incarnations; ARGV incarnation, ttl ms, node name.
    /// Renews the node's liveness key: 1 renewed; 3 it had expired and is
    /// set again; 2 it had expired and survivors reaped this incarnation
    /// (its members left every room); -1 another incarnation holds the name.
    static let beat = """
    local cur = redis.call('GET', KEYS[1])
    if cur == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
    if cur then return -1 end
    redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
    if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[3]) == 1 then return 2 end
    return 3
    """
}
