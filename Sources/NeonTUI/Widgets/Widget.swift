/// Something that draws itself into a rectangle of a buffer: a small value
/// with no I/O whose frame indexes and times come from the caller's model.
///
/// A widget implements `draw`; callers call `render`, which confines it to
/// the area it is given (`Buffer.clipped(to:)`). A widget draws only inside
/// `area` and never fails: any rectangle, even one of width 0 or partly
/// outside the buffer, is fine. A write aimed outside it is dropped and
/// counted in `Buffer.faults`.
public protocol Widget {
    func draw(in area: Rect, into buffer: inout Buffer)
}

extension Widget {
    /// Draws the widget into `area` of `buffer`, and nowhere else.
    public func render(in area: Rect, into buffer: inout Buffer) {
        buffer.clipped(to: area) { draw(in: area, into: &$0) }
    }
}
