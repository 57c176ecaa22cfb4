// A libFuzzer target over the Markdown path a published document takes:
// cmark-gfm (with the table, strikethrough and autolink extensions) and
// NeonCore's tree walk (MarkdownReader) into a Document, then its Layout
// (wrapping, and tables drawn as boxes or stacked) at one width with every
// row drawn and 32 rows spread over it mapped to an anchor and back. Built
// and run by scripts/fuzz.sh with NeonCore's sources.
//
// The input's first byte picks the width, 1 to 240 columns (so the fuzzer
// explores widths as it explores text, and each execution lays out once:
// four times faster than four fixed widths); the rest is the document's
// text (invalid UTF-8 replaced, as String(decoding:) does). Checks what
// Layout promises: no row but a code row is wider than the width, except
// one grapheme wider than the room on a row of its own; and a row's anchor
// lays out on a row that exists.

func fuzzMarkdown(_ data: UnsafePointer<UInt8>, _ size: Int) {
    guard size > 0 else { return }
    let width = 1 + Int(data[0]) % 240
    let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    guard let document = try? Document.parse(title: "fuzz", format: .markdown, text: text) else {
        fatalError("Markdown parsing failed, which it never should")
    }
    let layout = Layout(document: document, width: width)
    for row in 0..<layout.rowCount {
        let line = layout.line(at: row)
        if line.displayWidth > width, line.text.count > 1, !isCode(line.kind) {
            fatalError("row \(row) is \(line.displayWidth) columns wide at width \(width): \(line)")
        }
    }
    for row in stride(from: 0, to: layout.rowCount, by: max(layout.rowCount / 32, 1)) {
        let anchored = layout.row(for: layout.anchor(forRow: row))
        if !(0..<layout.rowCount).contains(anchored) {
            fatalError("row \(row)'s anchor lays out on row \(anchored) of \(layout.rowCount)")
        }
    }
}

private func isCode(_ kind: BlockKind) -> Bool {
    if case .codeBlock = kind { return true }
    return false
}
