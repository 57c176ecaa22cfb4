import NeonTUI

/// The frame every full screen of the client shares (the reader, the draft
/// editor, the monitor): a title row at the top, the status line at the
/// bottom, and the body between them.
///
/// The status line is cut off first, so that on a one-row terminal the
/// status line has the row and the title and the body are empty.
public struct ScreenFrame: Equatable, Sendable {
    /// The top row: what the screen shows and whose it is.
    public let title: Rect
    /// Everything between the title row and the status line.
    public let body: Rect
    /// The bottom row: hints, notices, the connection.
    public let status: Rect

    public init(_ screen: Rect) {
        let outer = Stack.vertical([.fill(1), .length(1)]).split(screen)
        let inner = Stack.vertical([.length(1), .fill(1)]).split(outer[0])
        title = inner[0]
        body = inner[1]
        status = outer[1]
    }

    /// The frame of a terminal `columns` wide and `rows` tall.
    public init(columns: Int, rows: Int) {
        self.init(Rect(width: columns, height: rows))
    }
}
