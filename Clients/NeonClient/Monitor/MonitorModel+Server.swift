import NeonCore

extension MonitorModel {
    /// Applies a server message: the live monitor gets these from the server,
    /// a replay from `LogReplay`. Every change worth seeing adds a feed line;
    /// watching every room, each line starts with its room's name.
    public mutating func receive(_ message: ServerMessage, at time: Duration) -> [ClientCommand] {
        if case let .error(error) = message.payload, let refusal = Refusal(error, room: room) {
            return [.refused(refusal)]
        }
        switch message.payload {
        case let .welcome(welcome):
            connection = .joined
            me = welcome.you
            var room = WatchedRoom(name: welcome.room)
            let line = room.welcomed(welcome)
            rooms = [room]
            feed.append(line.text, kind: line.kind, at: time)
        case let .overview(overview):
            connection = .joined
            me = overview.you
            let previous = selectedRoom?.name
            rooms = overview.rooms.map(WatchedRoom.init)
            selected = previous.flatMap { name in rooms.firstIndex { $0.name == name } } ?? 0
            let count = rooms.count == 1 ? "1 room" : "\(rooms.count) rooms"
            feed.append("watching every room: \(count)", kind: .info, at: time)
        case let .room(envelope):
            relayed(envelope, at: time)
        default:
            guard let name = room else { break }
            apply(message.payload, toRoom: name, at: time)
        }
        return []
    }

    /// A message from a room the monitor watches from outside: a broadcast
    /// (watching every room) or an error the server sent to a member.
    private mutating func relayed(_ envelope: RoomEnvelope, at time: Duration) {
        if case let .error(error) = envelope.message.payload {
            let known = envelope.room.flatMap { name in rooms.first { $0.name == name } }
            let whom = envelope.to.map { " to \(known?.name($0) ?? $0.rawValue)" } ?? ""
            feed.append("\(prefix(envelope.room))error\(whom) \(error.code.rawValue): \(error.message)", kind: .error, at: time)
            return
        }
        guard let name = envelope.room, room == nil || room == name else { return }
        apply(envelope.message.payload, toRoom: name, at: time)
    }

    /// Applies a room's message to that room, adding it when it is new.
    mutating func apply(_ payload: ServerMessage.Payload, toRoom name: String, at time: Duration) {
        let index = roomIndex(name)
        guard let line = rooms[index].apply(payload, me: me) else { return }
        feed.append(prefix(name) + line.text, kind: line.kind, at: time)
    }

    /// Where room `name` is in `rooms`, inserted in name order when new (the
    /// selection stays on the same room).
    mutating func roomIndex(_ name: String) -> Int {
        if let found = rooms.firstIndex(where: { $0.name == name }) { return found }
        let index = rooms.firstIndex { $0.name > name } ?? rooms.count
        rooms.insert(WatchedRoom(name: name), at: index)
        if index <= selected, rooms.count > 1 { selected += 1 }
        return index
    }

    /// `[room] ` before a line when the monitor watches every room.
    private func prefix(_ name: String?) -> String {
        room == nil ? "[\(name ?? "-")] " : ""
    }
}
