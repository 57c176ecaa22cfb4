extension RoomState {
    /// The presenter brings every detached follower back: each reader who
    /// followed it once and stopped follows again (a `follow` broadcast for
    /// each), then everyone is told who brought whom back. Readers who
    /// never followed are not moved.
    mutating func summon(by id: ClientID) -> [RoomOutput] {
        guard let member = members[id] else { return unknown(id) }
        guard member.role == .presenter else {
            return refuse(id, .notAllowed, "only the presenter brings followers back; f follows the presenter yourself")
        }
        let detached = order.filter { key in
            guard let other = members[key] else { return false }
            return other.role == .reader && other.followed && !other.following
        }
        var out: [RoomOutput] = []
        for key in detached {
            members[key]?.following = true
            out.append(broadcast(.follow(FollowInfo(id: key, on: true)), except: nil))
        }
        out.append(broadcast(.summon(SummonInfo(by: id, name: member.name, members: detached)), except: nil))
        out.append(.log(LogRecord(.info, .summon, room: name, client: id, [LogField("members", .int(detached.count))])))
        return out
    }
}
