import NeonCore
import NeonTUI

/// The room's questions as this reader knows them (the welcome's, then
/// each `question`), the one-line prompt a question is typed in (`c`) and
/// the list of them (`C`). It draws a mark in the gutter beside each
/// question's passage: `?` while it is open, `✓` once answered.
public struct QuestionPart: Equatable, Sendable {
    /// A question being typed, with the passage it will be anchored to.
    public struct Prompt: Equatable, Sendable {
        public var text = ""
        public var anchor: Anchor
        public var length: Int
    }

    public internal(set) var all: [QuestionInfo] = []
    public internal(set) var prompt: Prompt?
    /// The list is open on this row (an index into `all`), else nil.
    public internal(set) var selected: Int?

    public init() {}

    public var isListOpen: Bool { selected != nil }

    mutating func welcomed(_ welcome: Welcome) {
        all = welcome.questions ?? []
        if let row = selected { selected = all.isEmpty ? nil : min(row, all.count - 1) }
    }

    /// A question was asked, answered or moved; returns whether it is new
    /// to this reader.
    mutating func received(_ question: QuestionInfo) -> Bool {
        if let index = all.firstIndex(where: { $0.number == question.number }) {
            all[index] = question
            return false
        }
        all.append(question)
        all.sort { $0.number < $1.number }
        return true
    }

    /// Another document: its questions went with the old one.
    mutating func clear() {
        all = []
        selected = nil
    }

    // MARK: The prompt

    mutating func begin(at anchor: Anchor, length: Int) {
        prompt = Prompt(anchor: anchor, length: length)
    }

    mutating func edit(appending text: String? = nil, deleteBackward: Bool = false) {
        if deleteBackward, prompt?.text.isEmpty == false { prompt?.text.removeLast() }
        if let text { prompt?.text += text.filter { !$0.isNewline && !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } } }
    }

    mutating func cancel() { prompt = nil }

    // MARK: The list

    mutating func openList() { selected = all.isEmpty ? nil : all.count - 1 }

    mutating func closeList() { selected = nil }

    mutating func select(by step: Int) {
        guard let row = selected, !all.isEmpty else { return }
        selected = min(max(row + step, 0), all.count - 1)
    }

    /// The selected question while the list is open.
    public var chosen: QuestionInfo? { selected.flatMap { all.indices.contains($0) ? all[$0] : nil } }

    // MARK: Drawing

    /// Gutter marks by layout row: each question's first row, an open one
    /// winning a row it shares with an answered one.
    func markers(in layout: Layout, theme: Theme) -> [Int: DocumentView.GutterMarker] {
        var out: [Int: DocumentView.GutterMarker] = [:]
        for question in all.sorted(by: { $0.answered && !$1.answered }) {
            guard let rows = layout.rows(of: question.passage) ?? layout.rows(of: DocumentMatch(
                block: question.anchor.block, characters: question.anchor.offset..<question.anchor.offset + 1)) else { continue }
            out[rows.lowerBound] = Self.marker(for: question, theme: theme)
        }
        return out
    }

    /// The marks beside the slide `slides` shows in `page`, at its right
    /// edge as the pointers' are (a pointer's mark wins a row it shares).
    func renderMarks(on slides: SlidePane, pointers: PointerPart, in page: Rect, theme: Theme, into buffer: inout Buffer) {
        guard let layout = slides.layout, !page.isEmpty else { return }
        let area = slides.frame(in: page)
        let pointed = Set(pointers.all.compactMap { $0.passage.flatMap { layout.rows(of: $0)?.lowerBound } })
        for question in all.sorted(by: { $0.answered && !$1.answered }) {
            guard let row = layout.rows(of: question.passage)?.lowerBound, !pointed.contains(row),
                  row >= slides.top, row < slides.top + area.height else { continue }
            let marker = Self.marker(for: question, theme: theme)
            buffer.set(marker.symbol, x: page.maxX - 1, y: area.y + row - slides.top, style: marker.style)
        }
    }

    static func marker(for question: QuestionInfo, theme: Theme) -> DocumentView.GutterMarker {
        question.answered
            ? DocumentView.GutterMarker(theme.ascii ? "+" : "✓", style: theme.muted)
            : DocumentView.GutterMarker("?", style: theme.strong)
    }

    /// One line of the list: the question's number, asker and text.
    static func line(for question: QuestionInfo) -> String {
        let state = question.answered ? " (answered by \(question.answeredBy ?? "?"))" : ""
        return "#\(question.number) \(question.name): \(question.text)\(state)"
    }

    /// The list in a box over `area`, the selected question reversed, the
    /// newest at the bottom, scrolled to keep the selection in view.
    func renderList(in area: Rect, theme: Theme, into buffer: inout Buffer) {
        guard let selected, area.width >= 4, area.height >= 3 else { return }
        let height = min(area.height, all.count + 3)
        let box = Rect(x: area.x, y: area.maxY - height, width: area.width, height: height)
        buffer.fill(box, style: theme.background)
        BorderBox(title: "Questions", theme: theme).render(in: box, into: &buffer)
        let inner = BorderBox.inner(of: box)
        let shown = max(inner.height - 1, 0)
        let first = min(max(selected - shown + 1, 0), max(all.count - shown, 0))
        for (offset, index) in (first..<min(first + shown, all.count)).enumerated() {
            let question = all[index]
            let marker = Self.marker(for: question, theme: theme)
            var style = question.answered ? theme.muted : theme.text
            if index == selected { style = style.patched(with: Style(reverse: true)) }
            let y = inner.y + offset
            buffer.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), style: style)
            buffer.set(marker.symbol, x: inner.x, y: y, style: index == selected ? style : marker.style)
            buffer.write(Self.line(for: question), x: inner.x + 2, y: y, style: style, maxWidth: max(inner.width - 2, 0),
                         ellipsis: theme.glyphs.ellipsis)
        }
        buffer.write("Enter goes there · a answered · Esc closes", x: inner.x, y: inner.maxY - 1, style: theme.muted,
                     maxWidth: inner.width, ellipsis: theme.glyphs.ellipsis)
    }
}
