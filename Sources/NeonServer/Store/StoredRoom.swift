import NeonCore

/// A room as the store keeps it: enough to rebuild it on start.
public struct StoredRoom: Equatable, Sendable {
    public var name: String
    /// The counting profile's name (`graphemes`, `twitter`, …).
    public var profile: String
    /// The draft's character limit.
    public var limit: Int
    public var document: DocumentInfo?
    /// The draft's text at `draftRevision`.
    public var draftText: String
    /// How many edits the draft has had; 0 for a new room.
    public var draftRevision: Int

    public init(name: String, profile: String, limit: Int, document: DocumentInfo? = nil,
                draftText: String = "", draftRevision: Int = 0) {
        self.name = name; self.profile = profile; self.limit = limit
        self.document = document; self.draftText = draftText; self.draftRevision = draftRevision
    }
}
