extension DocumentView {
    /// A narrow column beside the text marking layout rows: where other
    /// readers are.
    public struct Gutter: Equatable, Sendable {
        public enum Side: Equatable, Sendable {
            case left, right
        }

        public var side: Side
        /// 1 or 2 columns; with 2, a space separates the marker from the text.
        public var width: Int
        /// Markers by layout row.
        public var markers: [Int: GutterMarker]

        /// A gutter on `side`, `width` columns wide (clamped to 1…2).
        public init(side: Side = .right, width: Int = 2, markers: [Int: GutterMarker] = [:]) {
            self.side = side
            self.width = min(max(width, 1), 2)
            self.markers = markers
        }
    }

    /// One gutter mark: a character (`▶`, a reader's initial) and its style.
    /// A wide character needs a gutter of two columns (it shows as a space
    /// in one), and then fills both.
    public struct GutterMarker: Equatable, Sendable {
        public var symbol: Character
        public var style: Style

        /// A mark of `symbol` in `style`.
        public init(_ symbol: Character, style: Style) {
            self.symbol = symbol
            self.style = style
        }
    }
}
