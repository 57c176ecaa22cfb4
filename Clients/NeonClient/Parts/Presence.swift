import NeonCore

/// Who is in the room and where each one reads: the members as the server
/// lists them (name, role, percent, section, anchor, following), which of
/// them is this terminal and which presents. Each member's place is kept
/// once, in its `ReaderInfo`. The reader's presence panel and gutter
/// markers, the draft editor's remote cursors and headcount, and each room
/// the monitor watches are drawn from one.
public struct Presence: Equatable, Sendable {
    public internal(set) var readers: [ReaderInfo] = []
    /// This terminal's id in the room, once welcomed.
    public internal(set) var me: ClientID?
    public internal(set) var presenter: ClientID?
    /// Whether a presenter's speaker notes screen (`ReaderInfo.notes`) is
    /// listed: the monitor, an operator's view, lists it; the audience's
    /// screens leave it out, as if it were not there.
    let listsNotesScreens: Bool

    public init(readers: [ReaderInfo] = [], listsNotesScreens: Bool = false) {
        self.listsNotesScreens = listsNotesScreens
        self.readers = readers.filter { listsNotesScreens || !$0.isNotesScreen }
    }

    /// The room's members as a welcome lists them.
    mutating func welcomed(_ welcome: Welcome) {
        me = welcome.you
        readers = welcome.readers.filter { listsNotesScreens || !$0.isNotesScreen || $0.id == welcome.you }
        presenter = welcome.presenter
    }

    /// Whether `info` is shown here (see `listsNotesScreens`).
    func shows(_ info: ReaderInfo) -> Bool {
        listsNotesScreens || !info.isNotesScreen
    }

    /// A member joined (or joined again, replacing its old record).
    mutating func joined(_ info: ReaderInfo) {
        guard shows(info) else { return }
        readers.removeAll { $0.id == info.id }
        readers.append(info)
        if info.role == .presenter { presenter = info.id }
    }

    mutating func left(_ id: ClientID) {
        readers.removeAll { $0.id == id }
        if presenter == id { presenter = nil }
    }

    /// A member's new place.
    mutating func progressed(_ p: ProgressInfo) {
        update(p.id) { reader in
            reader.percent = p.percent
            reader.atBottom = p.atBottom
            reader.section = p.section
            reader.anchor = p.anchor
            reader.slidePlace = p.slidePlace
        }
    }

    /// Changes the record of member `id`, if it is here.
    mutating func update(_ id: ClientID, _ change: (inout ReaderInfo) -> Void) {
        guard let index = readers.firstIndex(where: { $0.id == id }) else { return }
        change(&readers[index])
    }

    /// A new version of the document: everyone's place carried onto it, as
    /// the server carries them.
    mutating func carryPlaces(_ map: VersionMap) {
        for index in readers.indices {
            guard let anchor = readers[index].anchor else { continue }
            readers[index].anchor = map.place(anchor)
            if map.new.blocks.indices.contains(readers[index].anchor!.block) {
                readers[index].section = map.new.blocks[readers[index].anchor!.block].section
            }
        }
    }

    /// A new document: nobody's anchor means a place on it until they move.
    mutating func forgetPlaces() {
        for index in readers.indices { readers[index].anchor = nil }
    }

    public func member(_ id: ClientID) -> ReaderInfo? {
        readers.first { $0.id == id }
    }

    /// Where member `id` reads, as a width-independent anchor.
    public func anchor(of id: ClientID) -> Anchor? {
        member(id)?.anchor
    }

    /// The name member `id` goes by, or its id when it is not listed.
    public func name(of id: ClientID) -> String {
        member(id)?.name ?? id.rawValue
    }

    /// The members counted as every view counts them: the status line's
    /// `N here`, the presence box's title, the monitor's.
    public var headcount: Headcount { Headcount(readers) }
}
