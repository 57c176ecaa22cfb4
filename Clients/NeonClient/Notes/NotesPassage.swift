import NeonCore

/// The passage a presenter is on, as the speaker notes see it: the blocks
/// whose notes show, what the passage is called, and the title of what
/// comes next. In a document it is the section at the presenter's top.
public struct NotesPassage: Equatable, Sendable {
    /// "§2 Usage".
    public var title: String
    /// The blocks of the passage, in the published document.
    public var blocks: Range<Int>
    /// The title of the next section, if there is one.
    public var next: String?

    public init(title: String, blocks: Range<Int>, next: String?) {
        self.title = title
        self.blocks = blocks
        self.next = next
    }

    /// Section `index` of `document` (clamped to the sections there are).
    public static func section(_ index: Int, of document: Document) -> NotesPassage {
        let sections = document.sections
        let current = min(max(index, 0), sections.count - 1)
        let first = sections[current].firstBlock
        let end = current + 1 < sections.count ? sections[current + 1].firstBlock : document.blocks.count
        return NotesPassage(title: "§\(current + 1) \(sections[current].title)", blocks: first..<max(end, first),
                            next: current + 1 < sections.count ? sections[current + 1].title : nil)
    }

    /// Slide `index` of `deck` (clamped): the notes of all its steps.
    public static func slide(_ index: Int, of deck: SlideDeck) -> NotesPassage {
        let current = min(max(index, 0), deck.slides.count - 1)
        let slide = deck.slides[current]
        return NotesPassage(title: "slide \(current + 1) of \(deck.slides.count) · \(slide.title)", blocks: slide.blocks,
                            next: current + 1 < deck.slides.count ? deck.slides[current + 1].title : nil)
    }

    /// The texts of the notes of this passage, in order.
    public func notes(of all: [SpeakerNote]) -> [String] {
        all.filter { blocks.contains($0.block) }.map(\.text)
    }
}
