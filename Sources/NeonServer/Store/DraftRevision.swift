/// One acknowledged draft edit as the store records it.
public struct DraftRevision: Equatable, Sendable {
    public var room: String
    /// The revision this edit produced: one past the room's previous one.
    public var revision: Int
    /// The edit as applied, in its ot.js wire form (`[3, "abc", -2]`).
    public var operationJSON: String
    /// The draft's whole text after the edit.
    public var text: String

    public init(room: String, revision: Int, operationJSON: String, text: String) {
        self.room = room; self.revision = revision; self.operationJSON = operationJSON; self.text = text
    }
}
