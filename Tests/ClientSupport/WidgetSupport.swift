import NeonCore
import NeonTUI

/// Renders `widget` into a fresh buffer of `width` × `height`.
package func render(_ widget: some Widget, width: Int, height: Int) -> Buffer {
    var buffer = Buffer(width: width, height: height)
    widget.render(in: buffer.area, into: &buffer)
    return buffer
}

/// The buffer's rows joined by newlines, trailing spaces dropped: what the
/// literal snapshots in the tests spell out.
package func snapshot(_ buffer: Buffer) -> String {
    buffer.lines().joined(separator: "\n")
}

/// Whether no cell of the buffer uses a colour.
package func isColorless(_ buffer: Buffer) -> Bool {
    (0..<buffer.height).allSatisfy { y in buffer.styles(row: y).allSatisfy { !$0.hasColor } }
}

/// A draft status from a counter with `limit`.
package func draftStatus(count: Int, limit: Int = 280) throws -> DraftStatus {
    try DraftCounter(limit: limit).status(forCount: count)
}

/// A determinate model.
package func progress(_ value: Double, total: Double = 1, label: String? = nil,
              currentValueLabel: String? = nil) throws -> ProgressModel {
    try ProgressModel(value: value, total: total, label: label, currentValueLabel: currentValueLabel)
}
