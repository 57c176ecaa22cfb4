/// A presenterm comment command: an HTML comment that tells a presenting
/// tool what to do rather than showing text (`<!-- end_slide -->`,
/// `<!-- pause -->`, `<!-- speaker_note: … -->`, the column layout). A
/// comment that names no command is `.comment`; HTML that is not one
/// comment is no command at all.
public enum CommentCommand: Equatable, Sendable {
    /// `<!-- end_slide -->`: the slide ends here.
    case endSlide
    /// `<!-- pause -->`: what follows shows at the next step.
    case pause
    /// `<!-- speaker_note: text -->`, or its multi-line YAML form (read
    /// with libyaml: quoted, `|` keeps the lines, `>` folds them).
    case speakerNote(String)
    /// `<!-- column_layout: [3, 2] -->`: columns of these relative widths,
    /// each at most `maximumRatio` (a larger one counts as that: summed and
    /// multiplied by widths, a ratio near `Int.max` overflowed).
    case columnLayout([Int])
    /// `<!-- column: 1 -->`: what follows goes into this column.
    case column(Int)
    /// `<!-- reset_layout -->`: back to the whole width.
    case resetLayout
    /// `<!-- jump_to_middle -->`: the rest of the slide in the middle.
    case jumpToMiddle
    /// `<!-- new_lines: 2 -->` (`newline`, `new_line`, `newlines`).
    case newLines(Int)
    /// `<!-- snippet_output: NAME -->`: the output of the snippet marked
    /// `+id:NAME` shows here instead of below its code.
    case snippetOutput(String)
    /// A command this reader does not act on (`font_size`, `alignment`,
    /// `incremental_lists`, …): a look, not content.
    case ignored(String)
    /// A comment that is no command: invisible, as in every Markdown viewer.
    case comment

    /// The command `html` (an HTML block's or inline HTML's text) holds, or
    /// nil when it is not exactly one comment.
    public init?(html: String) {
        var text = Substring(html)
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        guard text.hasPrefix("<!--"), text.hasSuffix("-->"), text.count >= 7 else { return nil }
        let inner = text.dropFirst(4).dropLast(3)
        guard !inner.contains("-->") else { return nil }
        self = Self.command(in: String(inner))
    }

    private static func command(in inner: String) -> CommentCommand {
        let trimmed = inner.trimming(" \t\n")
        guard let colon = trimmed.firstIndex(of: ":") else {
            switch trimmed {
            case "end_slide": return .endSlide
            case "pause": return .pause
            case "reset_layout": return .resetLayout
            case "jump_to_middle": return .jumpToMiddle
            case "newline", "new_line": return .newLines(1)
            default:
                return Self.isName(trimmed) && Self.known.contains(trimmed) ? .ignored(trimmed) : .comment
            }
        }
        let name = String(trimmed[..<colon]).trimming(" \t")
        // The command's value as libyaml reads `name: value` (quoting,
        // block scalars, flow lists); nil when it is not YAML.
        let value = { (try? YAMLNode.parse(trimmed))?.entries?.first?.value }
        switch name {
        case "speaker_note", "speaker_notes":
            // A note that is not YAML (`Don't: forget`) is its text as written.
            let text = value()?.words.joined(separator: " ") ?? String(trimmed[trimmed.index(after: colon)...])
            return .speakerNote(text.trimming(" \t\n"))
        case "column_layout":
            let numbers = value().map { $0.text == nil ? $0.words : [] }?.map { Int($0) } ?? []
            guard !numbers.isEmpty, numbers.allSatisfy({ ($0 ?? 0) > 0 }) else { return .ignored(name) }
            return .columnLayout(numbers.compactMap { $0 }.map { min($0, Self.maximumRatio) })
        case "snippet_output":
            let id = value()?.text?.trimming(" \t\n") ?? ""
            return id.isEmpty || id.contains(where: \.isWhitespace) ? .ignored(name) : .snippetOutput(id)
        case "column":
            guard let index = value()?.text.flatMap({ Int($0) }), index >= 0 else { return .ignored(name) }
            return .column(index)
        case "newlines", "new_lines":
            guard let count = value()?.text.flatMap({ Int($0) }), count >= 0 else { return .ignored(name) }
            return .newLines(min(count, 100))
        default:
            return Self.isName(name) ? .ignored(name) : .comment
        }
    }

    /// The largest column ratio taken as written.
    public static let maximumRatio = 1000

    /// presenterm's other commands, which change a look this reader does
    /// not have (font sizes, alignment, lists revealed item by item, a
    /// slide's footer, including other files, skipping a slide).
    private static let known: Set<String> = [
        "font_size", "alignment", "incremental_lists", "list_item_newlines", "no_footer", "include",
        "skip_slide", "snippet_output", "end_slide_shorthand",
    ]

    private static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { $0 == "_" || ("a"..."z").contains($0) }
    }
}

extension String {
    /// The string without `characters` at either end.
    func trimming(_ characters: String) -> String {
        let set = Set(characters)
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
