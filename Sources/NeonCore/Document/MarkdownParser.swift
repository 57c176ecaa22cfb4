/// Reads Markdown line by line into blocks and sections.
///
/// Covered: ATX and setext headings (each starts a section; text before the
/// first heading goes into a section titled by the document's title),
/// paragraphs (lines joined by a space), bullet and ordered list items,
/// block quotes, fenced code (``` or ~~~; an unclosed fence runs to the end)
/// and thematic breaks (dropped). Indented code is read as paragraph text.
/// Inline markup is reduced to plain text by `MarkdownInline`.
struct MarkdownParser {
    private let source: SourceText
    private var builder: DocumentBuilder
    private var open: Open?
    /// The byte ranges of the open block's lines.
    private var openLines: [Range<Int>] = []
    private var scratch: [UInt8] = []

    private enum Open: Equatable {
        case paragraph
        case listItem(marker: String)
        case quote
        case code(MarkdownLine.Fence)
    }

    init(title: String, source: SourceText) {
        self.source = source
        self.builder = DocumentBuilder(title: title)
    }

    mutating func parse() -> Document {
        for line in source.lines {
            consume(line)
        }
        close()
        return builder.document(format: .markdown)
    }

    private mutating func consume(_ line: Range<Int>) {
        if case .code(let fence) = open {
            if fence.isClosed(by: line, in: source) {
                close()
            } else {
                openLines.append(line)
            }
            return
        }
        switch MarkdownLine(line, in: source) {
        case .blank, .thematicBreak:
            close()
        case .fence(let fence):
            close()
            open = .code(fence)
        case .heading(let level, let text):
            close()
            addHeading(level: level, text: inlineText([text]))
        case .setextUnderline(let level, let text):
            if case .paragraph = open {
                let title = inlineText(openLines)
                open = nil
                openLines.removeAll(keepingCapacity: true)
                addHeading(level: level, text: title)
            } else if level == 2, text.count >= 3 {
                close()
            } else {
                continueText(text)
            }
        case .quote(let content):
            if open != .quote || content.isEmpty { close() }
            if !content.isEmpty {
                open = .quote
                openLines.append(content)
            }
        case .listItem(let marker, let number, let content):
            if case .paragraph = open, let number, number != 1 {
                continueText(source.trimmed(line))
            } else {
                close()
                open = .listItem(marker: marker)
                openLines.append(content)
            }
        case .text(let text):
            continueText(text)
        }
    }

    /// Adds a line to the open paragraph, list item or quote (a lazy
    /// continuation), or starts a paragraph.
    private mutating func continueText(_ text: Range<Int>) {
        if open == nil { open = .paragraph }
        openLines.append(text)
    }

    private mutating func addHeading(level: Int, text: String) {
        builder.startSection(titled: text)
        builder.append(.heading(level: level), text: text)
    }

    /// Ends the open block, if any, and adds it to the document.
    private mutating func close() {
        guard let block = open else { return }
        switch block {
        case .paragraph:
            builder.append(.paragraph, text: inlineText(openLines))
        case .listItem(let marker):
            builder.append(.listItem(marker: marker), text: inlineText(openLines))
        case .quote:
            builder.append(.quote, text: inlineText(openLines))
        case .code(let fence):
            builder.append(.codeBlock(language: fence.language), text: codeText(indent: fence.indent))
        }
        open = nil
        openLines.removeAll(keepingCapacity: true)
    }

    /// Lines trimmed and joined by single spaces, tabs made spaces, inline
    /// markup removed.
    private mutating func inlineText(_ lines: [Range<Int>]) -> String {
        scratch.removeAll(keepingCapacity: true)
        for line in lines {
            let text = source.trimmed(line)
            guard !text.isEmpty else { continue }
            if !scratch.isEmpty { scratch.append(0x20) }
            for byte in source.bytes[text] {
                scratch.append(byte == 0x09 ? 0x20 : byte)
            }
        }
        return MarkdownInline.plainText(scratch)
    }

    /// The open code lines joined by newlines, verbatim but for the fence's
    /// indentation, expanded tabs and trailing blanks.
    private mutating func codeText(indent: Int) -> String {
        scratch.removeAll(keepingCapacity: true)
        for (number, line) in openLines.enumerated() {
            if number > 0 { scratch.append(0x0A) }
            var start = line.lowerBound
            while start < line.upperBound, start - line.lowerBound < indent,
                  source.bytes[start] == 0x20 {
                start += 1
            }
            source.appendExpandingTabs(source.trailingTrimmed(start..<line.upperBound), to: &scratch)
        }
        return String(decoding: scratch, as: UTF8.self)
    }
}
