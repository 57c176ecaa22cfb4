extension Theme {
    /// The theme for the terminal `environment` describes: no colour at all
    /// with `NO_COLOR` or a monochrome `TERM` (a terminfo name ending in
    /// `-mono` or `-m`, such as `xterm-mono`); 24-bit colour with
    /// `COLORTERM=truecolor` (or `24bit`); the 256-colour palette otherwise.
    /// Colour themes leave the terminal's own background alone
    /// (`onTerminalBackground`).
    public static func chosen(for environment: [String: String]) -> Theme {
        if environment["NO_COLOR"] != nil { return .monochrome }
        let term = environment["TERM"] ?? ""
        if term.hasSuffix("-mono") || term.hasSuffix("-m") { return .monochrome }
        if let depth = environment["COLORTERM"], depth == "truecolor" || depth == "24bit" {
            return neon.onTerminalBackground
        }
        return neon256.onTerminalBackground
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
