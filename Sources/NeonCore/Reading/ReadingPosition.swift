/// A reader's place in their own wrapped layout, in rows, and what follows
/// from it: progress, percent and whether they are at the bottom (the reader
/// seed's numbers, without its 0%-when-it-fits bug).
public struct ReadingPosition: Equatable, Hashable, Sendable {
    /// Rows beyond this are not a document anyone reads in a terminal.
    public static let maximumRows = 50_000_000

    public let top: Int
    public let viewport: Int
    public let content: Int

    /// Validates the three numbers; nothing is clamped silently.
    public init(top: Int, viewport: Int, content: Int) throws(PositionError) {
        for (field, value) in [("top", top), ("viewport", viewport), ("content", content)] {
            if value < 0 { throw .negative(field: field, value: value) }
            if value > Self.maximumRows { throw .tooLarge(field: field, value: value, limit: Self.maximumRows) }
        }
        if top > content { throw .topBeyondContent(top: top, content: content) }
        self.top = top
        self.viewport = viewport
        self.content = content
    }

    /// The first top row at which the last row is visible.
    public var maximumTop: Int { max(content - viewport, 0) }

    /// clamp(top / (content − viewport), 0, 1); 1 when everything fits.
    public var progress: Double {
        let range = content - viewport
        guard range > 0 else { return 1 }
        return min(Double(top) / Double(range), 1)
    }

    /// progress × 100 rounded down, computed in integers so that 29 of 100
    /// rows is 29, not 28.
    public var percent: Int {
        let range = content - viewport
        guard range > 0 else { return 100 }
        return min(top * 100 / range, 100)
    }

    /// top ≥ content − viewport; true when the whole document fits.
    public var atBottom: Bool { top >= content - viewport }

    /// The content is taller than the viewport, so there is somewhere to
    /// scroll.
    public var scrolls: Bool { content > viewport }

    /// Back-to-top is offered at the bottom of a document that scrolls,
    /// whether the bar or the wheel shows; never when everything fits.
    public var offersBackToTop: Bool { atBottom && scrolls }
}

/// Why a reported reading position was refused.
public enum PositionError: Error, Equatable, Sendable, CustomStringConvertible {
    case negative(field: String, value: Int)
    case tooLarge(field: String, value: Int, limit: Int)
    case topBeyondContent(top: Int, content: Int)

    public var description: String {
        switch self {
        case let .negative(field, value):
            "\"\(field)\" is \(value) but rows cannot be negative; send 0 or more"
        case let .tooLarge(field, value, limit):
            "\"\(field)\" is \(value) rows, more than the \(limit) a document may have"
        case let .topBeyondContent(top, content):
            "\"top\" is row \(top) but the content has only \(content) rows; the top row must be within the content"
        }
    }
}
