/// An eased scroll from one top row to another, as a function of time: the
/// back-to-top button and tab jumps (~1.5 s, ease-in-out, as in the seeds).
public struct ScrollAnimation: Equatable, Sendable {
    public static let standardDuration: Duration = .milliseconds(1500)

    public let from: Int
    public let to: Int
    public let start: Duration
    public let duration: Duration
    public let easing: Easing

    public init(from: Int, to: Int, start: Duration,
                duration: Duration = ScrollAnimation.standardDuration,
                easing: Easing = .easeInOut) {
        self.from = from
        self.to = to
        self.start = start
        self.duration = duration > .zero ? duration : .zero
        self.easing = easing
    }

    public var end: Duration { start + duration }

    public func isFinished(at time: Duration) -> Bool { time >= end }

    /// The top row at `time`: `from` before the start, `to` from the end on.
    public func position(at time: Duration) -> Int {
        if time <= start { return duration == .zero ? to : from }
        if time >= end { return to }
        let fraction = (time - start).inSeconds / duration.inSeconds
        let eased = easing.value(at: fraction)
        return from + Int((Double(to - from) * eased).rounded())
    }
}
