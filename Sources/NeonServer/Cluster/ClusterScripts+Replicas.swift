/// The scripts of a shard whose replicas confirm entries before anyone is
/// told of them (docs/CLUSTER.md, "Replicas and Sentinel"), and the
/// reader's catch-up, which reads only what subscribers may be told of.
extension ClusterScripts {
    /// ARGV pairs of room and index: publishes, in order, every entry of
    /// the room after its visible mark up to that index (entries a `WAIT`
    /// has just found on a replica, and any entry before them, which the
    /// master sent the replicas earlier), and moves the mark there; a room
    /// whose mark reaches its counter has nothing held any more. Each
    /// entry is published once whoever releases it, and in the room's
    /// order. Answers how many entries it published.
    static let release = counter + """
    local out = {}
    for i = 1, #ARGV, 2 do
      local room = ARGV[i]
      local key = 'neonsync:{' .. room .. '}:'
      local n = settled(key, false)
      local marked = redis.call('GET', key .. 'v')
      local v = tonumber(marked or n)
      local upto = math.min(tonumber(ARGV[i + 1]), n)
      if upto > v then
        for _, e in ipairs(redis.call('XRANGE', key .. 'log', '(' .. v .. '-0', upto .. '-0')) do
          local f = e[2]
          out[#out + 1] = {key .. 'events', table.concat({string.match(e[1], '^(%d+)'), f[2], f[4], f[6], f[8], f[10]}, '\\31')}
        end
        v = upto
      end
      -- Every write before any publish: a master that refuses writes
      -- (NOREPLICAS) ends the script having told no one anything.
      if v >= n then
        if marked then redis.call('DEL', key .. 'v') end
        redis.call('ZREM', 'neonsync:held', room)
      elseif marked ~= tostring(v) then
        redis.call('SET', key .. 'v', v)
      end
    end
    for _, p in ipairs(out) do redis.call('PUBLISH', p[1], p[2]) end
    redis.set_repl(redis.REPL_ALL)
    return #out
    """

    /// ARGV a time (seconds since 1970), at most this many rooms. The rooms
    /// whose entries have waited for a replica since before then (their
    /// writer died, or lost Redis, before it released them), each with its
    /// counter: the caller releases them up to it once a `WAIT` of its own
    /// confirms a replica has everything so far. Answers room, counter, …
    static let heldSince = counter + """
    local out = {}
    for _, room in ipairs(redis.call('ZRANGEBYSCORE', 'neonsync:held', '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))) do
      out[#out + 1] = room
      out[#out + 1] = settled('neonsync:{' .. room .. '}:', false)
    end
    redis.set_repl(redis.REPL_ALL)
    return out
    """

    /// ARGV room, index. The room's log after that index, up to its
    /// visible mark (an entry waiting for a replica is not read yet): a
    /// reader's catch-up after a missed publish.
    static let range = counter + """
    local key = 'neonsync:{' .. ARGV[1] .. '}:'
    settled(key, false)
    local v = redis.call('GET', key .. 'v')
    redis.set_repl(redis.REPL_ALL)
    return redis.call('XRANGE', key .. 'log', '(' .. ARGV[2] .. '-0', v and (v .. '-0') or '+')
    """
}
