/// What a progress view shows (the ProgressView seed): a determinate value of
/// a total, or an indeterminate activity, each with an optional label and
/// current-value label.
public struct ProgressModel: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// The fraction complete, 0…1.
        case determinate(fraction: Double)
        case indeterminate
    }

    public let kind: Kind
    public let label: String?
    public let currentValueLabel: String?

    /// A determinate progress of `value` out of `total` (default 1.0).
    /// Values outside 0…total are clamped; NaN, infinities and a total that
    /// is not positive are refused.
    public init(value: Double, total: Double = 1.0, label: String? = nil,
                currentValueLabel: String? = nil) throws(ProgressError) {
        guard !value.isNaN, value.isFinite else { throw .notANumber(field: "value") }
        guard !total.isNaN, total.isFinite else { throw .notANumber(field: "total") }
        guard total > 0 else { throw .totalNotPositive(total) }
        kind = .determinate(fraction: min(max(value / total, 0), 1))
        self.label = label
        self.currentValueLabel = currentValueLabel
    }

    /// An activity of unknown length, drawn as a spinner.
    public init(indeterminateLabel label: String? = nil) {
        kind = .indeterminate
        self.label = label
        currentValueLabel = nil
    }

    /// The fraction complete, or nil while indeterminate.
    public var fraction: Double? {
        if case let .determinate(f) = kind { return f }
        return nil
    }

    /// The fraction as a whole percent, rounded down ("30%" for 30 of 100).
    public var percent: Int? {
        fraction.map { Int(($0 * 100 + 1e-9).rounded(.down)) }
    }

    /// The current-value label to draw: the given one, else "NN%".
    public var valueText: String? {
        currentValueLabel ?? percent.map { "\($0)%" }
    }
}

public enum ProgressError: Error, Equatable, Sendable, CustomStringConvertible {
    case notANumber(field: String)
    case totalNotPositive(Double)

    public var description: String {
        switch self {
        case let .notANumber(field): "the progress \(field) is not a finite number"
        case let .totalNotPositive(total): "the progress total is \(total); it must be greater than 0"
        }
    }
}

/// The frame of an indeterminate spinner as a function of time.
public struct SpinnerClock: Equatable, Sendable {
    public let frameCount: Int
    public let interval: Duration

    public init(frameCount: Int, interval: Duration = .milliseconds(100)) {
        self.frameCount = max(frameCount, 1)
        self.interval = interval > .zero ? interval : .milliseconds(100)
    }

    public func frame(at time: Duration) -> Int {
        let step = time.inNanoseconds / interval.inNanoseconds
        let index = Int(step % Int64(frameCount))
        return index < 0 ? index + frameCount : index
    }
}
