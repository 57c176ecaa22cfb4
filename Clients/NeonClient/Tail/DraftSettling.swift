import NeonCore

/// The room's draft as `tail` follows it: its text from the welcome, each
/// `edit` applied to it, and, once nobody has typed for `quiet`, the text
/// it settled on, for readable `tail` to print whole. Pure: time comes with
/// each call.
public struct DraftSettling: Equatable, Sendable {
    /// How long the draft stays untouched before its text is printed.
    public static let quiet: Duration = .seconds(2)

    var text = ""
    var revision = 0
    var counter = DraftCounter.standard
    /// When the last edit came, while its text is not printed yet.
    var editedAt: Duration?
    /// False after an edit that did not fit the text (a gap in what tail
    /// received): nothing is printed until the next welcome.
    var known = false

    public init() {}

    /// Follows `message`: a welcome gives the text, an edit changes it.
    public mutating func observe(_ message: ServerMessage, at time: Duration) {
        switch message.payload {
        case let .welcome(welcome):
            text = welcome.draft.text
            revision = welcome.draft.rev
            counter = (try? DraftCounter(limit: welcome.draft.limit, profile: welcome.draft.profile ?? .graphemes)) ?? .standard
            known = true
            editedAt = nil
        case let .edit(edit):
            guard known, let next = try? edit.ops.apply(to: text) else {
                known = false
                return
            }
            text = next
            revision = edit.rev
            editedAt = time
        default:
            break
        }
    }

    /// When the draft will have been untouched for `quiet`.
    public var nextSettle: Duration? { editedAt.map { $0 + Self.quiet } }

    /// The lines for the settled draft at `time`: `draft rev 7 settled at
    /// 45/280:` and its text, each line indented; none while someone types.
    public mutating func settled(at time: Duration) -> [String] {
        guard let editedAt, time - editedAt >= Self.quiet else { return [] }
        self.editedAt = nil
        guard known else { return [] }
        let status = counter.status(of: text)
        let header = "draft rev \(revision) settled at \(status.count)/\(status.limit):"
        let body = text.isEmpty ? ["  (empty)"] : text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
        return [header] + body
    }
}
