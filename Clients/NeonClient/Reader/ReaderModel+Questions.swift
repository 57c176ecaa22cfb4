import NeonCore
import NeonTUI

extension ReaderModel {
    /// The passage a pointer or a question takes: the current search match
    /// when it is on screen, else the passage at the top of the screen (of
    /// the slide, while slides show).
    func passageAtTop() -> (anchor: Anchor, length: Int)? {
        guard let layout = pane.layout else { return nil }
        if slides.isOn, let slide = slides.layout {
            return PointerPart.passage(at: slide.anchor(forRow: slides.top), in: layout.document)
        }
        if let current = search.current, search.currentIsShown(on: pane.visibleRows), !search.matches[current].place.inName {
            let match = search.matches[current].place
            return (Anchor(block: match.block, offset: match.characters.lowerBound), match.characters.count)
        }
        return PointerPart.passage(at: layout.anchor(forRow: pane.top), in: layout.document)
    }

    /// `c`: opens the question prompt on the passage at the top of the
    /// screen (or the search match on screen).
    public mutating func beginQuestion(at time: Duration) -> [ClientCommand] {
        guard connection == .joined, let passage = passageAtTop() else {
            notices.note(pane.layout == nil ? "no document yet: a question is asked on a passage of it"
                         : "not in the room yet: a question is for everyone in it", error: true, at: time)
            return []
        }
        questions.begin(at: passage.anchor, length: passage.length)
        return []
    }

    /// The question's count and the room's limit, counted as the draft is.
    public var questionStatus: DraftStatus? {
        questions.prompt.map { draft.counter.status(of: $0.text) }
    }

    /// Input while the prompt is open: Enter posts, Esc cancels.
    mutating func editQuestion(_ event: InputEvent, at time: Duration) -> [ClientCommand] {
        switch event {
        case .key(.enter): return postQuestion(at: time)
        case .key(.escape), .key(.ctrl("c")): questions.cancel()
        case .key(.backspace): questions.edit(deleteBackward: true)
        case let .key(.character(c)): questions.edit(appending: String(c))
        case let .paste(text): questions.edit(appending: text)
        default: break
        }
        return []
    }

    /// Enter: sends the question, unless it is empty or over the limit
    /// (then the prompt stays, and says why).
    private mutating func postQuestion(at time: Duration) -> [ClientCommand] {
        guard let prompt = questions.prompt, let status = questionStatus else { return [] }
        if prompt.text.allSatisfy(\.isWhitespace) {
            notices.note("the question is empty: type it, then Enter (Esc cancels)", error: true, at: time)
            return []
        }
        if status.count > status.limit {
            notices.note("the question is \(status.count) characters, over the room's limit of \(status.limit): shorten it", error: true, at: time)
            return []
        }
        guard connection == .joined else {
            notices.note("not in the room: the question waits here until it is back (Enter sends it then)", error: true, at: time)
            return []
        }
        questions.cancel()
        return [.send(.ask(anchor: prompt.anchor, length: prompt.length, text: prompt.text))]
    }

    /// `C`: opens the list of the room's questions.
    public mutating func openQuestions(at time: Duration) -> [ClientCommand] {
        guard !questions.all.isEmpty else {
            notices.note("nobody asked a question yet; c asks one on the passage at the top", error: false, at: time)
            return []
        }
        questions.openList()
        return []
    }

    /// Input while the list is open: move, go to a passage, mark answered.
    mutating func questionListInput(_ event: InputEvent, at time: Duration) -> [ClientCommand] {
        switch event {
        case .key(.down), .key(.character("j")): questions.select(by: 1)
        case .key(.up), .key(.character("k")): questions.select(by: -1)
        case .key(.enter):
            guard let question = questions.chosen else { return [] }
            questions.closeList()
            return goToQuestion(question, at: time)
        case .key(.character("a")):
            guard let question = questions.chosen else { return [] }
            guard mode == .present || question.name == name else {
                notices.note("only \(question.name), who asked it, or the presenter can mark question #\(question.number) answered", error: true, at: time)
                return []
            }
            guard !question.answered, connection == .joined else { return [] }
            return [.send(.answered(question: question.number))]
        case .key(.escape), .key(.character("C")), .key(.character("q")):
            questions.closeList()
        default: break
        }
        return []
    }

    /// Scrolls to a question's passage, a third of the screen down (its
    /// slide, while slides show); a follower is detached.
    mutating func goToQuestion(_ question: QuestionInfo, at time: Duration) -> [ClientCommand] {
        let passage = question.passage
        if slides.isOn, let deck = slides.deck {
            var out = detachIfFollowing(at: time)
            let index = deck.slide(containing: passage.block)
            slides.go(to: index, step: deck.slides[index].steps - 1, in: pane.document)
            if let rows = slides.layout?.rows(of: passage) { slides.scroll(to: rows.lowerBound - slides.viewport / 3) }
            out += moved(at: time)
            return out
        }
        guard let layout = pane.layout else { return [] }
        let row = layout.rows(of: passage)?.lowerBound ?? layout.row(for: question.anchor)
        if row >= pane.top && row < pane.top + viewportRows { return [] }
        return scroll(to: row - viewportRows / 3, at: time)
    }

    /// A question came: asked (everyone is told who asks what), answered,
    /// or carried onto a new version of the document.
    mutating func questionReceived(_ question: QuestionInfo, at time: Duration) {
        let isNew = questions.received(question)
        let mine = question.by == presence.me
        if isNew {
            notices.note(mine ? "your question #\(question.number) is kept; everyone sees it (C lists them)"
                         : "\(question.name) asks: \(question.text) — C lists the questions", error: false, at: time)
        } else if question.answered, let by = question.answeredBy, by != name {
            notices.note("\(by) marked #\(question.number) answered (\(question.name): \(question.text))", error: false, at: time)
        }
    }
}
