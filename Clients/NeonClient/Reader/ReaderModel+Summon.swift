import NeonCore

extension ReaderModel {
    /// F: the presenter brings every detached follower back to its place.
    mutating func summonFollowers(at time: Duration) -> [ClientCommand] {
        guard mode == .present else {
            notices.note("only the presenter brings followers back with F; f follows the presenter", error: false, at: time)
            return []
        }
        guard connection == .joined else {
            notices.note("the room is offline: nobody to bring back", error: true, at: time)
            return []
        }
        return [.send(.summon)]
    }

    /// The presenter brought the detached followers back: this one, if it
    /// is among them, follows again and goes to the presenter's slide and
    /// step (or place) at once.
    mutating func summoned(_ info: SummonInfo, at time: Duration) -> [ClientCommand] {
        for id in info.members { presence.update(id) { $0.following = true } }
        if info.by == presence.me {
            let count = info.members.count
            notices.note(count == 0 ? "no follower was detached" : count == 1 ? "1 follower brought back" : "\(count) followers brought back",
                         error: false, at: time)
            return []
        }
        guard let me = presence.me, info.members.contains(me), mode != .present else { return [] }
        pane.follow(true)
        notices.note("\(info.name) brought everyone back", error: false, at: time)
        return repositionOnPresenter(at: time) ?? []
    }
}
