/// A parsed document: blocks of plain text grouped into sections (tabs).
///
/// Parsing never fails for Markdown and plain text; a catalog fails with a
/// `NeonError` that names the problem. Text that is empty or only
/// whitespace gives an empty document in every format: one section titled by
/// the document's title, and no blocks.
public struct Document: Equatable, Sendable {
    public let title: String
    public let format: DocumentFormat
    public let blocks: [Block]
    /// At least one section; section `i` holds the blocks from
    /// `sections[i].firstBlock` up to the next section's first block.
    public let sections: [Section]

    init(title: String, format: DocumentFormat, blocks: [Block], sections: [Section]) {
        self.title = title
        self.format = format
        self.blocks = blocks
        self.sections = sections
    }

    /// How this build numbers blocks (docs/PROTOCOL.md, "Blocks"): the
    /// Markdown parser with its version and extensions, and the version of
    /// the numbering rules for every format. Sent as `parser` with every
    /// document; anchors mean the same text only between equal identities.
    public static let parserIdentity = MarkdownReader.identity

    public static func parse(title: String, format: DocumentFormat,
                             text: String) throws(NeonError) -> Document {
        switch format {
        case .markdown:
            return MarkdownReader.read(title: title, text: text)
        case .text:
            return plainText(title: title, source: SourceText(text))
        case .catalog:
            return try catalog(title: title, text: text)
        }
    }
}
