/// The swing of a text wider than its field (the swing-text seed): starting
/// at offset 0 it rests, eases to −(textWidth + padding − fieldWidth) in one
/// leg, rests, eases back, forever. Text that fits stands still at 0, and so
/// does text less than `shortestSwing` columns too wide (`isCut`): a swing
/// of a column or two reads as a flicker, not as motion ("NeonSync wire
/// protocol v" / "eonSync wire protocol v1"), so it is cut with "…".
///
/// Offsets are in columns; time is passed in, so the same inputs always give
/// the same frame.
public struct SwingMotion: Equatable, Sendable {
    public static let standardLeg: Duration = .seconds(2)
    public static let standardRest: Duration = .seconds(1)

    public let textWidth: Int
    public let fieldWidth: Int
    public let padding: Int
    public let leg: Duration
    public let rest: Duration
    public let easing: Easing

    public init(textWidth: Int, fieldWidth: Int, padding: Int = 0,
                leg: Duration = SwingMotion.standardLeg,
                rest: Duration = SwingMotion.standardRest,
                easing: Easing = .easeInOut) {
        self.textWidth = max(textWidth, 0)
        self.fieldWidth = max(fieldWidth, 0)
        self.padding = max(padding, 0)
        self.leg = leg > .zero ? leg : .seconds(2)
        self.rest = rest > .zero ? rest : .zero
        self.easing = easing
    }

    /// The least overflow that swings.
    public static let shortestSwing = 3

    /// Whether the text moves at all: it is at least `shortestSwing`
    /// columns wider than its field.
    public var swings: Bool { textWidth >= fieldWidth + Self.shortestSwing }

    /// Whether the text is wider than its field but too little to swing:
    /// the caller draws it cut, ending in "…".
    public var isCut: Bool { textWidth > fieldWidth && !swings }

    /// How far the text travels: textWidth + padding − fieldWidth, or 0.
    public var amplitude: Int { swings ? textWidth + padding - fieldWidth : 0 }

    /// One full cycle: rest, leg out, rest, leg back.
    public var period: Duration { (rest + leg) * 2 }

    /// The horizontal offset (≤ 0) at `time`, rounded to whole columns.
    public func offset(at time: Duration) -> Int {
        guard swings else { return 0 }
        let cycle = period.inNanoseconds
        var ns = time.inNanoseconds % cycle
        if ns < 0 { ns += cycle }
        var t = Duration.nanoseconds(ns)
        if t < rest { return 0 }
        t -= rest
        if t < leg { return -eased(t) }
        t -= leg
        if t < rest { return -amplitude }
        t -= rest
        return -(amplitude - eased(t))
    }

    private func eased(_ t: Duration) -> Int {
        Int((Double(amplitude) * easing.value(at: t.inSeconds / leg.inSeconds)).rounded())
    }
}
