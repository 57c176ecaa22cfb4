import NeonCore
import NeonTUI

extension ReaderModel {
    /// A key, mouse action or paste.
    public mutating func handle(_ event: InputEvent, at time: Duration) -> [ClientCommand] {
        if showHelp {
            helpInput(event)
            return []
        }
        if search.editing { return editSearch(event, at: time) }
        if draftFocused {
            switch event {
            case .key(.escape):
                draftFocused = false
                return []
            case let .key(key) where DraftModel.helpKeys.contains(key):
                openHelp()
                return []
            default:
                return draft.handle(event, at: time)
            }
        }
        switch event {
        case let .key(key): return press(key, at: time)
        case let .mouse(mouse): return click(mouse, at: time)
        case .paste: return []
        }
    }

    private mutating func press(_ key: Key, at time: Duration) -> [ClientCommand] {
        let page = max(viewportRows - 1, 1)
        switch key {
        case .character("q"), .ctrl("c"): return [.quit]
        case .character("j"), .down, .enter, .ctrl("n"): return scroll(by: 1, at: time)
        case .character("k"), .up, .ctrl("p"): return scroll(by: -1, at: time)
        case .character(" "), .pageDown, .ctrl("f"): return scroll(by: page, at: time)
        case .character("b"), .pageUp, .ctrl("b"): return scroll(by: -page, at: time)
        case .character("d"), .ctrl("d"): return scroll(by: page / 2, at: time)
        case .character("u"), .ctrl("u"): return scroll(by: -(page / 2), at: time)
        case .character("g"), .home, .character("<"): return scroll(to: 0, at: time)
        case .character("G"), .end, .character(">"): return scroll(to: maximumTop, at: time)
        case .character("t"): return backToTop(at: time)
        case .right, .character("l"):
            shiftCode(by: Self.codeShiftStep)
            return []
        case .left, .character("h"):
            shiftCode(by: -Self.codeShiftStep)
            return []
        case .tab: return chooseTab(currentSection + 1, at: time)
        case .backTab: return chooseTab(currentSection - 1, at: time)
        case let .character(c) where c.isASCII && c.isNumber && c != "0":
            return chooseTab(Int(String(c))! - 1, at: time)
        case .character("/"):
            beginSearch()
            return []
        case .character("n"): return nextMatch(forward: true, at: time)
        case .character("N"): return nextMatch(forward: false, at: time)
        case .character("f"): return attach(at: time)
        case .character("?"), .function(1):
            openHelp()
            return []
        case .character("e"):
            return openDraft(focus: true, at: time)
        case .character("E"):
            return openDraft(focus: false, close: true, at: time)
        case .escape:
            cancelSearch()
            return []
        case .character("r"):
            if case .closed = connection { return [.reconnect] }
            return []
        case .ctrl("l"):
            return []
        default:
            return []
        }
    }

    /// Columns one ← or → scrolls wide code by.
    static let codeShiftStep = 8

    private mutating func click(_ mouse: MouseEvent, at time: Duration) -> [ClientCommand] {
        switch mouse.action {
        case .wheelDown: return scroll(by: 3, at: time)
        case .wheelUp: return scroll(by: -3, at: time)
        case .press(.left):
            let placement = indicatorPlacement(at: time)
            indicator.inputBegan(at: time)
            if placement.goesToTop(x: mouse.x, y: mouse.y) {
                return backToTop(at: time)
            }
            if geometry.tabs.contains(x: mouse.x, y: mouse.y), let section = tab(atColumn: mouse.x) {
                return chooseTab(section, at: time)
            }
            return []
        case .release:
            indicator.inputEnded(at: time)
            return []
        default:
            return []
        }
    }

    /// The section whose title is drawn at `column` of the tab header.
    func tab(atColumn column: Int) -> Int? {
        let widths = tabFields
        let starts = TabStrip.starts(widths: widths, spacing: TabHeader.spacing)
        let marker = geometry.columns >= 3 ? 1 : 0
        let x = column - marker + tabOffset
        return starts.indices.first { x >= starts[$0] && x < starts[$0] + widths[$0] }
    }

    /// Opens the draft panel (focused for typing, the cursor at the end of
    /// the draft when the panel was closed), or closes it.
    private mutating func openDraft(focus: Bool, close: Bool = false, at time: Duration) -> [ClientCommand] {
        let opening = !showDraft && !close
        showDraft = !close
        draftFocused = focus && !close
        top = clampTop(top)
        animation = nil
        var out = moved(at: time)
        if opening { out += draft.moveToEnd() }
        return out
    }

    /// Keeps the tab header scrolled to the current tab.
    public mutating func settle() {
        draft.panel = showDraft ? geometry.draft : nil
        if showDraft { draft.settle() }
        guard layout != nil else { tabOffset = 0; return }
        tabOffset = TabStrip.scrollOffset(widths: tabFields, spacing: TabHeader.spacing, current: currentSection,
                                          viewWidth: TabHeader.stripWidth(forWidth: geometry.columns), previous: tabOffset)
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
    /// expiring.
    public func nextWake(after time: Duration) -> Duration? {
        var next: [Duration] = []
        if animation != nil { next.append(time + .milliseconds(16)) }
        if let held = spy.hold, held.until > time { next.append(held.until) }
        if connection == .connecting || layout == nil { next.append(time + .milliseconds(100)) }
        if let change = indicator.nextChange(after: time), layout != nil { next.append(change) }
        if let notice, notice.until > time { next.append(notice.until) }
        if swings { next.append(time + .milliseconds(100)) }
        if showDraft, let wake = draft.nextWake(after: time) { next.append(wake) }
        return next.min()
    }

    /// Whether a title, the current tab's title or a name on screen is wider
    /// than its field.
    private var swings: Bool {
        let title = layout?.document.title ?? "NeonSync"
        if DisplayWidth.of(title) > titleFields.title.width || currentTabSwings { return true }
        guard geometry.showsPresence else { return false }
        return readers.contains { DisplayWidth.of($0.name) > 12 }
    }
}
