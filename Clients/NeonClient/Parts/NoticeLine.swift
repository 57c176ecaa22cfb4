/// A short message at the bottom of the screen.
public struct Notice: Equatable, Sendable {
    public var text: String
    public var isError: Bool
    public var until: Duration
    /// News about others (someone joined or left): it gives the key hints
    /// back at the next key.
    public var isPassing = false
}

/// The notice a screen shows in its status line (the reader, the draft
/// editor): the latest one until it runs out, 4 s for news and 8 s for an
/// error, or until replaced for one that says what to do. Passing news
/// (`pass`: who joined or left) shows for 2 s, and only until the next key:
/// the hints it covers are what a presenter stepping through slides needs.
public struct NoticeLine: Equatable, Sendable {
    public internal(set) var current: Notice?

    public init() {}

    /// Shows `text` for a few seconds from `time`.
    mutating func note(_ text: String, error: Bool, at time: Duration) {
        current = Notice(text: text, isError: error, until: time + .seconds(error ? 8 : 4))
    }

    /// Shows news about others for 2 s from `time`, or until the next key.
    mutating func pass(_ text: String, at time: Duration) {
        current = Notice(text: text, isError: false, until: time + Self.passing, isPassing: true)
    }

    /// How long passing news shows.
    static let passing: Duration = .seconds(2)

    /// A key was pressed: passing news gives way to the hints.
    mutating func keyPressed() {
        if current?.isPassing == true { current = nil }
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
