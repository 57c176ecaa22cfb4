/// A pointer as the room sees it (`pointer`, `welcome.pointers`): who set
/// it, whether it is the presenter's, and the passage it marks, `length`
/// characters of block `anchor.block` from `anchor.offset` (added after
/// v1). Without `anchor` and `length` it says that pointer was cleared.
public struct PointerInfo: Codable, Equatable, Hashable, Sendable {
    /// The member who set it (for the presenter's pointer, possibly one
    /// that has left since: the room keeps it).
    public var id: ClientID
    public var name: String
    /// The presenter's pointer, which followers are brought to; there is
    /// at most one, and it outlives its presenter's connection.
    public var lead: Bool
    public var anchor: Anchor?
    public var length: Int?

    public init(id: ClientID, name: String, lead: Bool, anchor: Anchor? = nil, length: Int? = nil) {
        self.id = id; self.name = name; self.lead = lead; self.anchor = anchor; self.length = length
    }

    /// Whether it marks a passage (false: the message clears it).
    public var isSet: Bool { anchor != nil }

    /// The marked characters, as a search match is placed.
    public var passage: DocumentMatch? {
        anchor.map { DocumentMatch(block: $0.block, characters: $0.offset..<$0.offset + max(length ?? 0, 0)) }
    }

    /// Whether `other` is the same pointer (the presenter's, or the same
    /// member's), set or cleared.
    public func isSamePointer(as other: PointerInfo) -> Bool {
        lead ? other.lead : !other.lead && other.id == id
    }
}

/// Who may point in a room besides the presenter (`pointing`, added after
/// v1): everyone (the default) or only the presenter.
public enum PointingRule: String, Codable, Equatable, Hashable, Sendable {
    case everyone
    case presenter
}
