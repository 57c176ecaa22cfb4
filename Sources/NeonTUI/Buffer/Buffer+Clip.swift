import NeonCore

extension Buffer {
    /// Runs `draw` with writes confined to `area` (within the area of any
    /// widget drawing around it): what lands outside is dropped and counted
    /// in `faults`. `Widget.render` draws every widget this way.
    public mutating func clipped(to area: Rect, _ draw: (inout Buffer) -> Void) {
        let outer = clip
        clip = area.intersection(outer)
        if clip.isEmpty { clip = Rect(x: outer.x, y: outer.y, width: 0, height: 0) }
        draw(&self)
        clip = outer
    }

    /// Counts a write aimed at `rect`, outside the area of the widget
    /// making it.
    mutating func stray(_ text: some StringProtocol, at rect: Rect) {
        faults.strayed(String(text), at: rect, outside: clip)
    }
}

extension Buffer: Equatable {
    /// Buffers are equal when a terminal shows them the same: their cells,
    /// links and pictures (not how they were drawn).
    public static func == (lhs: Buffer, rhs: Buffer) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.cells == rhs.cells && lhs.hyperlinks == rhs.hyperlinks
            && lhs.images == rhs.images
    }
}

/// What went wrong while a buffer was drawn, though nothing shows it: writes
/// a widget aimed outside the area it was given (dropped), and texts cut
/// without an ellipsis (a cut must not look like the text's end). Every
/// frame of every screen should have none; the sweep test checks that.
public struct DrawFaults: Equatable, Sendable {
    /// Writes outside the drawing widget's area.
    public private(set) var strays = 0
    /// Texts cut short without an ellipsis.
    public private(set) var bareCuts = 0
    /// The first few, described, to say which.
    public private(set) var examples: [String] = []

    public var isEmpty: Bool { strays == 0 && bareCuts == 0 }

    mutating func strayed(_ text: @autoclosure () -> String, at rect: Rect, outside area: Rect) {
        strays += 1
        note("\(text().isEmpty ? "a fill" : "\"\(text())\"") at \(rect.x),\(rect.y) \(rect.width)×\(rect.height) outside \(area.x),\(area.y) \(area.width)×\(area.height)")
    }

    mutating func cut(_ text: some StringProtocol, at x: Int, _ y: Int) {
        bareCuts += 1
        note("\"\(text)\" cut at \(x),\(y) without an ellipsis")
    }

    /// Keeps the first few, described (the description made only for those).
    private mutating func note(_ example: @autoclosure () -> String) {
        if examples.count < 4 { examples.append(example()) }
    }
}
