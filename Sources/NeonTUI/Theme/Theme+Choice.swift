/// The themes a user chooses from (`--theme`, `NEONSYNC_THEME`): the dark
/// neon look, the light one, or ASCII (no colour, ASCII glyphs). The
/// terminal's colours decide the rest (`Theme.chosen`).
public enum ThemeName: String, CaseIterable, Sendable {
    case dark, light, ascii

    /// The environment variable that chooses one when no flag does.
    public static let environment = "NEONSYNC_THEME"
}

extension Theme {
    /// The theme for the terminal `environment` describes and the `name`
    /// chosen: no colour at all with `NO_COLOR` or a monochrome `TERM` (a
    /// terminfo name ending in `-mono` or `-m`, such as `xterm-mono`), with
    /// ASCII glyphs for `ascii`; 24-bit colour with `COLORTERM=truecolor`
    /// (or `24bit`); the 16 ANSI colours for `TERM=linux` and names that
    /// say colour without 256 (`xterm-color`, `ansi`), as termenv reads
    /// them; the 256-colour palette otherwise. Colour themes leave the
    /// terminal's own background alone (`onTerminalBackground`).
    public static func chosen(for environment: [String: String], name: ThemeName = .dark) -> Theme {
        let term = environment["TERM"] ?? ""
        if name == .ascii { return .monochromeASCII }
        if environment["NO_COLOR"] != nil { return .monochrome }
        if term.hasSuffix("-mono") || term.hasSuffix("-m") { return .monochrome }
        if let depth = environment["COLORTERM"], depth == "truecolor" || depth == "24bit" {
            return (name == .light ? light : neon).onTerminalBackground
        }
        if term == "linux" || ((term.contains("color") || term.contains("ansi")) && !term.contains("256")) {
            return ansi16
        }
        return (name == .light ? light256 : neon256).onTerminalBackground
    }

    /// This theme with the terminal's default background wherever it paints
    /// its own (empty cells, text, borders, indicators): only what stands
    /// apart keeps a background (code blocks, the status line, bars,
    /// highlights).
    public var onTerminalBackground: Theme {
        let painted = background.bg
        guard painted != .default else { return self }
        var theme = self
        let styles: [WritableKeyPath<Theme, Style>] = [
            \.background, \.text, \.muted, \.accent, \.strong, \.border, \.trackLine, \.highlight, \.currentHighlight,
            \.levelNormal, \.levelWarning, \.levelLimit,
        ]
        for path in styles where theme[keyPath: path].bg == painted {
            theme[keyPath: path].bg = .default
        }
        return theme
    }
}
