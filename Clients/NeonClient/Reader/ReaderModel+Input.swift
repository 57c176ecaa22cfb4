import NeonCore
import NeonTUI

extension ReaderModel {
    /// A key, mouse action or paste: the key list, the search being typed
    /// or the focused draft panel take it first; then slides, then the
    /// document's bindings say what it does.
    public mutating func handle(_ event: InputEvent, at time: Duration) -> [ClientCommand] {
        if case .key = event { notices.keyPressed() }
        if keyList.isOpen {
            keyList.handle(event, over: helpOverlay(theme: .neon), columns: columns, rows: rows)
            return []
        }
        if search.editing { return editSearch(event, at: time) }
        if questions.prompt != nil { return editQuestion(event, at: time) }
        if questions.isListOpen { return questionListInput(event, at: time) }
        if draftPanel == .focused { return draftPanelInput(event, at: time) }
        if slides.isOn, case let .key(key) = event, let out = slideKey(key, at: time) { return out }
        guard let action = Self.documentKeys.action(for: event) else { return [] }
        return perform(action, on: event, at: time)
    }

    /// Input while the draft panel has the keys: the draft editor's
    /// bindings, except that leaving gives the keys back to the document.
    private mutating func draftPanelInput(_ event: InputEvent, at time: Duration) -> [ClientCommand] {
        switch DraftModel.keys.action(for: event) {
        case .leave:
            draftPanel = .open
            return []
        case .showKeys:
            keyList.open()
            return []
        case .copy:
            // The panel's notices are the reader's.
            let out = draft.copy(at: time)
            if let notice = draft.notices.current { notices.note(notice.text, error: notice.isError, at: time) }
            return out
        default:
            return draft.handle(event, at: time)
        }
    }

    /// The terminal the draft panel's Ctrl-O copies through (OSC 52); the
    /// shell reads it from the environment.
    public var clipboardTerminal: ClipboardCopy.Terminal {
        get { draft.terminal }
        set { draft.terminal = newValue }
    }

    private mutating func perform(_ action: DocumentAction, on event: InputEvent, at time: Duration) -> [ClientCommand] {
        let page = max(viewportRows - 1, 1)
        switch action {
        case .quit: return [.quit]
        case .rowDown: return scroll(by: 1, at: time)
        case .rowUp: return scroll(by: -1, at: time)
        case .nextPage: return scroll(by: page, at: time)
        case .previousPage: return scroll(by: -page, at: time)
        case .halfPageDown: return scroll(by: page / 2, at: time)
        case .halfPageUp: return scroll(by: -(page / 2), at: time)
        case .top: return scroll(to: 0, at: time)
        case .bottom: return scroll(to: maximumTop, at: time)
        case .backToTop: return backToTop(at: time)
        case .codeRight:
            pane.shiftCode(by: Self.codeShiftStep)
            return []
        case .codeLeft:
            pane.shiftCode(by: -Self.codeShiftStep)
            return []
        case .nextTab: return chooseTab(currentSection + 1, at: time)
        case .previousTab: return chooseTab(currentSection - 1, at: time)
        case .chooseTab:
            guard case let .key(.character(digit)) = event, let number = digit.wholeNumberValue else { return [] }
            return chooseTab(number - 1, at: time)
        case .search:
            beginSearch()
            return []
        case .nextMatch: return nextMatch(forward: true, at: time)
        case .previousMatch: return nextMatch(forward: false, at: time)
        case .follow: return attach(at: time)
        case .summon: return summonFollowers(at: time)
        case .showKeys:
            keyList.open()
            return []
        case .openDraft: return openDraft(focus: true, at: time)
        case .closeDraft: return openDraft(focus: false, close: true, at: time)
        case .toggleNotes: return toggleNotes(at: time)
        case .runSnippets: return runSnippets(at: time)
        case .point: return pointAtTop(at: time)
        case .clearPointer: return clearPointer(at: time)
        case .goToPointer: return goToPointer(at: time)
        case .cancelSearch:
            cancelSearch()
            return []
        case .reconnect:
            if case .closed = connection { return [.reconnect] }
            return []
        case .mouse:
            guard case let .mouse(mouse) = event else { return [] }
            return click(mouse, at: time)
        case .askQuestion: return beginQuestion(at: time)
        case .listQuestions: return openQuestions(at: time)
        }
    }

    /// Columns one ← or → scrolls wide code by.
    static let codeShiftStep = 8

