import NeonCore

extension DraftEditor {
    /// Types `typed` at the cursor. A run of typing is one undo step per
    /// word: a word and the spaces (or line break) typed after it are one
    /// step, and the first letter after them starts the next, as does a key
    /// after a pause (`input(at:)`).
    public mutating func insert(_ typed: String) -> TextOperation? {
        let clean = Self.cleaned(typed)
        guard let first = clean.first, let last = clean.last else { return nil }
        var joins = false
        if case .typing(let afterSpace)? = group {
            joins = !afterSpace || first.isWhitespace
        }
        return replace(cursor..<cursor, with: clean, cursorAfter: cursor + clean.unicodeScalars.count,
                       group: .typing(afterSpace: last.isWhitespace), joining: joins)
    }

    /// Inserts pasted text at the cursor as one undo step.
    public mutating func paste(_ pasted: String) -> TextOperation? {
        let clean = Self.cleaned(pasted)
        guard !clean.isEmpty else { return nil }
        return replace(cursor..<cursor, with: clean, cursorAfter: cursor + clean.unicodeScalars.count,
                       group: nil, joining: false)
    }

    /// Deletes the grapheme cluster before the cursor (Backspace), however
    /// many scalars it has.
    public mutating func deleteBackward() -> TextOperation? {
        let start = GraphemeBoundaries(text).before(cursor)
        guard start < cursor else { return nil }
        return replace(start..<cursor, with: "", cursorAfter: start, group: .deletingBackward,
                       joining: group == .deletingBackward)
    }

    /// Deletes the grapheme cluster after the cursor (Delete).
    public mutating func deleteForward() -> TextOperation? {
        let end = GraphemeBoundaries(text).after(cursor)
        guard end > cursor else { return nil }
        return replace(cursor..<end, with: "", cursorAfter: cursor, group: .deletingForward,
                       joining: group == .deletingForward)
    }

    /// Deletes back to the start of the word before the cursor (Ctrl-W,
    /// Alt-Backspace): the spaces and punctuation before the cursor, then
    /// the word. One undo step.
    public mutating func deleteWordBackward() -> TextOperation? {
        let start = wordStart(before: cursor)
        guard start < cursor else { return nil }
        return replace(start..<cursor, with: "", cursorAfter: start, group: nil, joining: false)
    }

    /// Replaces the scalars in `range` with `replacement` as one of this
    /// user's edits, recorded for undo (into the last step when `joining`).
    private mutating func replace(
        _ range: Range<Int>,
        with replacement: String,
        cursorAfter: Int,
        group newGroup: EditGroup?,
        joining: Bool
    ) -> TextOperation? {
        var operation = TextOperation()
        operation.retain(range.lowerBound)
        operation.insert(replacement)
        operation.delete(range.count)
        operation.retain(text.unicodeScalars.count - range.upperBound)
        let (inverse, send) = applyOwn(operation, cursor: cursorAfter)
        if joining, let step = undoStack.popLast() {
            undoStack.append(Self.mustFit { try inverse.compose(step) })
        } else {
            undoStack.append(inverse)
            if undoStack.count > Self.undoLimit {
                undoStack.removeFirst(undoStack.count - Self.undoLimit)
            }
        }
        redoStack.removeAll()
        group = newGroup
        return send
    }

    /// Typed or pasted text as the draft keeps it: line breaks (CR LF, CR)
    /// as LF, tabs as a space, other control characters dropped, since they
    /// take no room on screen and mean nothing in a post.
    static func cleaned(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var afterReturn = false
        for scalar in text.unicodeScalars {
            defer { afterReturn = scalar == "\r" }
            switch scalar {
            case "\r": result.append("\n")
            case "\n" where afterReturn: continue
            case "\n": result.append(scalar)
            case "\t": result.append(" ")
            default:
                if scalar.properties.generalCategory != .control { result.append(scalar) }
            }
        }
        return String(result)
    }
}
