import NeonCore

/// New rooms per client address (the client behind a trusted proxy, as
/// `--max-connections-per-ip` counts them): at most `perMinute` new rooms a
/// minute, in bursts of up to that many, and at most `held` rooms that the
/// address created alive at once. One address alone can then neither fill
/// `--max-rooms` nor churn through room names faster than a person would.
/// Pure: the gateway passes the time and says which rooms still exist.
struct RoomQuota: Sendable {
    struct Limits: Equatable, Sendable {
        /// New rooms a minute per address; 0: no limit.
        var perMinute: Int
        /// Rooms an address created that may exist at once; 0: no limit.
        var held: Int

        static let none = Limits(perMinute: 0, held: 0)
    }

    /// What a hello that would create a room may do.
    enum Verdict: Equatable, Sendable {
        case allowed
        /// Over the rate or the rooms held. `firstOfBurst` is true for the
        /// first refusal since the address last created a room: that one is
        /// logged, the rest of the burst only counted.
        case refused(ProtocolError, firstOfBurst: Bool)
    }

    private struct Address: Sendable {
        var bucket: TokenBucket?
        var last: Duration
        var rooms: Set<String> = []
        var refusing = false
    }

    let limits: Limits
    private var addresses: [String: Address] = [:]

    init(_ limits: Limits) {
        self.limits = limits
    }

    /// A hello from `address` at `time` would create `room`. Takes one of
    /// the address's new-room tokens when allowed. `exists` says whether a
    /// room the address created before is still there.
    mutating func admit(_ room: String, from address: String, at time: Duration,
                        exists: (String) -> Bool) -> Verdict {
        guard limits != .none else { return .allowed }
        var entry = addresses[address] ?? Address(
            bucket: limits.perMinute > 0 ? TokenBucket(rate: Double(limits.perMinute) / 60, burst: Double(limits.perMinute)) : nil,
            last: time)
        entry.rooms = entry.rooms.filter(exists)
        entry.last = max(entry.last, time)
        defer { addresses[address] = entry }
        if limits.held > 0, entry.rooms.count >= limits.held {
            return refuse(&entry, ProtocolError(.tooManyRooms,
                "\(address) already holds \(limits.held) rooms it created, this server's limit per address; join one of them, or wait until one is left empty, or ask the operator to raise --max-rooms-per-ip"))
        }
        if var bucket = entry.bucket {
            let allowed = bucket.take(at: time)
            entry.bucket = bucket
            if !allowed {
                return refuse(&entry, ProtocolError(.tooManyRooms,
                    "\(address) created \(limits.perMinute) new rooms in the last minute, this server's limit per address; join an existing room, or try again in a few seconds"))
            }
        }
        entry.refusing = false
        return .allowed
    }

    /// The hello `admit` allowed created `room`.
    mutating func created(_ room: String, by address: String) {
        guard limits != .none else { return }
        addresses[address]?.rooms.insert(room)
    }

    /// Forgets addresses that hold no room and whose bucket has had time
    /// to fill again (a minute since their last new room): what an address
    /// leaves behind is bounded by the addresses of the last minute.
    mutating func prune(at time: Duration, exists: (String) -> Bool) {
        for (address, var entry) in addresses {
            entry.rooms = entry.rooms.filter(exists)
            if entry.rooms.isEmpty, time - entry.last >= .seconds(60) {
                addresses[address] = nil
            } else {
                addresses[address] = entry
            }
        }
    }

    /// Addresses remembered now: what `prune` keeps bounded.
    var count: Int { addresses.count }

    private func refuse(_ entry: inout Address, _ error: ProtocolError) -> Verdict {
        let first = !entry.refusing
        entry.refusing = true
        return .refused(error, firstOfBurst: first)
    }
}