    private mutating func click(_ mouse: MouseEvent, at time: Duration) -> [ClientCommand] {
        switch mouse.action {
        case .wheelDown where slides.isOn:
            slides.scroll(to: slides.top + 3)
            return slideMoved(true, at: time)
        case .wheelUp where slides.isOn:
            slides.scroll(to: slides.top - 3)
            return slideMoved(true, at: time)
        case .wheelDown: return scroll(by: 3, at: time)
        case .wheelUp: return scroll(by: -3, at: time)
        case .press(.left):
            let placement = indicatorPlacement(at: time)
            pane.inputBegan(at: time)
            if placement.goesToTop(x: mouse.x, y: mouse.y) {
                return backToTop(at: time)
            }
            if geometry.tabs.contains(x: mouse.x, y: mouse.y),
               let section = tabs.section(atColumn: mouse.x, width: geometry.columns) {
                return chooseTab(section, at: time)
            }
            if slides.isOn, let layout = slides.layout, let document = pane.document,
               let cell = slides.row(atScreen: mouse.x, y: mouse.y, in: geometry.page) {
                guard let passage = PointerPart.passage(at: layout.anchor(forRow: cell.row, x: cell.column), in: document) else { return [] }
                return point(passage.anchor, length: passage.length, at: time)
            }
            let text = geometry.document
            if !slides.isOn, text.contains(x: mouse.x, y: mouse.y), pane.layout != nil, pane.top + mouse.y - text.y < contentRows {
                return point(atRow: pane.top + mouse.y - text.y, at: time)
            }
            return []
        case .release:
            pane.inputEnded(at: time)
            return []
        default:
            return []
        }
    }

    /// Opens the draft panel (focused for typing, the cursor at the end of
    /// the draft when the panel was closed), or closes it.
    private mutating func openDraft(focus: Bool, close: Bool = false, at time: Duration) -> [ClientCommand] {
        let opening = !draftPanel.isOpen && !close
        draftPanel = close ? .closed : focus ? .focused : .open
        fitPane()
        pane.stop()
        var out = moved(at: time)
        if opening { out += draft.moveToEnd() }
        return out
    }

    /// Keeps the tab header scrolled to the current tab and the draft
    /// panel's editor where the geometry puts it.
    public mutating func settle() {
        settleOutputs()
        draft.panel = draftPanel.isOpen ? geometry.draft : nil
        if draftPanel.isOpen { draft.settle() }
        guard pane.layout != nil else { tabs.scrollToStart(); return }
        tabs.settle(current: currentSection, width: geometry.columns)
    }

    private mutating func editSearch(_ event: InputEvent, at time: Duration) -> [ClientCommand] {
        switch event {
        case .key(.enter): return commitSearch(at: time)
        case .key(.escape), .key(.ctrl("c")): cancelSearch()
        case .key(.backspace): editSearch(deleteBackward: true)
        case let .key(.character(c)): editSearch(appending: String(c))
        case let .paste(text): editSearch(appending: text.filter { !$0.isNewline })
        default: break
        }
        return []
    }

    /// When something on screen will next change by itself, so the runtime
    /// sleeps until then: a running animation, a chosen tab's hold running
    /// out, a spinner, a swinging title, the wheel's 3 s timer, a notice
    /// expiring, a place waiting for its turn to be sent.
    public func nextWake(after time: Duration) -> Duration? {
        var next: [Duration] = []
        if pane.animation != nil { next.append(time + .milliseconds(16)) }
        if let held = tabs.spy.hold, held.until > time { next.append(held.until) }
        if connection == .connecting || pane.layout == nil { next.append(time + .milliseconds(100)) }
        if let change = pane.indicator.nextChange(after: time), pane.layout != nil { next.append(change) }
        if let wake = notices.nextWake(after: time) { next.append(wake) }
        if swings { next.append(time + .milliseconds(100)) }
        if draftPanel.isOpen, let wake = draft.nextWake(after: time) { next.append(wake) }
        if let due = outbox.due { next.append(max(due, time)) }
        return next.min()
    }

    /// Whether a title, the current tab's title or a name on screen is wider
    /// than its field.
    private var swings: Bool {
        let title = pane.layout?.document.title ?? "NeonSync"
        if DisplayWidth.of(title) > titleFields.title.width || currentTabSwings { return true }
        guard geometry.showsPresence else { return false }
        return presence.readers.contains { DisplayWidth.of($0.name) > 12 }
    }

    /// Whether the current tab's title is wider than its field, so that it
    /// swings (`SectionTabs.motion`).
    private var currentTabSwings: Bool {
        guard pane.layout != nil else { return false }
        return tabs.motion(current: currentSection, width: geometry.columns)?.swings ?? false
    }
}
