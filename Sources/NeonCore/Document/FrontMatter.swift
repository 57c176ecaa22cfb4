/// A presentation's YAML front matter, as presenterm reads it at the top of
/// a deck, read with libyaml (quoting, block scalars and lists, `authors:
/// [a, b]`, as YAML says):
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
        // Read by libyaml: a front matter that is not a YAML mapping of
        // plain keys is no front matter, and the text is shown as written.
        guard let yaml = try? YAMLNode.parse(lines[1..<end].joined(separator: "\n")), let entries = yaml.entries else { return nil }
        var fields: [(key: String, value: [String])] = []
        for entry in entries {
            guard let key = entry.key.text, !key.isEmpty, !key.contains(" ") else { return nil }
            // A block scalar's lines are one line of the intro.
            fields.append((key, entry.value.words.map { $0.split(whereSeparator: \.isNewline).joined(separator: " ") }.filter { !$0.isEmpty }))
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
}
