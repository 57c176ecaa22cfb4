import CCmarkGFM

/// Turns cmark-gfm's tree into a document's blocks and sections.
///
/// Which blocks count, in what order (docs/PROTOCOL.md, "Blocks"): the leaf
/// blocks of the tree in document order — every paragraph, heading, code
/// block, HTML block, thematic break and table, wherever it is nested — one
/// block each. Block quotes, lists and list items are containers: they add
/// their bars and markers to the indent of the blocks inside them and are
/// not blocks themselves. Every heading, at any depth, starts a section.
///
/// A block's text is its visible text: inline markup removed, a soft break
/// made a space, a hard break a newline, an image replaced by its alt text,
/// a link followed by its address in parentheses (unless the text is the
/// address), inline HTML kept as written. Code and HTML blocks keep their
/// lines, tabs expanded to stops of four. A table's text is its cells, row
/// after row, cells joined by a tab and rows by a newline.
struct MarkdownReader {
    /// Names the numbering above: a client that numbers blocks another way
    /// sends another identity (`parser` in hello, welcome and document).
    static let identity = "cmark-gfm/\(CmarkGFM.version)+\(CmarkGFM.extensions.joined(separator: ","));blocks/1"

    private var builder: DocumentBuilder
    private var containers: [Container] = []

    private enum Container {
        case quote
        case list(tight: Bool, emitted: Bool)
        case item(marker: String, shown: Bool)
    }

    /// The inline text of the open leaf block.
    private var bytes: [UInt8] = []
    private var runs: [InlineRun] = []
    /// How many of each inline style (by bit) are open, and the styles
    /// open now.
    private var styleDepth = [Int](repeating: 0, count: 8)
    private var openStyle: InlineStyle = []
    /// The open leaf is a table cell: its text only, no styles.
    private var inCell = false
    /// Where each open link's text starts, to show its address after it.
    private var linkStarts: [Int] = []
    /// The links of the open leaf block.
    private var links: [LinkTarget] = []

    /// The open table's alignments and cells.
    private var tableAlignments: [TableShape.Alignment] = []
    private var tableRows: [[String]] = []

    private init(title: String) {
        builder = DocumentBuilder(title: title)
    }

    static func read(title: String, text: String) -> Document {
        var reader = MarkdownReader(title: title)
        // Control characters (an ESC that would drive the reader's
        // terminal) become U+FFFD before cmark-gfm sees the text.
        let safe = String(decoding: SourceText(text).bytes, as: UTF8.self)
        CmarkGFM.withTree(of: safe) { root in reader.walk(root) }
        return reader.builder.document(format: .markdown)
    }

