/// Who is in a room, counted the one way every view shows it: the presenter
/// and the readers read; observers (monitors, tails) watch. Observers have no
/// place in the document and are never counted among the readers.
public struct Headcount: Equatable, Sendable {
    /// The presenter and the readers.
    public var reading: Int
    /// The observers.
    public var watching: Int

    public init(reading: Int, watching: Int) {
        self.reading = reading
        self.watching = watching
    }

    /// The count of `members`, e.g. a welcome's readers.
    public init(_ members: some Sequence<ReaderInfo>) {
        var reading = 0
        var watching = 0
        for member in members {
            if member.role.isReading { reading += 1 } else { watching += 1 }
        }
        self.init(reading: reading, watching: watching)
    }

    /// ` · 2 watching`, or nothing without observers.
    public var watchingSuffix: String {
        watching > 0 ? " · \(watching) watching" : ""
    }

    /// `3 here`, `3 here · 1 watching`: status lines.
    public var here: String {
        "\(reading) here" + watchingSuffix
    }

    /// `1 reader`, `3 readers · 1 watching`: lists of rooms.
    public var readers: String {
        (reading == 1 ? "1 reader" : "\(reading) readers") + watchingSuffix
    }

    /// `Readers (3)`, `Readers (3) · 1 watching`: the title of a presence box.
    public var title: String {
        "Readers (\(reading))" + watchingSuffix
    }
}

extension Role {
    /// Whether a member of this role reads the document (has a place and a
    /// percent) rather than watching the room.
    public var isReading: Bool { self != .observer }
}

extension Sequence<ReaderInfo> {
    /// The members in the order presence lists show them: the presenter
    /// (however late they joined or rejoined), the other readers in their
    /// order, then the observers in theirs.
    public func readersFirst() -> [ReaderInfo] {
        filter { $0.role == .presenter } + filter { $0.role.isReading && $0.role != .presenter }
            + filter { !$0.role.isReading }
    }
}
