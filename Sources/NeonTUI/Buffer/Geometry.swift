/// A rectangle of terminal cells: column `x`, row `y`, `width` × `height`.
public struct Rect: Equatable, Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    /// A rectangle; negative sizes count as 0.
    public init(x: Int = 0, y: Int = 0, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(width, 0)
        self.height = max(height, 0)
    }

    /// Whether it covers no cell.
    public var isEmpty: Bool { width == 0 || height == 0 }
    /// The column just right of the rectangle.
    public var maxX: Int { x + width }
    /// The row just below the rectangle.
    public var maxY: Int { y + height }

    /// The rectangle shrunk by `amount` cells on every side.
    public func inset(by amount: Int) -> Rect {
        Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }

    /// Whether the cell at column `x`, row `y` lies inside.
    public func contains(x column: Int, y row: Int) -> Bool {
        column >= x && column < maxX && row >= y && row < maxY
    }

    /// Whether every cell of `other` lies inside (an empty one always does).
    public func contains(_ other: Rect) -> Bool {
        other.isEmpty || (other.x >= x && other.maxX <= maxX && other.y >= y && other.maxY <= maxY)
    }

    /// Every cell inside, row by row.
    public var cells: [(x: Int, y: Int)] {
        (y..<maxY).flatMap { row in (x..<maxX).map { (x: $0, y: row) } }
    }

    /// The cells both rectangles cover; empty (at this rectangle's origin)
    /// when they do not overlap.
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        guard right > left, bottom > top else { return Rect(x: x, y: y, width: 0, height: 0) }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// A rectangle of at most `width` × `height` centred inside this one
    /// (leaning left and up when the leftover is odd).
    public func centered(width: Int, height: Int) -> Rect {
        let w = min(max(width, 0), self.width)
        let h = min(max(height, 0), self.height)
        return Rect(x: x + (self.width - w) / 2, y: y + (self.height - h) / 2, width: w, height: h)
    }

    /// Row `index` of the rectangle as a one-row rectangle; empty when the
    /// row is outside.
    public func row(_ index: Int) -> Rect {
        guard index >= 0, index < height else { return Rect(x: x, y: y, width: 0, height: 0) }
        return Rect(x: x, y: y + index, width: width, height: 1)
    }
}
