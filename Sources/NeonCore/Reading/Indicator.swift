/// Which reading indicator shows: the bar while the reader scrolls or holds
/// input, the wheel once 3 s have passed since the last scroll or input.
public enum IndicatorMode: String, Equatable, Sendable, Codable {
    case bar
    case wheel
}

/// The idle timer of the reader seed, driven by times passed in.
public struct Indicator: Equatable, Sendable {
    public static let idleDelay: Duration = .seconds(3)

    public private(set) var lastActivity: Duration
    public private(set) var inputHeld: Bool

    /// Starts showing the bar, as if the reader had just scrolled at `time`.
    public init(startingAt time: Duration) {
        lastActivity = time
        inputHeld = false
    }

    /// A scroll happened: back to the bar, idle timer restarts.
    public mutating func scrolled(at time: Duration) {
        lastActivity = max(lastActivity, time)
    }

    /// A key or mouse button went down and is held.
    public mutating func inputBegan(at time: Duration) {
        inputHeld = true
        scrolled(at: time)
    }

    /// The held input was released; the idle timer starts now.
    public mutating func inputEnded(at time: Duration) {
        inputHeld = false
        scrolled(at: time)
    }

    public func mode(at time: Duration) -> IndicatorMode {
        if inputHeld { return .bar }
        return time - lastActivity >= Self.idleDelay ? .wheel : .bar
    }

    /// When the mode will next change by itself, so a client can sleep until
    /// then instead of polling; nil when nothing will change without input.
    public func nextChange(after time: Duration) -> Duration? {
        guard !inputHeld, mode(at: time) == .bar else { return nil }
        return lastActivity + Self.idleDelay
    }
}
