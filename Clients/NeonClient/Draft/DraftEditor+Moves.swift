import NeonTUI

extension DraftEditor {
    /// One grapheme cluster left.
    public mutating func left() {
        move(to: GraphemeBoundaries(text).before(cursor))
    }

    /// One grapheme cluster right.
    public mutating func right() {
        move(to: GraphemeBoundaries(text).after(cursor))
    }

    /// One row up, keeping the display column of the first of a run of
    /// vertical moves; to the start from the first row. Rows are the text's
    /// lines, or the rows the editor shows when wrapping at `width` columns
    /// (see `DraftEditorView.Layout`).
    public mutating func up(width: Int? = nil) {
        moveVertically(by: -1, width: width)
    }

    /// One row down, like `up(width:)`; to the end from the last row.
    public mutating func down(width: Int? = nil) {
        moveVertically(by: 1, width: width)
    }

    /// To the start of the word before the cursor (Alt-b, Ctrl-Left).
    public mutating func wordLeft() {
        move(to: wordStart(before: cursor))
    }

    /// To the end of the word after the cursor (Alt-f, Ctrl-Right).
    public mutating func wordRight() {
        let boundaries = GraphemeBoundaries(text)
        var index = boundaries.cluster(at: cursor)
        let characters = boundaries.characters
        while index < characters.count, !Self.isWordCharacter(characters[index]) { index += 1 }
        while index < characters.count, Self.isWordCharacter(characters[index]) { index += 1 }
        move(to: boundaries.offsets[index])
    }

    /// To the start of the cursor's line (Home, Ctrl-A).
    public mutating func lineStart() {
        let boundaries = GraphemeBoundaries(text)
        var index = boundaries.cluster(at: cursor)
        while index > 0, !boundaries.characters[index - 1].isNewline { index -= 1 }
        move(to: boundaries.offsets[index])
    }

    /// To the end of the cursor's line (End, Ctrl-E).
    public mutating func lineEnd() {
        let boundaries = GraphemeBoundaries(text)
        var index = boundaries.cluster(at: cursor)
        while index < boundaries.characters.count, !boundaries.characters[index].isNewline { index += 1 }
        move(to: boundaries.offsets[index])
    }

    /// To the start of the draft (Alt-<).
    public mutating func textStart() {
        move(to: 0)
    }

    /// To the end of the draft (Alt->), where the reader's `e` and a
    /// fresh draft editor put the cursor.
    public mutating func textEnd() {
        move(to: text.unicodeScalars.count)
    }

    /// Where the word before `position` starts: back over spaces and
    /// punctuation, then over the word.
    func wordStart(before position: Int) -> Int {
        let boundaries = GraphemeBoundaries(text)
        var index = boundaries.cluster(at: position)
        let characters = boundaries.characters
        while index > 0, !Self.isWordCharacter(characters[index - 1]) { index -= 1 }
        while index > 0, Self.isWordCharacter(characters[index - 1]) { index -= 1 }
        return boundaries.offsets[index]
    }

    /// Letters, digits, `_` and emoji make words; spaces, punctuation and
    /// other symbols separate them.
    static func isWordCharacter(_ character: Character) -> Bool {
        if character.isLetter || character.isNumber || character == "_" { return true }
        guard !character.isASCII, let first = character.unicodeScalars.first else { return false }
        return first.properties.isEmoji
    }

    private mutating func move(to position: Int) {
        cursor = position
        goalColumn = nil
        group = nil
    }

    private mutating func moveVertically(by rows: Int, width: Int?) {
        let layout = DraftEditorView.Layout(text: text, width: width)
        let place = layout.place(of: cursor)
        let goal = goalColumn ?? place.column
        let target = place.row + rows
        if target < 0 {
            move(to: 0)
        } else if target >= layout.rows.count {
            move(to: text.unicodeScalars.count)
        } else {
            move(to: layout.position(row: target, column: goal))
        }
        goalColumn = goal
    }
}
