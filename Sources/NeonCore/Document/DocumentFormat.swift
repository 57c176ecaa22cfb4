/// How a document's text is read.
public enum DocumentFormat: String, Codable, Sendable, CaseIterable {
    /// CommonMark-style Markdown: ATX and setext headings start sections.
    case markdown
    /// Plain text: one section, paragraphs split at blank lines.
    case text
    /// The tab-header seed's JSON: `[{"type": …, "body": [{"name", "headline", …}]}]`.
    case catalog
}
