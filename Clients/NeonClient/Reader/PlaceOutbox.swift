import NeonCore

/// A place as a `scroll` message gives it.
struct SentPlace: Equatable, Sendable {
    var top: Int
    var content: Int
    var viewport: Int
    var anchor: Anchor
    /// The step, showing slides.
    var step: Int?
}

/// The reader's place on its way to the room. A place is state: only the
/// latest is worth sending, and they go at most 20 a second (one every
/// `interval`, a fifth of the server's default `--max-rate`), after a
/// burst of up to `burst` moves by hand (keys pressed one after another go
/// at once). A frame of an animation (an eased jump) never spends the
/// burst: while one runs, the place goes every `interval` at most. A place
/// that must wait goes when its turn comes, the latest one then, so the
/// room always ends on the reader's last place. (The rule is the generic
/// cell rate algorithm: `theoretical` is when the next place would go if
/// they went evenly.)
struct PlaceOutbox: Equatable, Sendable {
    /// The least time between two places sent, on average.
    static let interval: Duration = .milliseconds(50)
    /// How many moves by hand go at once, one after another.
    static let burst = 10

    /// The place the room was last sent.
    private(set) var sent: SentPlace?
    /// When the next place would go, were every place evenly spaced.
    private var theoretical: Duration?
    /// A newer place waiting for its turn: a frame's (its turn comes at
    /// `theoretical`) or a hand move's (within the burst).
    private enum Waiting: Equatable, Sendable { case none, frame, hand }
    private var waiting = Waiting.none

    /// A new connection: the room has none of this terminal's places yet.
    mutating func reset() {
        sent = nil
        theoretical = nil
        waiting = .none
    }

    /// The place last sent is sent again when next offered (the server's
    /// scroll-spy must see it again).
    mutating func forgetSent() {
        sent = nil
    }

    /// The reader is at `place` now (`animated`: an animation's frame put
    /// it there): the place to send now, or nil (the same place as last
    /// sent, or not its turn yet: it waits).
    mutating func offer(_ place: SentPlace, animated: Bool = false, at time: Duration) -> SentPlace? {
        guard place != sent else {
            waiting = .none
            return nil
        }
        let next = max(theoretical ?? time, time)
        guard next - allowance(animated) <= time else {
            waiting = animated ? .frame : .hand
            return nil
        }
        sent = place
        theoretical = next + Self.interval
        waiting = .none
        return place
    }

    /// How far ahead of even spacing a place may go: a frame not at all, a
    /// hand move within the burst.
    private func allowance(_ animated: Bool) -> Duration {
        animated ? .zero : Self.interval * (Self.burst - 1)
    }

    /// When the waiting place may go; nil when none waits.
    var due: Duration? {
        guard waiting != .none, let theoretical else { return nil }
        return theoretical - allowance(waiting == .frame)
    }
}
