/// Which of the cluster's Redis instances holds a room: Google's jump
/// consistent hash (Lamping and Veach, 2014) of the room name's 64-bit
/// FNV-1a hash, as Centrifugo places channels over its Redis shards. Every
/// node computes the same answer from the same `--redis` list; adding an
/// instance to a list of n moves about 1 / (n + 1) of the rooms, all of them
/// to the new instance, and none between the old ones.
public enum ShardPlacement {
    /// The index in `0 ..< count` of `room`'s shard.
    public static func shard(of room: String, count: Int) -> Int {
        guard count > 1 else { return 0 }
        return jump(fnv1a(room), buckets: count)
    }

    /// FNV-1a, 64 bits, over the name's UTF-8 bytes.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// Jump consistent hash: the bucket of `key` among `buckets`.
    static func jump(_ key: UInt64, buckets: Int) -> Int {
        var key = key
        var b: Int64 = -1
        var j: Int64 = 0
        while j < Int64(buckets) {
            b = j
            key = key &* 2_862_933_555_777_941_757 &+ 1
            j = Int64(Double(b + 1) * (Double(Int64(1) << 31) / Double((key >> 33) + 1)))
        }
        return Int(b)
    }
}