    private mutating func walk(_ root: OpaquePointer) {
        guard let iterator = cmark_iter_new(root) else { return }
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iterator) else { continue }
            if event == CMARK_EVENT_ENTER {
                enter(node)
            } else if event == CMARK_EVENT_EXIT {
                exit(node)
            }
        }
    }

    private mutating func enter(_ node: OpaquePointer) {
        let type = cmark_node_get_type(node)
        switch type {
        case CMARK_NODE_BLOCK_QUOTE:
            containers.append(.quote)
        case CMARK_NODE_LIST:
            containers.append(.list(tight: cmark_node_get_list_tight(node) != 0, emitted: false))
        case CMARK_NODE_ITEM:
            containers.append(.item(marker: marker(of: node), shown: false))
        case CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING:
            beginInline()
        case CMARK_NODE_CODE_BLOCK:
            let info = string(cmark_node_get_fence_info(node))
            let language = info.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
            emit(.codeBlock(language: language), text: Self.verbatim(string(cmark_node_get_literal(node))),
                 fence: CodeFence(info: info).ifAny)
        case CMARK_NODE_HTML_BLOCK:
            emit(.htmlBlock, text: Self.verbatim(string(cmark_node_get_literal(node))))
        case CMARK_NODE_THEMATIC_BREAK:
            emit(.thematicBreak, text: "")
        case CMARK_NODE_TEXT:
            append(cmark_node_get_literal(node))
        case CMARK_NODE_CODE:
            append(cmark_node_get_literal(node), extra: .code)
        case CMARK_NODE_HTML_INLINE:
            append(cmark_node_get_literal(node), extra: .html)
        case CMARK_NODE_SOFTBREAK:
            append(" ")
        case CMARK_NODE_LINEBREAK:
            append("\n")
        case CMARK_NODE_EMPH: open(.emphasis)
        case CMARK_NODE_STRONG: open(.strong)
        case CMARK_NODE_LINK:
            open(.link)
            linkStarts.append(bytes.count)
        case CMARK_NODE_IMAGE: open(.image)
        default:
            if type == neon_cmark_strikethrough() {
                open(.strikethrough)
            } else if type == neon_cmark_table() {
                tableAlignments = Self.alignments(of: node)
                tableRows = []
            } else if type == neon_cmark_table_row() {
                tableRows.append([])
            } else if type == neon_cmark_table_cell() {
                beginInline()
                inCell = true
            }
        }
    }

    private mutating func exit(_ node: OpaquePointer) {
        let type = cmark_node_get_type(node)
        switch type {
        case CMARK_NODE_BLOCK_QUOTE:
            containers.removeLast()
        case CMARK_NODE_ITEM:
            if case .item(let marker, shown: false)? = containers.last {
                emit(.listItem(marker: marker), text: "")
            }
            containers.removeLast()
        case CMARK_NODE_LIST:
            containers.removeLast()
        case CMARK_NODE_PARAGRAPH:
            let (text, styles) = endInline()
            var kind: BlockKind = switch containers.last {
            case .item(let marker, shown: false)?: .listItem(marker: marker)
            case .quote?: .quote
            default: .paragraph
            }
            if let source = Self.soleImage(in: node) { kind = .image(source: source) }
            emit(kind, text: text, styles: styles, links: endLinks(text))
        case CMARK_NODE_HEADING:
            let (text, styles) = endInline()
            builder.startSection(titled: Self.title(text, styles: styles))
            emit(.heading(level: Int(cmark_node_get_heading_level(node))), text: text, styles: styles,
                 links: endLinks(text))
        case CMARK_NODE_EMPH: close(.emphasis)
        case CMARK_NODE_STRONG: close(.strong)
        case CMARK_NODE_LINK:
            close(.link)
            let start = linkStarts.removeLast()
            let url = string(cmark_node_get_url(node))
            let shown = String(decoding: bytes[start...], as: UTF8.self)
            if !url.isEmpty, url != shown, url != "mailto:" + shown, url != "http://" + shown {
                append(" (", extra: .url)
                append(url, extra: .url)
                append(")", extra: .url)
            }
            if !url.isEmpty, !inCell, bytes.count > start {
                links.append(LinkTarget(bytes: start..<bytes.count, url: url))
            }
        case CMARK_NODE_IMAGE: close(.image)
        default:
            if type == neon_cmark_strikethrough() {
                close(.strikethrough)
            } else if type == neon_cmark_table_cell() {
                inCell = false
                var start = 0
                while start < bytes.count, bytes[start] == 0x20 { start += 1 }
                var end = bytes.count
                while end > start, bytes[end - 1] == 0x20 { end -= 1 }
                tableRows[tableRows.count - 1].append(String(decoding: bytes[start..<end], as: UTF8.self))
            } else if type == neon_cmark_table() {
                let shape = TableShape(alignments: tableAlignments, rows: tableRows)
                emit(.table(shape), text: shape.text)
            }
        }
    }

    // MARK: Blocks

    /// Appends a leaf block, its indent made from the containers it is in;
    /// the first block of a list item shows the item's marker.
    private mutating func emit(_ kind: BlockKind, text: String, styles: [InlineRun] = [], links: [LinkTarget] = [],
                               fence: CodeFence? = nil) {
        var first = ""
        var rest = ""
        var tight = false
        for index in containers.indices {
            switch containers[index] {
            case .quote:
                first += "│ "
                rest += "│ "
            case .list(let isTight, let emitted):
                // A nested list's first block follows its item tightly
                // when the list around it is tight.
                tight = isTight && (emitted || tight)
                containers[index] = .list(tight: isTight, emitted: true)
            case .item(let marker, let shown):
                let blank = String(repeating: " ", count: DisplayWidth.of(marker) + 1)
                first += shown ? blank : marker + " "
                rest += blank
                containers[index] = .item(marker: marker, shown: true)
            }
        }
        if case .heading = kind { tight = false }
        builder.append(kind, text: text, indent: BlockIndent(first: first, rest: rest), styles: styles, isTight: tight,
                       links: links, fence: fence)
    }

    /// The address of the one image a paragraph is made of (alone, or
    /// alone inside a link), or nil.
    private static func soleImage(in paragraph: OpaquePointer) -> String? {
        guard var child = cmark_node_first_child(paragraph), cmark_node_next(child) == nil else { return nil }
        if cmark_node_get_type(child) == CMARK_NODE_LINK {
            guard let inner = cmark_node_first_child(child), cmark_node_next(inner) == nil else { return nil }
            child = inner
        }
        guard cmark_node_get_type(child) == CMARK_NODE_IMAGE, let url = cmark_node_get_url(child) else { return nil }
        let source = String(cString: url)
        return source.isEmpty ? nil : source
    }

    /// A list item's marker: "•" or the item's number with its delimiter as
    /// written ("3." or "3)"); a task item's box ("☐", "☑") instead of a
    /// bullet, after a number.
    private func marker(of item: OpaquePointer) -> String {
        var marker = "•"
        if let list = cmark_node_parent(item), cmark_node_get_list_type(list) == CMARK_ORDERED_LIST {
            var number = Int(cmark_node_get_list_start(list))
            var sibling = cmark_node_previous(item)
            while let previous = sibling {
                number += 1
                sibling = cmark_node_previous(previous)
            }
            marker = "\(number)" + (cmark_node_get_list_delim(list) == CMARK_PAREN_DELIM ? ")" : ".")
        }
        if string(cmark_node_get_type_string(item)) == "tasklist" {
            let box = cmark_gfm_extensions_get_tasklist_item_checked(item) ? "☑" : "☐"
            marker = marker == "•" ? box : marker + " " + box
        }
        return marker
    }

    private static func alignments(of table: OpaquePointer) -> [TableShape.Alignment] {
        let count = Int(cmark_gfm_extensions_get_table_columns(table))
        guard let raw = cmark_gfm_extensions_get_table_alignments(table) else {
            return Array(repeating: .none, count: count)
        }
        return (0..<count).map { column in
            switch raw[column] {
            case UInt8(ascii: "l"): .left
            case UInt8(ascii: "c"): .center
            case UInt8(ascii: "r"): .right
            default: .none
            }
        }
    }

    // MARK: Inline text

    private mutating func beginInline() {
        bytes.removeAll(keepingCapacity: true)
        runs.removeAll(keepingCapacity: true)
        for index in styleDepth.indices { styleDepth[index] = 0 }
        openStyle = []
        linkStarts.removeAll(keepingCapacity: true)
        links.removeAll(keepingCapacity: true)
    }

    /// The open leaf's links, cut to its text (trailing blanks dropped).
    private func endLinks(_ text: String) -> [LinkTarget] {
        let end = text.utf8.count
        return links.compactMap { link in
            let clipped = link.bytes.clamped(to: 0..<end)
            return clipped.isEmpty ? nil : LinkTarget(bytes: clipped, url: link.url)
        }
    }

    private mutating func endInline() -> (String, [InlineRun]) {
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x0A { end -= 1 }
        let text = String(decoding: bytes[..<end], as: UTF8.self)
        let styles = runs.compactMap { run -> InlineRun? in
            let clipped = run.bytes.clamped(to: 0..<end)
            return clipped.isEmpty ? nil : InlineRun(bytes: clipped, style: run.style)
        }
        return (text, styles)
    }

    private mutating func open(_ style: InlineStyle) {
        styleDepth[style.rawValue.trailingZeroBitCount] += 1
        openStyle.insert(style)
    }

    private mutating func close(_ style: InlineStyle) {
        let bit = style.rawValue.trailingZeroBitCount
        styleDepth[bit] = max(styleDepth[bit] - 1, 0)
        if styleDepth[bit] == 0 { openStyle.remove(style) }
    }

    /// Appends a node's literal (a C string) like `append(_:extra:)`.
    private mutating func append(_ literal: UnsafePointer<CChar>?, extra: InlineStyle = []) {
        guard let literal else { return }
        let start = bytes.count
        var pointer = literal
        while pointer.pointee != 0 {
            let byte = UInt8(bitPattern: pointer.pointee)
            bytes.append(byte == 0x09 ? 0x20 : byte)
            pointer += 1
        }
        noteStyle(from: start, extra: extra)
    }

    /// Appends inline text in the styles open now (plus `extra`), tabs made
    /// spaces; a stretch in the same styles as the one before extends it.
    private mutating func append(_ text: String, extra: InlineStyle = []) {
        guard !text.isEmpty else { return }
        let start = bytes.count
        for byte in text.utf8 { bytes.append(byte == 0x09 ? 0x20 : byte) }
        noteStyle(from: start, extra: extra)
    }

    /// Records the styles of the bytes appended since `start`.
    private mutating func noteStyle(from start: Int, extra: InlineStyle) {
        let style = openStyle.union(extra)
        guard !style.isEmpty, !inCell, bytes.count > start else { return }
        if let last = runs.last, last.style == style, last.bytes.upperBound == start {
            runs[runs.count - 1] = InlineRun(bytes: last.bytes.lowerBound..<bytes.count, style: style)
        } else {
            runs.append(InlineRun(bytes: start..<bytes.count, style: style))
        }
    }

    /// A heading's text as a section title: links' addresses left out.
    private static func title(_ text: String, styles: [InlineRun]) -> String {
        guard styles.contains(where: { $0.style.contains(.url) }) else { return text }
        var bytes = Array(text.utf8)
        for run in styles.reversed() where run.style.contains(.url) {
            bytes.removeSubrange(run.bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func string(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    /// A code or HTML block's lines: tabs expanded to stops of four
    /// columns, trailing blanks and trailing empty lines dropped.
    static func verbatim(_ literal: String) -> String {
        let source = SourceText(literal)
        var out: [UInt8] = []
        out.reserveCapacity(source.bytes.count)
        var kept = 0
        for line in source.lines {
            if !out.isEmpty || kept > 0 { out.append(0x0A) }
            source.appendExpandingTabs(source.trailingTrimmed(line), to: &out)
            kept += 1
        }
        while out.last == 0x0A { out.removeLast() }
        return String(decoding: out, as: UTF8.self)
    }
}
