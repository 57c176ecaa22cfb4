/// Collects blocks and sections while a parser walks its source, keeping
/// each block's section index and every section title usable as a tab.
struct DocumentBuilder {
    private let title: String
    private var blocks: [Block] = []
    private var sections: [Section] = []

    init(title: String) {
        self.title = title
    }

    /// Starts a section whose first block is the next one appended.
    mutating func startSection(titled sectionTitle: String) {
        var name = SourceText.singleLine(sectionTitle)
        if name.isEmpty { name = "Section \(sections.count + 1)" }
        sections.append(Section(title: name, firstBlock: blocks.count))
    }

    /// Appends a block to the current section, first starting a section
    /// titled by the document's title when there is none yet.
    mutating func append(_ kind: BlockKind, text: String, indent: BlockIndent = .none,
                         styles: [InlineRun] = [], isTight: Bool = false, links: [LinkTarget] = [], fence: CodeFence? = nil) {
        if sections.isEmpty { startSection(titled: title) }
        blocks.append(Block(kind: kind, text: text, section: sections.count - 1, indent: indent,
                            styles: styles, isTight: isTight && !blocks.isEmpty, links: links, fence: fence))
    }

    /// The document; an empty one has a single section, titled by the
    /// document's title, and no blocks.
    mutating func document(format: DocumentFormat) -> Document {
        if sections.isEmpty { startSection(titled: title) }
        return Document(title: title, format: format, blocks: blocks, sections: sections)
    }
}
