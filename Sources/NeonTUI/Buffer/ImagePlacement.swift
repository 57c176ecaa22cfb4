/// A picture a frame shows over its cells: which one (the image's name in
/// its document), the screen rectangle its whole picture takes (rows above
/// or below the screen included when it is scrolled partly off), and the
/// part of it on screen. The frame writer hands placements to a terminal's
/// graphics protocol (`GraphicsWriter`); the cells under them are the box
/// every other terminal shows.
public struct ImagePlacement: Equatable, Hashable, Sendable {
    public let source: String
    public let area: Rect
    public let visible: Rect

    public init(source: String, area: Rect, visible: Rect) {
        self.source = source
        self.area = area
        self.visible = visible
    }

    /// Whether part of the picture is cut off by the screen's (or the
    /// view's) edges.
    public var isClipped: Bool { visible != area }
}
