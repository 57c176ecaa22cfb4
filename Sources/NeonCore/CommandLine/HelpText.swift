/// Plain-text layout for `--help`: paragraphs wrapped at word boundaries
/// and two-column tables of terms and their descriptions.
public enum HelpText {
    /// `text` wrapped to `width` columns, every line indented by `indent`.
    public static func wrap(_ text: String, width: Int, indent: Int) -> [String] {
        let room = max(width - indent, 20)
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= room {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        let pad = String(repeating: " ", count: indent)
        return lines.map { pad + $0 }
    }

    /// Terms in a column two spaces in, their descriptions wrapped beside
    /// them (or below a term too long to leave room).
    public static func table(_ rows: [(String, String)], width: Int) -> [String] {
        let column = min((rows.map(\.0.count).max() ?? 0) + 4, 24)
        var out: [String] = []
        for (term, description) in rows {
            var wrapped = wrap(description, width: width, indent: column)
            let head = "  " + term
            if head.count + 2 <= column, !wrapped.isEmpty {
                wrapped[0] = head + String(wrapped[0].dropFirst(head.count))
                out += wrapped
            } else {
                out.append(head)
                out += wrapped
            }
        }
        return out
    }
}
