import Glibc
import NeonClient
import NeonCore
import NeonRender
import NeonTUI

/// The terminal while a screen program owns it: raw mode and the alternate
/// screen (`Terminal`), keys decoded from standard input, and frames diffed
/// onto it. Main thread only, like the runtime that holds it.
final class Screen {
    /// How long a lone Esc waits for the rest of an escape sequence before
    /// it counts as the Escape key.
    static let escapeWait: Duration = .milliseconds(25)

    let theme: Theme
    /// Links are written as OSC 8 hyperlinks.
    let hyperlinks: Bool
    /// How pictures are drawn, when the terminal draws them.
    let graphics: TerminalGraphics?
    /// The frame on the terminal now; nil when it must be drawn whole.
    private var previous: Buffer?
    private var decoder = KeyDecoder()
    /// When input ended in a lone Esc that may start a sequence.
    private var escapeSince: Duration?

    private init(theme: Theme, hyperlinks: Bool, graphics: TerminalGraphics?) {
        self.theme = theme
        self.hyperlinks = hyperlinks
        self.graphics = graphics
    }

    /// Takes the terminal over for `command` (see `Terminal.enter`), and
    /// finds how it draws pictures: `graphics` names a protocol, "none", or
    /// "auto" to ask the terminal (`Terminal.probeGraphics`).
    static func enter(for command: CommandName, theme: Theme, hyperlinks: Bool, graphics: String) throws(NeonError) -> Screen {
        try Terminal.enter(for: command)
        let inTmux = ProcessEnvironment()["TMUX"] != nil
        let passthrough = inTmux && Terminal.tmuxPassesThrough()
        // Inside a tmux that passes nothing through, no picture can reach
        // the terminal: boxes only, whatever was asked.
        var kind: GraphicsProtocol?
        if !inTmux || passthrough {
            kind = graphics == "auto" ? Terminal.probeGraphics(passthrough: passthrough) : GraphicsProtocol(rawValue: graphics)
        }
        let cell = Terminal.cellPixels()
        let writer = kind.map { TerminalGraphics(kind: $0, passthrough: passthrough, cellWidth: cell.width, cellHeight: cell.height) }
        return Screen(theme: theme, hyperlinks: hyperlinks, graphics: writer)
    }

    /// Columns and rows of the terminal.
    var size: (columns: Int, rows: Int) { Terminal.size() }

    /// Draws `frame`, writing only the cells that changed, and its pictures
    /// (from `pictures`, the document's) where the terminal draws them.
    func draw(_ frame: Buffer, pictures: [DocumentImage] = []) {
        graphics?.show(pictures)
        let bytes = FrameWriter.diff(from: previous, to: frame, hyperlinks: hyperlinks, graphics: graphics)
        if !bytes.isEmpty { Terminal.write(bytes) }
        previous = frame
    }

    /// Draws `frame` whole, and the next frame whole too (a loading screen
    /// before the program's first frame).
    func paint(_ frame: Buffer) {
        Terminal.write(FrameWriter.diff(from: nil, to: frame))
        previous = nil
    }

    /// After a resize every cell is drawn again.
    func invalidate() {
        previous = nil
    }

    /// When a pending lone Esc turns into the Escape key.
    var escapeDeadline: Duration? { escapeSince.map { $0 + Self.escapeWait } }

    /// Reads what standard input holds and decodes it; nil when input has
    /// ended or the terminal is gone (EIO after a hangup): no one is left
    /// to draw for.
    func readInput(at now: Duration) -> [InputEvent]? {
        var bytes = [UInt8](repeating: 0, count: 4096)
        let n = read(STDIN_FILENO, &bytes, bytes.count)
        if n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN) { return nil }
        guard n > 0 else { return [] }
        let events = decoder.feed(bytes[0..<n])
        escapeSince = bytes[n - 1] == 0x1B ? now : nil
        return events
    }

    /// The Escape key, once a lone Esc has waited `escapeWait` for more.
    func expiredEscape(at now: Duration) -> [InputEvent] {
        guard let since = escapeSince, now - since >= Self.escapeWait else { return [] }
        escapeSince = nil
        return decoder.flush()
    }

    /// Puts the terminal back as it was, its pictures taken away first (a
    /// kitty terminal keeps them until told). Safe to call twice.
    func restore() {
        if let erase = graphics?.eraseAll(), !erase.isEmpty { Terminal.write(erase) }
        Terminal.restore()
    }
}
