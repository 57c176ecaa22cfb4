extension Layout {
    /// What to draw on `row`, which must be in `0..<rowCount`.
    public func line(at row: Int) -> LayoutLine {
        precondition(row >= 0 && row < rowCount, "row \(row) is outside the layout's \(rowCount) rows")
        let (index, stored) = locate(row)
        let block = document.blocks[index]
        guard let stored else {
            return LayoutLine(block: index, kind: block.kind, part: .separator, prefix: separatorPrefix(above: index),
                              text: "", isTruncated: false)
        }
        let stripe = rows[stored]
        let isFirst = stored == blockRowStarts[index]
        let indent = indents[index]
        let prefix = isFirst ? indent.first : indent.rest
        if stripe.drawn >= 0 {
            let drawn = drawnLines[Int(stripe.drawn)]
            let part: LayoutLine.Part = switch drawn.role {
            case .rule: .rule
            case .header: .tableHeader
            case .body: .tableBody
            case .image: .image
            case .output: .output
            case .outputHeading: .outputHeading
            }
            return LayoutLine(block: index, kind: block.kind, part: part, prefix: prefix, text: Substring(drawn.text),
                              isTruncated: false)
        }
        if case .thematicBreak = block.kind {
            let rule = String(repeating: "─", count: max(width - DisplayWidth.of(prefix), 1))
            return LayoutLine(block: index, kind: block.kind, part: .rule, prefix: prefix, text: Substring(rule),
                              isTruncated: false)
        }
        if case .htmlBlock = block.kind, let command = CommentCommand(html: block.text) {
            // Outside slides a slide break is a dashed rule; other comments
            // and commands show nothing, as in every Markdown viewer.
            let rule = command == .endSlide ? String(repeating: "╌", count: max(width - DisplayWidth.of(prefix), 1)) : ""
            return LayoutLine(block: index, kind: block.kind, part: .rule, prefix: prefix, text: Substring(rule),
                              isTruncated: false)
        }
        var part = LayoutLine.Part.text
        var source = block.text
        if case .card(let name) = block.kind, isFirst {
            part = .cardName
            source = name
        }
        let utf8 = source.utf8
        let text = source[utf8.index(utf8.startIndex, offsetBy: stripe.byteStart)..<utf8.index(utf8.startIndex, offsetBy: stripe.byteEnd)]
        var tokens: [CodeRun] = []
        var code = (prefix: prefix, numbers: 0, dimmed: false)
        if case .codeBlock = block.kind {
            if let runs = highlights.runs[index] { tokens = Self.clip(runs, to: stripe.byteStart..<stripe.byteEnd) }
            code = codeRow(stored - blockRowStarts[index] + 1, of: block, at: index, prefix: prefix)
        }
        return LayoutLine(block: index, kind: block.kind, part: part, prefix: code.prefix, text: text,
                          isTruncated: stripe.isTruncated, numberColumns: code.numbers, isDimmed: code.dimmed,
                          styles: part == .text ? styles(of: block, bytes: stripe.byteStart..<stripe.byteEnd) : [],
                          tokens: tokens,
                          links: part == .text && !block.links.isEmpty ? Self.clip(block.links, to: stripe.byteStart..<stripe.byteEnd) : [])
    }

    /// A code row's prefix with its line number (right-aligned in the
    /// block's gutter, when it draws one), the columns the number takes, and
    /// whether the row is dimmed: line `number` of a block whose lit group
    /// (`litGroups`) does not hold it.
    private func codeRow(_ number: Int, of block: Block, at index: Int, prefix: String)
        -> (prefix: String, numbers: Int, dimmed: Bool) {
        var shown = prefix
        let columns = numberColumns[index] ?? 0
        if columns > 0 {
            let digits = String(number)
            shown += String(repeating: " ", count: max(columns - 1 - digits.utf8.count, 0)) + digits + " "
        }
        guard let fence = block.fence, !fence.highlightGroups.isEmpty,
              let lit = fence.litLines(group: litGroups[index] ?? fence.highlightGroups.count - 1) else {
            return (shown, columns, false)
        }
        return (shown, columns, !lit.contains(number))
    }

    /// The bars a separator row keeps: the quote bars the blocks on both
    /// sides of it share, so a quote's bar runs down between its paragraphs.
    private func separatorPrefix(above index: Int) -> String {
        guard index > 0 else { return "" }
        var shared = ""
        for (a, b) in zip(indents[index - 1].rest, indents[index].rest) {
            guard a == b else { break }
            shared.append(a)
        }
        guard shared.contains("│") else { return "" }
        while shared.last == " " { shared.removeLast() }
        return shared
    }

    /// The lines of the rows in `range` that exist: what a viewport shows.
    public func lines(_ range: Range<Int>) -> [LayoutLine] {
        range.clamped(to: 0..<rowCount).map(line(at:))
    }

    /// The code tokens on the bytes `range` of a block's text, as offsets
    /// from the range's start.
    private static func clip(_ runs: [CodeRun], to range: Range<Int>) -> [CodeRun] {
        var low = 0
        var high = runs.count
        while low < high {
            let mid = (low + high) / 2
            if runs[mid].bytes.upperBound <= range.lowerBound { low = mid + 1 } else { high = mid }
        }
        var found: [CodeRun] = []
        for run in runs[low...] {
            guard run.bytes.lowerBound < range.upperBound else { break }
            let clipped = run.bytes.clamped(to: range)
            if !clipped.isEmpty {
                found.append(CodeRun(bytes: clipped.lowerBound - range.lowerBound..<clipped.upperBound - range.lowerBound,
                                     kind: run.kind))
            }
        }
        return found
    }

    /// A block's links on the bytes `range` of its text, as offsets from the
    /// range's start.
    private static func clip(_ links: [LinkTarget], to range: Range<Int>) -> [LinkTarget] {
        links.compactMap { link in
            let clipped = link.bytes.clamped(to: range)
            guard !clipped.isEmpty else { return nil }
            return LinkTarget(bytes: clipped.lowerBound - range.lowerBound..<clipped.upperBound - range.lowerBound, url: link.url)
        }
    }

    /// A block's inline styles on the bytes `range` of its text, as offsets
    /// from the range's start.
    private func styles(of block: Block, bytes range: Range<Int>) -> [InlineRun] {
        guard !block.styles.isEmpty else { return [] }
        var low = 0
        var high = block.styles.count
        while low < high {
            let mid = (low + high) / 2
            if block.styles[mid].bytes.upperBound <= range.lowerBound { low = mid + 1 } else { high = mid }
        }
        var found: [InlineRun] = []
        for run in block.styles[low...] {
            guard run.bytes.lowerBound < range.upperBound else { break }
            let clipped = run.bytes.clamped(to: range)
            if !clipped.isEmpty {
                found.append(InlineRun(bytes: clipped.lowerBound - range.lowerBound..<clipped.upperBound - range.lowerBound,
                                       style: run.style))
            }
        }
        return found
    }
}
