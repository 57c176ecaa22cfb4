import NeonTUI

extension ReaderModel {
    /// What a key does in the document (every reader mode: read, join,
    /// present, follow).
    public enum DocumentAction: Hashable, Sendable {
        case rowDown, rowUp, nextPage, previousPage, halfPageDown, halfPageUp, top, bottom, backToTop
        case nextTab, previousTab, chooseTab
        case codeRight, codeLeft
        case search, nextMatch, previousMatch, cancelSearch
        case follow, summon, point, clearPointer, goToPointer
        case openDraft, closeDraft, toggleNotes, runSnippets
        case reconnect, mouse, showKeys, quit
        case askQuestion, listQuestions
    }

    /// What a key does while slides show; keys this map leaves free do what
    /// they do in the document.
    public enum SlideAction: Hashable, Sendable {
        case forward, backward, typeDigit, goToTyped, cancelTyped
        case nextSlide, previousSlide, firstSlide, lastSlide
        case rowDown, rowUp, halfPageDown, halfPageUp, slideTop
    }

    /// The lines of the reader's key list that document and slide keys
    /// share.
    enum Help {
        static let row = HelpOverlay.Line(key: "j k ↓ ↑", action: "scroll a row")
        static let halfPage = HelpOverlay.Line(key: "d u", action: "half a page")
        static let backToTop = HelpOverlay.Line(key: DocumentPane.backToTopKey, action: "back to top (eased)")
        static let keysAndClose = HelpOverlay.Line(key: "? Esc", action: "this help / close")
    }

    /// The document's keys, in the order the key list gives them.
    public static let documentKeys = KeyMap<DocumentAction>([
        .init([.character("j"), .down, .enter, .ctrl("n")], .rowDown, help: Help.row),
        .init([.character("k"), .up, .ctrl("p")], .rowUp, help: Help.row),
        .init([.character(" "), .pageDown, .ctrl("f")], .nextPage, help: .init(key: "space b PgDn PgUp", action: "scroll a page")),
        .init([.character("b"), .pageUp, .ctrl("b")], .previousPage, help: .init(key: "space b PgDn PgUp", action: "scroll a page")),
        .init([.character("d"), .ctrl("d")], .halfPageDown, help: Help.halfPage),
        .init([.character("u"), .ctrl("u")], .halfPageUp, help: Help.halfPage),
        .init([.character("g"), .home, .character("<")], .top, help: .init(key: "g G Home End", action: "top / bottom")),
        .init([.character("G"), .end, .character(">")], .bottom, help: .init(key: "g G Home End", action: "top / bottom")),
        .init([.character(Character(DocumentPane.backToTopKey))], .backToTop, help: Help.backToTop),
        .init([.tab], .nextTab, help: .init(key: "Tab S-Tab 1–9", action: "choose a section")),
        .init([.backTab], .previousTab, help: .init(key: "Tab S-Tab 1–9", action: "choose a section")),
        .init((1...9).map { .character(Character(String($0))) }, .chooseTab,
              help: .init(key: "Tab S-Tab 1–9", action: "choose a section")),
        .init([.left, .character("h")], .codeLeft, help: .init(key: "← → h l", action: "scroll wide code sideways")),
        .init([.right, .character("l")], .codeRight, help: .init(key: "← → h l", action: "scroll wide code sideways")),
        .init([.character("/")], .search, help: .init(key: "/ n N", action: "search, next, previous")),
        .init([.character("n")], .nextMatch, help: .init(key: "/ n N", action: "search, next, previous")),
        .init([.character("N")], .previousMatch, help: .init(key: "/ n N", action: "search, next, previous")),
        .init([.character("f")], .follow, help: .init(key: "f", action: "follow the presenter")),
        .init([.character("F")], .summon, help: .init(key: "F", action: "presenting: bring every detached follower back")),
        .init([.character("p")], .point, help: pointerHelp),
        .init([.character("P")], .clearPointer, help: pointerHelp),
        .init([.character("'")], .goToPointer, help: pointerHelp),
        .init([.character("e")], .openDraft, help: .init(key: "e E", action: "edit the room's draft / close it")),
        .init([.character("E")], .closeDraft, help: .init(key: "e E", action: "edit the room's draft / close it")),
        .init([.character(NotesPanel.key)], .toggleNotes,
              help: .init(key: String(NotesPanel.key), action: "show or hide your speaker notes (present)")),
        .init([.ctrl("e")], .runSnippets, help: .init(key: "Ctrl-E", action: "run the +exec snippets shown (present -x)")),
        .init([.character("r")], .reconnect, help: .init(key: "r", action: "reconnect")),
        .init(inputs: [.mouse], .mouse,
              help: .init(key: "mouse", action: "wheel scrolls, click tabs and ↑ top; click a row to point at it")),
        .init([.character("?"), .function(1)], .showKeys, help: Help.keysAndClose),
        .init([.escape], .cancelSearch, help: Help.keysAndClose),
        .init([.character("q"), .ctrl("c")], .quit, help: .init(key: "q", action: "quit")),
        .init([.character("c")], .askQuestion, help: questionHelp),
        .init([.character("C")], .listQuestions, help: questionHelp),
    ])

    private static let questionHelp = HelpOverlay.Line(
        key: "c C", action: "ask a question on the passage at the top (or the search match) / list the room's questions")

    private static let pointerHelp = HelpOverlay.Line(
        key: "p P '", action: "point at the passage at the top (or the search match) / clear / go to the presenter's pointer")

    /// The keys of slides, in the order the key list gives them; those
    /// that scroll within a tall slide share the document's lines.
    public static let slideKeys = KeyMap<SlideAction>([
        .init([.right, .character(" "), .character("l"), .pageDown], .forward,
              help: .init(key: "→ space l PgDn", action: "slides: the next step, or the next slide")),
        .init([.left, .character("h"), .pageUp, .backspace], .backward,
              help: .init(key: "← h PgUp", action: "slides: the step before, or the slide before")),
        .init((0...9).map { .character(Character(String($0))) }, .typeDigit, help: goToSlideHelp),
        .init([.enter], .goToTyped, help: goToSlideHelp),
        .init([.tab], .nextSlide, help: slideStepsHelp),
        .init([.backTab], .previousSlide, help: slideStepsHelp),
        .init([.character("g"), .home], .firstSlide, help: slideStepsHelp),
        .init([.character("G"), .end], .lastSlide, help: slideStepsHelp),
        .init([.character("j"), .down, .ctrl("n")], .rowDown, help: Help.row),
        .init([.character("k"), .up, .ctrl("p")], .rowUp, help: Help.row),
        .init([.character("d"), .ctrl("d")], .halfPageDown, help: Help.halfPage),
        .init([.character("u"), .ctrl("u")], .halfPageUp, help: Help.halfPage),
        .init([.character(Character(DocumentPane.backToTopKey))], .slideTop, help: Help.backToTop),
        .init([.escape], .cancelTyped, help: Help.keysAndClose),
    ])

    private static let goToSlideHelp = HelpOverlay.Line(key: "3 Enter", action: "slides: go to slide 3")
    private static let slideStepsHelp = HelpOverlay.Line(key: "Tab S-Tab g G", action: "slides: next / previous / first / last slide")

    /// The reader's key list: the document's keys, then the lines only
    /// slides add.
    public static let helpLines: [HelpOverlay.Line] = (documentKeys.helpLines + slideKeys.helpLines).uniqued()
}
