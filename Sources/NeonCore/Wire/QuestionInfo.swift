/// A question asked on a passage of the document (`question`,
/// `welcome.questions`, added after v1): its number in the room (1 for the
/// first), who asked it (their connection and name), the passage it is
/// anchored to (`length` characters of block `anchor.block` from
/// `anchor.offset`, as a pointer's), its text, and whether it was answered
/// and by whom.
public struct QuestionInfo: Codable, Equatable, Hashable, Sendable {
    public var number: Int
    /// The connection that asked it (possibly gone since: the room keeps
    /// the question).
    public var by: ClientID
    /// The asker's name: whoever joins under it may mark it answered.
    public var name: String
    public var text: String
    public var anchor: Anchor
    public var length: Int
    public var answered: Bool
    /// The name of whoever marked it answered (absent while it is open).
    public var answeredBy: String?

    public init(number: Int, by: ClientID, name: String, text: String, anchor: Anchor, length: Int,
                answered: Bool = false, answeredBy: String? = nil) {
        self.number = number; self.by = by; self.name = name; self.text = text
        self.anchor = anchor; self.length = length; self.answered = answered; self.answeredBy = answeredBy
    }

    /// The passage's characters, as a search match is placed.
    public var passage: DocumentMatch {
        DocumentMatch(block: anchor.block, characters: anchor.offset..<anchor.offset + max(length, 0))
    }
}
