/// Something that draws itself into a rectangle of a buffer: a small value
/// with no I/O whose frame indexes and times come from the caller's model.
///
/// A widget draws only inside `area` and never fails: any rectangle, even one
/// of width 0 or partly outside the buffer, is fine.
public protocol Widget {
    func render(in area: Rect, into buffer: inout Buffer)
}
