import NeonCore

/// The monitor's scrolling event feed: the last `capacity` lines, newest at
/// the end, and how far the view is scrolled back from the newest.
public struct MonitorFeed: Equatable, Sendable {
    /// What a line is about; the view colours it by kind.
    public enum Kind: Equatable, Sendable {
        case join
        case leave
        case progress
        case tab
        case follow
        case document
        case limit(LimitLevel)
        case error
        case info
    }

    /// One event: when it happened (the model's time), what, and its kind.
    public struct Line: Equatable, Sendable {
        public var time: Duration
        public var text: String
        public var kind: Kind
    }

    public let capacity: Int
    public private(set) var lines: [Line] = []
    /// Lines scrolled back from the newest; 0 shows the newest at the bottom.
    public private(set) var scrollBack = 0

    public init(capacity: Int = 500) {
        self.capacity = max(capacity, 1)
    }

    /// Adds a line, dropping the oldest past capacity. A view scrolled back
    /// stays on the lines it shows.
    mutating func append(_ text: String, kind: Kind, at time: Duration) {
        lines.append(Line(time: time, text: text, kind: kind))
        if lines.count > capacity { lines.removeFirst(lines.count - capacity) }
        if scrollBack > 0 { scrollBack = min(scrollBack + 1, lines.count - 1) }
    }

    /// Scrolls by `delta` lines: positive goes back to older lines.
    mutating func scroll(by delta: Int) {
        scrollBack = min(max(scrollBack + delta, 0), max(lines.count - 1, 0))
    }

    /// The lines that fit in `height` rows with the current scroll.
    func visible(height: Int) -> ArraySlice<Line> {
        let end = lines.count - scrollBack
        return lines[max(end - max(height, 0), 0)..<end]
    }
}
