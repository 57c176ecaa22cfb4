/// A document as a deck of slides, as presenterm divides one: at each
/// `<!-- end_slide -->` when the document has them (the separator belongs
/// to the slide it ends; comment blocks after the last one belong to the
/// last slide), else one slide per section. A slide's `<!-- pause -->`
/// comments divide it into steps revealed one after another, and so does a
/// code block that lights its lines in groups (```` ```rust {1|3|all} ````,
/// presenterm's dynamic highlighting): its first group is lit when the block
/// is shown, each further group one step later, in the slide's order. The
/// server and every client divide a document alike, so "slide 3, step 2"
/// means the same on every terminal (docs/PROTOCOL.md, "Slides").
public struct SlideDeck: Equatable, Sendable {
    public struct Slide: Equatable, Sendable {
        /// Where one of a slide's steps begins: at a pause block, which
        /// reveals what follows it, or at a code block, which lights its
        /// next group of lines.
        public enum Stop: Equatable, Sendable {
            case pause(Int)
            case lines(Int)
        }

        /// The slide's blocks, its closing separator included.
        public let blocks: Range<Int>
        /// Its first heading, else its first words, else "Slide N".
        public let title: String
        /// Where each step after the first begins, in the slide's order.
        public let stops: [Stop]

        /// The slide's pause blocks, in order.
        public var pauses: [Int] {
            stops.compactMap { if case let .pause(block) = $0 { block } else { nil } }
        }

        /// How many steps the slide is revealed in: one more than its stops.
        public var steps: Int { stops.count + 1 }

        /// The first block not shown at `step` (nil: all are).
        public func hidden(from step: Int) -> Int? {
            for stop in stops.dropFirst(max(step, 0)) {
                if case let .pause(block) = stop { return block }
            }
            return nil
        }

        /// The group of lines each of the slide's code blocks with groups
        /// lights at `step`, by block: 0 until its first stop is passed.
        public func litGroups(at step: Int) -> [Int: Int] {
            var groups: [Int: Int] = [:]
            for (index, stop) in stops.enumerated() {
                guard case let .lines(block) = stop else { continue }
                groups[block, default: 0] += index < step ? 1 : 0
            }
            return groups
        }
    }

    /// At least one slide; together they hold every block, in order.
    public let slides: [Slide]
    /// Whether the document divides itself with `<!-- end_slide -->`.
    public let isSeparated: Bool

    public init(_ document: Document) {
        let commands = document.blocks.map { block -> CommentCommand? in
            if case .htmlBlock = block.kind { return CommentCommand(html: block.text) }
            return nil
        }
        var ranges: [Range<Int>] = []
        isSeparated = commands.contains(.endSlide)
        if isSeparated {
            var start = 0
            for (index, command) in commands.enumerated() where command == .endSlide {
                ranges.append(start..<index + 1)
                start = index + 1
            }
            if start < commands.count {
                if commands[start...].contains(where: { $0 == nil }) {
                    ranges.append(start..<commands.count)
                } else if let last = ranges.popLast() {
                    ranges.append(last.lowerBound..<commands.count)
                }
            }
        } else {
            let sections = document.sections
            for (index, section) in sections.enumerated() {
                let end = index + 1 < sections.count ? sections[index + 1].firstBlock : document.blocks.count
                ranges.append(section.firstBlock..<max(end, section.firstBlock))
            }
        }
        if ranges.isEmpty { ranges = [0..<document.blocks.count] }
        slides = ranges.enumerated().map { number, range in
            let heading = range.first { if case .heading = document.blocks[$0].kind { return true } else { return false } }
            let words = range.first { commands[$0] == nil && !document.blocks[$0].text.isEmpty }
            var title = (heading ?? words).map { SourceText.singleLine(document.blocks[$0].text) } ?? ""
            if heading == nil, title.count > 40 { title = String(title.prefix(39)) + "…" }
            if title.isEmpty { title = "Slide \(number + 1)" }
            let stops = range.flatMap { block -> [Slide.Stop] in
                if commands[block] == .pause { return [.pause(block)] }
                guard case .codeBlock = document.blocks[block].kind, let groups = document.blocks[block].fence?.highlightGroups,
                      groups.count > 1 else { return [] }
                return Array(repeating: .lines(block), count: groups.count - 1)
            }
            return Slide(blocks: range, title: title, stops: stops)
        }
    }

    /// The slide that holds `block` (blocks out of range: the first or last).
    public func slide(containing block: Int) -> Int {
        var low = 0
        var high = slides.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if slides[mid].blocks.lowerBound <= block { low = mid } else { high = mid - 1 }
        }
        return low
    }
}

/// Where a member is in a deck (`progress` and reader objects, added after
/// v1): slide `slide` (from 0) of `slides`, revealed to step `step` (from 0)
/// of its `steps`.
public struct SlidePlace: Codable, Equatable, Hashable, Sendable {
    public var slide: Int
    public var slides: Int
    public var step: Int
    public var steps: Int

    public init(slide: Int, slides: Int, step: Int, steps: Int) {
        self.slide = slide; self.slides = slides; self.step = step; self.steps = steps
    }

    /// The deck's progress at this place: the slides reached, this one
    /// included, of all of them.
    public var progress: Double { Double(slide + 1) / Double(max(slides, 1)) }

    /// `progress` as a whole percent, rounded down.
    public var percent: Int { (slide + 1) * 100 / max(slides, 1) }
}

extension Document {
    /// The document made of `blocks` (indices of this one) alone, in one
    /// section titled `title`: what a slide, or a column of one, lays out.
    /// Its block `i` is this document's block `blocks[i]`.
    public func slice(_ blocks: [Int], title: String) -> Document {
        let picked = blocks.filter { self.blocks.indices.contains($0) }.enumerated().map { index, original in
            let block = self.blocks[original]
            return Block(kind: block.kind, text: block.text, section: 0, indent: block.indent, styles: block.styles,
                         isTight: index > 0 && block.isTight, fence: block.fence)
        }
        return Document(title: title, format: format, blocks: picked, sections: [Section(title: title, firstBlock: 0)])
    }
}
