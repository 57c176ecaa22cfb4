import NeonCore

/// Turns a server log's records into the room messages the live monitor
/// receives, so a replay drives `MonitorModel` exactly as the server would.
/// Log records carry no document or draft text; a tab record's title names
/// its section instead.
public enum LogReplay {
    /// The rooms of a log in order of first appearance.
    public static func rooms(in entries: [ServerLogEntry]) -> [String] {
        var seen: Set<String> = []
        return entries.compactMap(\.room).filter { seen.insert($0).inserted }
    }

    /// Applies `entry` to `model` when it is about the model's room, or
    /// about any room when the model watches every room.
    public static func apply(_ entry: ServerLogEntry, to model: inout MonitorModel, at time: Duration) {
        guard let room = entry.room, model.room == nil || model.room == room,
              let message = message(for: entry) else { return }
        if case .error = message {
            _ = model.receive(ServerMessage(seq: 0, .room(RoomEnvelope(room: room, to: entry.client.map(ClientID.init),
                                                                        message: ServerMessage(seq: 0, message)))), at: time)
            return
        }
        if entry.event == LogEvent.tab.name, let section = entry.section, let title = entry.title {
            model.nameSection(section, title, room: room)
        }
        model.apply(message, toRoom: room, at: time)
    }

    /// The room message a record stands for; nil for records that are not
    /// room events (start, connect, …) or lack a field.
    static func message(for entry: ServerLogEntry) -> ServerMessage.Payload? {
        let id = ClientID(entry.client ?? "?")
        switch entry.event {
        case LogEvent.join.name:
            guard let name = entry.name, let role = entry.role else { return nil }
            return .joined(ReaderInfo(id: id, name: name, role: role))
        case LogEvent.leave.name:
            guard let name = entry.name, let role = entry.role else { return nil }
            return .left(ReaderInfo(id: id, name: name, role: role, percent: entry.percent ?? 0))
        case LogEvent.document.name:
            guard let title = entry.title, let format = entry.format else { return nil }
            return .document(DocumentPublished(DocumentInfo(title: title, format: format, text: "", version: entry.version),
                                               by: id, revises: entry.revises))
        case LogEvent.progress.name:
            guard let percent = entry.percent else { return nil }
            return .progress(ProgressInfo(id: id, progress: Double(percent) / 100, percent: percent,
                                          atBottom: entry.atBottom ?? false, section: entry.section ?? 0,
                                          anchor: Anchor(block: 0, offset: 0)))
        case LogEvent.slide.name:
            guard let place = entry.slidePlace else { return nil }
            return .progress(ProgressInfo(id: id, progress: place.progress, percent: place.percent, atBottom: false,
                                          section: 0, anchor: Anchor(block: 0, offset: 0), slidePlace: place))
        case LogEvent.tab.name:
            guard let section = entry.section else { return nil }
            return .tab(TabInfo(id: id, section: section, source: entry.source ?? .scrolled))
        case LogEvent.follow.name:
            guard let on = entry.on else { return nil }
            return .follow(FollowInfo(id: id, on: on))
        case LogEvent.limit.name:
            guard let count = entry.count, let limit = entry.limit else { return nil }
            return .limit(LimitInfo(status: WatchedRoom.status(count: count, limit: limit), by: id))
        case LogEvent.question.name:
            return entry.question.map { .question($0) }
        case LogEvent.error.name:
            guard let code = entry.code.flatMap(ErrorCode.init(rawValue:)) else { return nil }
            return .error(ProtocolError(code, entry.message ?? ""))
        default:
            return nil
        }
    }
}
