/// One acknowledged draft edit as the store records it.
public struct DraftRevision: Equatable, Sendable {
    public var room: String
    /// The revision this edit produced: one past the room's previous one.
    public var revision: Int
    /// The edit as applied, in its ot.js wire form (`[3, "abc", -2]`).
    public var operationJSON: String
    /// The draft's whole text after the edit.
    public var text: String
    /// Who made the edit (their connection id), when known.
    public var author: String?
    /// The author's key for the edit, when it gave one.
    public var key: String?

    public init(room: String, revision: Int, operationJSON: String, text: String,
                author: String? = nil, key: String? = nil) {
        self.room = room; self.revision = revision; self.operationJSON = operationJSON; self.text = text
        self.author = author; self.key = key
    }
}
