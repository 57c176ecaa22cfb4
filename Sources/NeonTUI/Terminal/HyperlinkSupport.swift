/// Whether a screen writes links as OSC 8 hyperlinks (`--hyperlinks`).
public enum HyperlinkChoice: String, CaseIterable, Sendable {
    /// When the terminal is known to show them (`supported(in:)`).
    case auto
    case always
    case never

    /// Whether to write hyperlinks in the terminal `environment` describes.
    public func enabled(in environment: [String: String]) -> Bool {
        switch self {
        case .always: true
        case .never: false
        case .auto: Self.supported(in: environment)
        }
    }

    /// Whether the terminal is known to show OSC 8 hyperlinks, read from its
    /// environment as the supports-hyperlinks detection terminal tools share
    /// does: `FORCE_HYPERLINK` (not `0`) forces them; DomTerm; VTE 0.50 and
    /// later (GNOME Terminal, Tilix, Terminator, xfce4-terminal:
    /// `VTE_VERSION` ≥ 5000); `TERM_PROGRAM` iTerm.app, WezTerm, vscode,
    /// Hyper, terminology or ghostty; `TERM` xterm-kitty, foot, alacritty,
    /// wezterm or xterm-ghostty; Windows Terminal (`WT_SESSION`) and
    /// Konsole (`KONSOLE_VERSION`). Inside tmux (`TMUX`, or `TERM_PROGRAM`
    /// tmux) only tmux decides: 3.4 and later pass hyperlinks on, earlier
    /// versions drop them, whatever the terminal around it.
    public static func supported(in environment: [String: String]) -> Bool {
        if let forced = environment["FORCE_HYPERLINK"] { return forced.trimmingSpaces != "0" }
        let program = environment["TERM_PROGRAM"] ?? ""
        if environment["TMUX"] != nil || program == "tmux" {
            guard program == "tmux", let version = environment["TERM_PROGRAM_VERSION"] else { return false }
            return Self.version(version, atLeast: (3, 4))
        }
        if environment["DOMTERM"] != nil { return true }
        if let vte = environment["VTE_VERSION"].flatMap({ Int($0) }), vte >= 5000 { return true }
        if ["iTerm.app", "WezTerm", "vscode", "Hyper", "terminology", "ghostty"].contains(program) { return true }
        let term = environment["TERM"] ?? ""
        if ["xterm-kitty", "foot", "foot-extra", "alacritty", "alacritty-direct", "wezterm", "xterm-ghostty"].contains(term) {
            return true
        }
        if environment["COLORTERM"] == "xfce4-terminal" { return true }
        return environment["WT_SESSION"] != nil || environment["KONSOLE_VERSION"] != nil
    }

    /// The environment variables `supported(in:)` reads.
    public static let environmentNames = ["FORCE_HYPERLINK", "TERM_PROGRAM", "TERM_PROGRAM_VERSION", "TMUX", "DOMTERM",
                                          "VTE_VERSION", "TERM", "COLORTERM", "WT_SESSION", "KONSOLE_VERSION"]

    /// "3.4", "3.4a", "next-3.5" as (major, minor) compared with `minimum`.
    private static func version(_ text: String, atLeast minimum: (Int, Int)) -> Bool {
        let digits = text.drop { !$0.isNumber }
        let parts = digits.split(separator: ".").map { Int($0.prefix { $0.isNumber }) ?? 0 }
        let major = parts.first ?? 0
        let minor = parts.count > 1 ? parts[1] : 0
        return (major, minor) >= minimum
    }
}

private extension String {
    var trimmingSpaces: Substring {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
