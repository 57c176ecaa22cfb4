/// A presentation's YAML front matter, as presenterm reads it at the top of
/// a deck:
///
/// ```
/// ---
/// title: Introducing _presenterm_
/// sub_title: A terminal slideshow tool
/// author: Matias
/// ---
/// ```
///
/// A presenting client turns it into the Markdown of an intro: the title a
/// heading, the subtitle in bold, the authors in italics, the event,
/// location and date as lines, any other key as `key: value`. The look keys
/// (`theme`, `options`) are settings, not content, and go. In a deck with
/// slide separators the intro is a slide of its own.
enum FrontMatter {
    /// The keys that set presenterm up rather than say something.
    static let settings: Set<String> = ["theme", "options"]

    /// `text` with its front matter as Markdown, or nil when it has none.
    static func converted(_ text: String) -> String? {
        guard text.hasPrefix("---\n") || text.hasPrefix("---\r\n") else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        }
        guard let end = lines.indices.dropFirst().prefix(80).first(where: { lines[$0] == "---" || lines[$0] == "..." }),
              end > 1 else { return nil }
        var fields: [(key: String, value: [String])] = []
        for line in lines[1..<end] {
            let trimmed = line.trimming(" \t")
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if !line.hasPrefix(" "), !line.hasPrefix("\t"), !line.hasPrefix("-"), let colon = line.firstIndex(of: ":") {
                let key = String(line[..<colon]).trimming(" \t")
                let value = unquoted(String(line[line.index(after: colon)...]).trimming(" \t"))
                guard !key.isEmpty, !key.contains(" ") else { return nil }
                fields.append((key, value.isEmpty ? [] : [value]))
            } else if let last = fields.indices.last {
                let item = trimmed.hasPrefix("- ") ? String(trimmed.dropFirst(2)) : trimmed
                fields[last].value.append(unquoted(item.trimming(" \t")))
            } else {
                return nil
            }
        }
        guard !fields.isEmpty else { return nil }
        var intro: [String] = []
        func value(_ key: String) -> [String]? { fields.first { $0.key == key }?.value }
        if let title = value("title")?.joined(separator: " "), !title.isEmpty { intro.append("# " + title) }
        if let sub = value("sub_title")?.joined(separator: " "), !sub.isEmpty { intro.append("**" + sub + "**") }
        let authors = (value("authors") ?? []) + (value("author") ?? [])
        if !authors.isEmpty { intro.append("*" + authors.joined(separator: ", ") + "*") }
        for key in ["event", "location", "date"] {
            if let line = value(key)?.joined(separator: " "), !line.isEmpty { intro.append(line) }
        }
        let shown: Set<String> = ["title", "sub_title", "author", "authors", "event", "location", "date"]
        for field in fields where !shown.contains(field.key) && !settings.contains(field.key) {
            intro.append("\(field.key): " + field.value.joined(separator: " "))
        }
        let rest = lines[(end + 1)...].joined(separator: "\n")
        let separated = rest.contains("<!-- end_slide -->") || rest.contains("<!--end_slide-->")
        return intro.joined(separator: "\n\n") + (separated ? "\n\n<!-- end_slide -->\n" : "\n") + rest
    }

    private static func unquoted(_ value: String) -> String {
        guard value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first else { return value }
        return String(value.dropFirst().dropLast())
    }
}
