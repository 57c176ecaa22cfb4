import NeonCore

// The room each program joins, for the connection's URL (`Program.routingRoom`).

extension ReaderModel {
    public var routingRoom: String? { room }
}

extension DraftModel {
    public var routingRoom: String? { room }
}

extension NotesModel {
    public var routingRoom: String? { room }
}

extension TailProgram {
    public var routingRoom: String? { room }
}

extension MonitorModel {
    /// The watched room; none for every room (`"*"`), which no one node holds.
    public var routingRoom: String? { room == Hub.everyRoom ? nil : room }
}
