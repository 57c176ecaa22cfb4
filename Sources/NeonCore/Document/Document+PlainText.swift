extension Document {
    /// Plain text: one section titled by the document's title; paragraphs
    /// split at blank lines. Each line break inside a paragraph is kept as a
    /// hard break, leading indentation is kept (tabs expanded to stops of
    /// four) and trailing blanks dropped.
    static func plainText(title: String, source: SourceText) -> Document {
        var builder = DocumentBuilder(title: title)
        var paragraph: [UInt8] = []
        func flush() {
            guard !paragraph.isEmpty else { return }
            builder.append(.paragraph, text: String(decoding: paragraph, as: UTF8.self))
            paragraph.removeAll(keepingCapacity: true)
        }
        for line in source.lines {
            if source.isBlank(line) {
                flush()
                continue
            }
            if !paragraph.isEmpty { paragraph.append(0x0A) }
            source.appendExpandingTabs(source.trailingTrimmed(line), to: &paragraph)
        }
        flush()
        return builder.document(format: .text)
    }
}
