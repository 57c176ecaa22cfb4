/// The escape sequences a full-screen client sends besides frames: entering
/// and leaving the alternate screen, cursor visibility, mouse reporting,
/// bracketed paste, clearing.
public enum TerminalControl {
    /// Control Sequence Introducer, ESC [.
    public static let csi = "\u{1B}["

    public static let alternateScreenOn = csi + "?1049h"
    public static let alternateScreenOff = csi + "?1049l"
    public static let hideCursor = csi + "?25l"
    public static let showCursor = csi + "?25h"
    /// Press, release and drag reports (1000, 1002) in the SGR encoding
    /// (1006), which `KeyDecoder` reads.
    public static let mouseOn = csi + "?1000h" + csi + "?1002h" + csi + "?1006h"
    public static let mouseOff = csi + "?1006l" + csi + "?1002l" + csi + "?1000l"
    /// Pastes arrive between ESC [200~ and ESC [201~.
    public static let bracketedPasteOn = csi + "?2004h"
    public static let bracketedPasteOff = csi + "?2004l"
    /// Clears the screen and homes the cursor.
    public static let clearScreen = csi + "2J" + csi + "H"
    /// Back to the default colours and no attributes.
    public static let resetStyle = csi + "0m"

    /// Everything a full-screen client turns on when it starts.
    public static let enterFullScreen = alternateScreenOn + hideCursor + mouseOn + bracketedPasteOn + clearScreen
    /// Undoes `enterFullScreen`; send it on every exit path.
    public static let leaveFullScreen = resetStyle + bracketedPasteOff + mouseOff + showCursor + alternateScreenOff

    /// Moves the cursor to the 0-based column `x` and row `y` (CUP).
    public static func moveCursor(x: Int, y: Int) -> String {
        csi + "\(y + 1);\(x + 1)H"
    }

    /// The SGR sequence selecting `style` from any previous state: a reset
    /// followed by its attributes and colours.
    public static func select(_ style: Style) -> String {
        var parameters = ["0"]
        if style.bold { parameters.append("1") }
        if style.dim { parameters.append("2") }
        if style.italic { parameters.append("3") }
        if style.underline { parameters.append("4") }
        if style.reverse { parameters.append("7") }
        if style.strikethrough { parameters.append("9") }
        if style.fg != .default { parameters.append(style.fg.sgrParameters(background: false)) }
        if style.bg != .default { parameters.append(style.bg.sgrParameters(background: true)) }
        return csi + parameters.joined(separator: ";") + "m"
    }
}
