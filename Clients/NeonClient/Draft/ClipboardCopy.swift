import Foundation

/// The draft taken out to the clipboard through the terminal: OSC 52
/// (`ESC ] 52 ; c ; BASE64 BEL`), which the terminal turns into a copy on
/// the machine the terminal runs on, over ssh too. What the terminal is
/// comes from the environment (`TERM`, `TMUX`), read by the shell.
public struct ClipboardCopy: Equatable, Sendable {
    /// What is known of the terminal the editor runs in.
    public struct Terminal: Equatable, Sendable {
        /// `TERM`, nil when unset.
        public var term: String?
        /// Inside tmux (`TMUX` set).
        public var inTmux: Bool

        public init(term: String?, inTmux: Bool) {
            self.term = term
            self.inTmux = inTmux
        }

        /// The terminal named by `environment` (`TERM`, `TMUX`).
        public init(environment: [String: String]) {
            self.init(term: environment["TERM"], inTmux: environment["TMUX"].map { !$0.isEmpty } ?? false)
        }

        /// Terminals known to take no OSC 52: the Linux console, the
        /// hardware terminals' names, none named.
        static let refusing: Set<String> = ["linux", "dumb", "vt100", "vt102", "vt220", "cons25"]

        var takesCopies: Bool {
            guard let term, !term.isEmpty else { return false }
            return !Self.refusing.contains(term)
        }
    }

    /// The most base64 bytes sent: what many terminals accept in one OSC 52
    /// (xterm and tmux take more, some terminals less).
    public static let maximumEncoded = 100_000

    /// The bytes for the terminal (empty: nothing is sent).
    public let bytes: String
    /// What happened, in a sentence for the notice line.
    public let notice: String
    /// Whether the copy was refused.
    public let isRefused: Bool

    /// The copy of `text` for `terminal`, or why there is none. Inside
    /// tmux the sequence goes twice: as it is, which tmux keeps in its
    /// paste buffer and hands on to the terminal when `set-clipboard` is on,
    /// and wrapped in tmux's passthrough (`ESC P tmux; … ESC \`, every ESC
    /// doubled), which reaches the terminal when `allow-passthrough` is on
    /// (tmux 3.3 and later). `room` names the room in the way out offered
    /// where the terminal cannot take a copy.
    public init(_ text: String, terminal: Terminal, room: String) {
        let characters = text.count == 1 ? "1 character" : "\(text.count) characters"
        guard terminal.takesCopies else {
            self.init(bytes: "", refused: "this terminal (TERM=\(terminal.term ?? "unset")) cannot take a copy; use neonsync draft \(room) --print")
            return
        }
        let encoded = Data(text.utf8).base64EncodedString()
        guard encoded.utf8.count <= Self.maximumEncoded else {
            self.init(bytes: "", refused: "the draft is too long to copy through the terminal (\(encoded.utf8.count) bytes of base64, "
                      + "at most \(Self.maximumEncoded)); use neonsync draft \(room) --print")
            return
        }
        let sequence = "\u{1B}]52;c;" + encoded + "\u{07}"
        guard terminal.inTmux else {
            self.init(bytes: sequence, notice: "copied the draft (\(characters)) to the clipboard")
            return
        }
        let wrapped = "\u{1B}Ptmux;" + sequence.replacingOccurrences(of: "\u{1B}", with: "\u{1B}\u{1B}") + "\u{1B}\\"
        self.init(bytes: sequence + wrapped,
                  notice: "copied the draft (\(characters)); in tmux it reaches the clipboard with set -g set-clipboard on "
                      + "(or allow-passthrough on, tmux 3.3+)")
    }

    private init(bytes: String, notice: String) {
        self.bytes = bytes
        self.notice = notice
        isRefused = false
    }

    private init(bytes: String, refused notice: String) {
        self.bytes = bytes
        self.notice = notice
        isRefused = true
    }
}
