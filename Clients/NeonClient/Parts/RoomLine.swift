import NeonCore

/// The sentences `tail`, the monitor and `replay` say alike about a room's
/// events, so that the three name the same passage and the same level the
/// same way.
enum RoomLine {
    /// `bob points at "more" in §2 "Usage"` (the first words it marks, and
    /// its section), or `bob points at block 41` when the document's text is
    /// not known here (a monitor of every room that joined after it was
    /// published); `bob cleared the presenter's pointer`.
    static func pointer(_ pointer: PointerInfo, in document: Document?) -> String {
        let whose = pointer.lead ? "the presenter's pointer" : "their pointer"
        guard let passage = pointer.passage else { return "\(pointer.name) cleared \(whose)" }
        guard let document, document.blocks.indices.contains(passage.block) else {
            return "\(pointer.name) points at block \(passage.block)"
        }
        let index = document.blocks[passage.block].section
        let titles = document.sections.map(\.title)
        return "\(pointer.name) points at \"\(quote(passage, in: document))\" in \(section(index, titles: titles))"
    }

    /// `ada joined as reader`; `pat opened the presenter's notes` for a
    /// presenter's notes screen (an observer the audience does not see).
    static func joined(_ reader: ReaderInfo) -> String {
        reader.isNotesScreen ? "\(reader.name) opened the presenter's notes" : "\(reader.name) joined as \(reader.role.rawValue)"
    }

    /// `ada left at 29%`, `mon left` (an observer), `pat closed the
    /// presenter's notes`.
    static func left(_ reader: ReaderInfo) -> String {
        if reader.isNotesScreen { return "\(reader.name) closed the presenter's notes" }
        return reader.role == .observer ? "\(reader.name) left" : "\(reader.name) left at \(reader.percent)%"
    }

    /// `§2 "Usage"`: a section by its number from 1 (as the tab keys count)
    /// and title.
    static func section(_ index: Int, titles: [String]) -> String {
        "§\(index + 1) " + (titles.indices.contains(index) ? "\"\(titles[index])\"" : "(untitled)")
    }

    /// The first eight words a passage marks (its block's, when it marks
    /// none).
    static func quote(_ passage: DocumentMatch, in document: Document) -> String {
        let characters = Array(document.blocks[passage.block].text)
        let lower = min(passage.characters.lowerBound, characters.count)
        let upper = passage.characters.isEmpty ? characters.count : min(passage.characters.upperBound, characters.count)
        let words = String(characters[lower..<max(upper, lower)]).split(whereSeparator: \.isWhitespace)
        return words.count > 8 ? words.prefix(8).joined(separator: " ") + "…" : words.joined(separator: " ")
    }

    /// `limit warning 260/280 by ada`, `limit reached 280/280 by bob`: a
    /// draft's level crossing.
    static func limit(_ level: LimitLevel, count: Int, limit: Int, by name: String) -> String {
        "limit \(level.phrase) \(count)/\(limit) by \(name)"
    }
}

extension LimitLevel {
    /// The level as a line says it after "limit": `ok`, `warning`,
    /// `reached` (not "limit limit"), `over`.
    var phrase: String { self == .limit ? "reached" : rawValue }
}

extension RoomLine {
    /// What tail and the monitor say of a snippet's output: its start
    /// (`ada runs the snippet in block 3`) and its end (`ada's snippet in
    /// block 3: exit 0, 2 lines, last "EXECOUT42"`); nil for the output
    /// streaming in between.
    static func output(_ output: SnippetOutput) -> String? {
        let lines = output.text.isEmpty ? [] : output.text.split(separator: "\n", omittingEmptySubsequences: false)
        let last = lines.last.map { ", last \"\(String($0.prefix(60)))\"" } ?? ""
        let count = lines.count == 1 ? "1 line" : "\(lines.count) lines"
        switch output.state {
        case .running:
            return output.text.isEmpty ? "\(output.name) runs the snippet in block \(output.block)" : nil
        case .exited:
            return "\(output.name)'s snippet in block \(output.block): exit \(output.exit ?? 0), \(count)\(last)"
        case .timeout, .truncated, .failed:
            let how = output.state == .timeout ? "stopped at the time limit" : output.state == .truncated ? "stopped: too much output" : "could not run"
            return "\(output.name)'s snippet in block \(output.block): \(how), \(count)\(last)"
        }
    }
}

extension RoomLine {
    /// What tail and the monitor say of a summon: `ada brought everyone
    /// back (fay, gus)`, or that nobody was detached.
    static func summon(_ info: SummonInfo, names: [String]) -> String {
        names.isEmpty ? "\(info.name) called everyone back; no follower was detached"
            : "\(info.name) brought everyone back (\(names.joined(separator: ", ")))"
    }
}
