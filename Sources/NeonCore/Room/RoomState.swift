/// One room: its document, members, presenter, shared draft and sequence
/// number. All of a room's ordering happens here, in `apply`, so a room can
/// live on exactly one node.
public struct RoomState: Equatable, Sendable {
    public let name: String
    public let limits: RoomLimits
    public let counter: DraftCounter
    /// Increases by one per broadcast; every message carries it.
    public internal(set) var seq: Int
    public internal(set) var document: DocumentInfo?
    public internal(set) var parsed: Document?
    /// Characters per block of the parsed document, to validate anchors.
    var blockLengths: [Int]
    public internal(set) var members: [ClientID: Member]
    /// Member ids in join order (welcome lists, broadcast fan-out).
    public internal(set) var order: [ClientID]
    public internal(set) var presenter: ClientID?
    public internal(set) var draft: DraftDocument
    public internal(set) var draftCount: Int

    public init(name: String, limits: RoomLimits = RoomLimits()) {
        self.name = name
        self.limits = limits
        counter = (try? DraftCounter(limit: limits.draftLimit)) ?? DraftCounter.standard
        seq = 0
        document = nil
        parsed = nil
        blockLengths = []
        members = [:]
        order = []
        presenter = nil
        draft = DraftDocument()
        draftCount = 0
    }

    public var draftStatus: DraftStatus { counter.status(forCount: draftCount) }

    public var draftInfo: DraftInfo {
        DraftInfo(text: draft.text, rev: draft.revision, status: draftStatus)
    }

    public var sectionCount: Int { parsed?.sections.count ?? 0 }

    public func welcome(for id: ClientID) -> Welcome {
        Welcome(you: id, room: name, document: document,
                readers: order.compactMap { members[$0]?.info },
                presenter: presenter, draft: draftInfo)
    }
}

extension DraftCounter {
    /// The seed's counter: 280 characters.
    static let standard: DraftCounter = {
        guard let counter = try? DraftCounter() else { preconditionFailure("280 is a valid limit") }
        return counter
    }()
}
