/// A short message at the bottom of the screen.
public struct Notice: Equatable, Sendable {
    public var text: String
    public var isError: Bool
    public var until: Duration
}

/// The notice a screen shows in its status line (the reader, the draft
/// editor): the latest one until it runs out, 4 s for news and 8 s for an
/// error, or until replaced for one that says what to do.
public struct NoticeLine: Equatable, Sendable {
    public internal(set) var current: Notice?

    public init() {}

    /// Shows `text` for a few seconds from `time`.
    mutating func note(_ text: String, error: Bool, at time: Duration) {
        current = Notice(text: text, isError: error, until: time + .seconds(error ? 8 : 4))
    }

    /// Shows the error `text` until another notice replaces it (an hour,
    /// as good as for good).
    mutating func pin(_ text: String, at time: Duration) {
        current = Notice(text: text, isError: true, until: time + .seconds(3600))
    }

    /// Takes the notice away if it says `text`.
    mutating func clear(saying text: String) {
        if current?.text == text { current = nil }
    }

    /// The text shown at `time`, if any.
    func text(at time: Duration) -> String? {
        current.flatMap { $0.until > time ? $0.text : nil }
    }

    /// When the notice shown at `time` runs out.
    func nextWake(after time: Duration) -> Duration? {
        current.flatMap { $0.until > time ? $0.until : nil }
    }
}
