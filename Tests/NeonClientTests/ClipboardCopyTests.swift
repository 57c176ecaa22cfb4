import NeonClient
import NeonCore
import Testing

/// The draft taken out with Ctrl-O: the OSC 52 bytes for a plain terminal
/// and inside tmux, and the terminals and sizes that get none.
@Suite("The draft copied through the terminal (OSC 52)")
struct ClipboardCopyTests {
    static let xterm = ClipboardCopy.Terminal(term: "xterm-256color", inTmux: false)

    @Test("a plain terminal gets ESC ] 52 ; c ; the UTF-8 text in base64, then BEL, and the notice counts the characters")
    func plain() {
        let copy = ClipboardCopy("héllo\nworld", terminal: Self.xterm, room: "r")
        #expect(copy.bytes == "\u{1B}]52;c;aMOpbGxvCndvcmxk\u{07}")
        #expect(!copy.isRefused && copy.notice == "copied the draft (11 characters) to the clipboard")
        #expect(ClipboardCopy("", terminal: Self.xterm, room: "r").bytes == "\u{1B}]52;c;\u{07}", "an empty draft empties the clipboard")
    }

    @Test("inside tmux the sequence goes as it is and again in tmux's passthrough with every ESC doubled; the notice names set-clipboard and allow-passthrough")
    func tmux() {
        let copy = ClipboardCopy("hi", terminal: .init(term: "tmux-256color", inTmux: true), room: "r")
        #expect(copy.bytes == "\u{1B}]52;c;aGk=\u{07}" + "\u{1B}Ptmux;\u{1B}\u{1B}]52;c;aGk=\u{07}\u{1B}\\")
        #expect(copy.notice == "copied the draft (2 characters); in tmux it reaches the clipboard with set -g set-clipboard on (or allow-passthrough on, tmux 3.3+)")
        #expect(ClipboardCopy.Terminal(environment: ["TERM": "screen", "TMUX": "/tmp/tmux-0/default,1,0"]).inTmux)
        #expect(!ClipboardCopy.Terminal(environment: ["TERM": "xterm"]).inTmux)
    }

    @Test("the Linux console, hardware terminals and an unset TERM get nothing, and are told to print the draft instead")
    func refused() {
        for term in ["linux", "vt220", nil] as [String?] {
            let copy = ClipboardCopy("text", terminal: .init(term: term, inTmux: false), room: "notes")
            #expect(copy.bytes.isEmpty && copy.isRefused)
            #expect(copy.notice == "this terminal (TERM=\(term ?? "unset")) cannot take a copy; use neonsync draft notes --print")
        }
    }

    @Test("100,000 bytes of base64 go; one more group of four does not, and the notice says how long it was")
    func cap() {
        let most = ClipboardCopy(String(repeating: "a", count: 75_000), terminal: Self.xterm, room: "r")
        #expect(most.bytes.utf8.count == 100_000 + 8 && !most.isRefused)
        let over = ClipboardCopy(String(repeating: "a", count: 75_001), terminal: Self.xterm, room: "r")
        #expect(over.bytes.isEmpty && over.isRefused)
        #expect(over.notice == "the draft is too long to copy through the terminal (100004 bytes of base64, at most 100000); use neonsync draft r --print")
    }

    @Test("Ctrl-O in the draft editor writes the copy to the terminal and notes it; refused, it writes nothing and says why")
    func editorKey() throws {
        var m = DraftModel(room: "r", name: "ada", profile: nil, columns: 80, rows: 24)
        m.terminal = Self.xterm
        _ = m.handle(.paste("ship it"), at: .zero)
        #expect(m.handle(.key(.ctrl("o")), at: .zero) == [.writeTerminal("\u{1B}]52;c;c2hpcCBpdA==\u{07}")])
        #expect(m.notices.current?.text == "copied the draft (7 characters) to the clipboard" && m.notices.current?.isError == false)
        #expect(m.editor.text == "ship it", "the draft is unchanged")
        m.terminal = .init(term: "linux", inTmux: false)
        #expect(m.handle(.key(.ctrl("o")), at: .zero) == [])
        #expect(m.notices.current?.isError == true)
    }

    @Test("Ctrl-O in the reader's draft panel copies too, and the reader's notice line says so")
    func readerPanel() {
        var r = ReaderModel(mode: .read, room: "r", name: "ada", columns: 80, rows: 30,
                            document: DocumentInfo(title: "t.md", format: .markdown, text: "Hello."), at: .zero)
        r.clipboardTerminal = .init(term: "xterm", inTmux: true)
        _ = r.handle(.key(.character("e")), at: .zero)
        #expect(r.draftPanel == .focused)
        _ = r.handle(.paste("hi"), at: .zero)
        #expect(r.handle(.key(.ctrl("o")), at: .zero) == [.writeTerminal("\u{1B}]52;c;aGk=\u{07}\u{1B}Ptmux;\u{1B}\u{1B}]52;c;aGk=\u{07}\u{1B}\\")])
        #expect(r.notices.current?.text.hasPrefix("copied the draft (2 characters); in tmux") == true)
    }
}
