/// What the terminal reports: a key, a mouse action or a bracketed paste.
public enum InputEvent: Equatable, Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    /// Text pasted between ESC [200~ and ESC [201~, delivered whole.
    case paste(String)
}

/// A key press as a terminal reports it. Modifiers on arrows and editing keys
/// (ESC [1;5A) are not reported: such keys arrive as the plain key.
public enum Key: Equatable, Hashable, Sendable {
    /// A printable character, possibly a multi-byte or multi-scalar cluster.
    case character(Character)
    case enter
    case tab
    /// Shift-Tab (ESC [Z).
    case backTab
    case backspace
    /// A lone Escape, reported by `KeyDecoder.flush()` once no sequence
    /// followed it.
    case escape
    case up, down, left, right
    case home, end, pageUp, pageDown, insert, delete
    /// A function key, F1 to F12 (ESC O P … S, ESC [ 11 ~ … 24 ~).
    case function(Int)
    /// Control and a letter, as the lowercase letter: `.ctrl("c")` for ^C.
    /// ^H, ^I, ^J and ^M arrive as backspace, tab and enter.
    case ctrl(Character)
    /// Alt (Meta) and a printable ASCII character, sent as ESC and the
    /// character.
    case alt(Character)
}

/// A mouse report in the SGR (1006) encoding, at 0-based cell coordinates.
public struct MouseEvent: Equatable, Hashable, Sendable {
    public enum Button: Equatable, Hashable, Sendable {
        case left, middle, right
    }

    public enum Action: Equatable, Hashable, Sendable {
        case press(Button)
        case release(Button)
        /// The pointer moved with the button held.
        case drag(Button)
        /// The pointer moved with no button held (only with any-motion
        /// tracking on).
        case move
        case wheelUp
        case wheelDown
    }

    public var action: Action
    /// The 0-based column.
    public var x: Int
    /// The 0-based row.
    public var y: Int

    /// A report of `action` at column `x`, row `y`.
    public init(_ action: Action, x: Int, y: Int) {
        self.action = action
        self.x = x
        self.y = y
    }
}
