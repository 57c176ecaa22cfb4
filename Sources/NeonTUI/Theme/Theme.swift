import NeonCore

/// The look of every widget: the seeds' neon terminal (near-black background,
/// green accents, white and grey text), a light theme for light terminals,
/// one in the 16 ANSI colours, or a monochrome fallback.
///
/// Styles carry their background so that whatever a widget draws sits on the
/// theme's background. A monochrome theme has no colours at all: emphasis is
/// bold, underline or reverse only, and indicators stay readable from their
/// characters alone (bars show their track as `░`, the wheel as `·`).
public struct Theme: Equatable, Sendable {
    /// Whether any style uses colour; tints apply only when it does.
    public var usesColor: Bool
    /// Draw with ASCII glyphs only (`+-|` borders, `#` bars, `-\|/` spinner).
    public var ascii: Bool
    /// Empty screen cells.
    public var background: Style
    /// Body text.
    public var text: Style
    /// Secondary text: hints, labels, truncation marks.
    public var muted: Style
    /// Accent-coloured text: list markers, card names, a filled wheel.
    public var accent: Style
    /// Bold accent: headings, percentages, the current tab.
    public var strong: Style
    /// Borders of boxes, buttons and overlays.
    public var border: Style
    /// Lines in the dim accent: the wheel's unfilled ring, the tab baseline,
    /// the quote bar.
    public var trackLine: Style
    /// Filled bar cells: accent characters on the track colour.
    public var barFill: Style
    /// Empty bar cells: the dim track.
    public var barTrack: Style
    /// Text drawn over the filled part of a thick bar.
    public var barLabel: Style
    /// Code blocks.
    public var code: Style
    /// A search match.
    public var highlight: Style
    /// The search match the reader is on.
    public var currentHighlight: Style
    /// The status line.
    public var status: Style
    /// Draft ring levels: normal (blue), warning (yellow), limit and over (red).
    public var levelNormal: Style
    public var levelWarning: Style
    public var levelLimit: Style
    /// Highlighted code: what each class of token lays over `code`
    /// (`codeStyle(_:)`), by `CodeClass.rawValue`.
    public var codeTokens: [Style]

    /// What a token of class `kind` lays over the code style.
    public func codeStyle(_ kind: CodeClass) -> Style {
        codeTokens[Int(kind.rawValue)]
    }

    /// The glyph set `ascii` selects.
    public var glyphs: Glyphs { ascii ? .ascii : .unicode }

    /// The screen's own words (hints, notices, titles, labels) as this theme
    /// draws them: an ASCII theme writes the punctuation and arrows they use
    /// in ASCII, one column for one (`·` and `—` as `-`, `…` as `~`, `→` as
    /// `>`, quotes straight, a spinner frame as `*`); other themes as they
    /// are. A document's own text is not the screen's words.
    public func chrome(_ text: String) -> String {
        guard ascii, !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        return String(text.map { character -> Character in
            if let plain = Self.asciiChrome[character] { return plain }
            if let scalar = character.unicodeScalars.first, (0x2800...0x28FF).contains(scalar.value) { return "*" }
            return character
        })
    }

    private static let asciiChrome: [Character: Character] = [
        "·": "-", "—": "-", "–": "-", "−": "-", "…": "~", "“": "\"", "”": "\"", "‘": "'", "’": "'", "▏": "|",
        "▸": ">", "▶": ">", "→": ">", "←": "<", "↑": "^", "↓": "v", "✓": "v", "×": "x", "§": "#", "•": "*", "◆": "*",
    ]

    /// `style` with `tint` as its foreground, when the theme uses colour and
    /// a tint is given.
    func tinted(_ style: Style, _ tint: Color?) -> Style {
        guard usesColor, let tint else { return style }
        return style.with(fg: tint)
    }
}

extension Theme {
    /// The neon look in 24-bit colour: background rgb(13,13,13), accent
    /// rgb(0,255,102), track rgb(9,86,40), text rgb(220,220,220).
    public static let neon = Theme(palette: Palette(
        background: .rgb(13, 13, 13), text: .rgb(220, 220, 220), muted: .rgb(140, 140, 140),
        accent: .rgb(0, 255, 102), track: .rgb(9, 86, 40), codeBackground: .rgb(28, 28, 28),
        codeText: .rgb(190, 190, 190), statusBackground: .rgb(20, 40, 28),
        blue: .rgb(29, 155, 240), yellow: .rgb(255, 212, 0), red: .rgb(244, 33, 46),
        tokens: TokenPalette(keyword: .rgb(255, 121, 198), type: .rgb(139, 233, 253), string: .rgb(241, 250, 140),
                             escape: .rgb(255, 184, 108), number: .rgb(189, 147, 249), comment: .rgb(125, 135, 165),
                             function: .rgb(80, 250, 123), preprocessor: .rgb(255, 184, 108), variable: .rgb(248, 248, 242))))

    /// The neon look in the 256-colour palette (233 background, 47 accent,
    /// 22 track) for terminals without 24-bit colour.
    public static let neon256 = Theme(palette: Palette(
        background: .indexed(233), text: .indexed(253), muted: .indexed(245),
        accent: .indexed(47), track: .indexed(22), codeBackground: .indexed(234),
        codeText: .indexed(250), statusBackground: .indexed(235),
        blue: .indexed(33), yellow: .indexed(220), red: .indexed(196),
        tokens: TokenPalette(keyword: .indexed(212), type: .indexed(117), string: .indexed(228), escape: .indexed(215),
                             number: .indexed(141), comment: .indexed(103), function: .indexed(84),
                             preprocessor: .indexed(215), variable: .indexed(255))))

    /// The light look in 24-bit colour, for terminals with a light
    /// background (`--theme light`): dark text, a green accent, GitHub's
    /// light colours for code.
    public static let light = Theme(palette: Palette(
        background: .rgb(255, 255, 255), text: .rgb(36, 41, 47), muted: .rgb(101, 109, 118),
        accent: .rgb(26, 127, 55), track: .rgb(204, 240, 212), codeBackground: .rgb(240, 242, 245),
        codeText: .rgb(36, 41, 47), statusBackground: .rgb(218, 251, 225),
        blue: .rgb(9, 105, 218), yellow: .rgb(154, 103, 0), red: .rgb(207, 34, 46),
        tokens: TokenPalette(keyword: .rgb(207, 34, 46), type: .rgb(149, 56, 0), string: .rgb(10, 48, 105),
                             escape: .rgb(17, 99, 41), number: .rgb(5, 80, 174), comment: .rgb(110, 119, 129),
                             function: .rgb(130, 80, 223), preprocessor: .rgb(207, 34, 46), variable: .rgb(149, 56, 0))))

    /// The light look in the 256-colour palette.
    public static let light256 = Theme(palette: Palette(
        background: .indexed(231), text: .indexed(235), muted: .indexed(243),
        accent: .indexed(28), track: .indexed(194), codeBackground: .indexed(255),
        codeText: .indexed(235), statusBackground: .indexed(194),
        blue: .indexed(25), yellow: .indexed(136), red: .indexed(160),
        tokens: TokenPalette(keyword: .indexed(160), type: .indexed(130), string: .indexed(24), escape: .indexed(28),
                             number: .indexed(25), comment: .indexed(244), function: .indexed(98),
                             preprocessor: .indexed(160), variable: .indexed(130))))

    /// The 16 ANSI colours, for terminals that have no more (`TERM=linux`,
    /// `xterm-color`, `ansi`): the terminal's own foreground and background,
    /// whose palette decides whether it is dark or light.
    public static let ansi16 = Theme(palette: Palette(
        background: .default, text: .default, muted: .brightBlack,
        accent: .green, track: .brightBlack, codeBackground: .default,
        codeText: .default, statusBackground: .default,
        blue: .blue, yellow: .yellow, red: .red,
        tokens: TokenPalette(keyword: .magenta, type: .cyan, string: .green, escape: .yellow, number: .yellow,
                             comment: .brightBlack, function: .blue, preprocessor: .red, variable: .default)))

    /// No colours (NO_COLOR, dumb terminals): bold, underline and reverse
    /// only, Unicode glyphs.
    public static let monochrome = Theme(
        usesColor: false, ascii: false, background: .plain, text: .plain, muted: .plain,
        accent: .plain, strong: Style(bold: true), border: .plain, trackLine: .plain,
        barFill: .plain, barTrack: .plain, barLabel: Style(bold: true, reverse: true), code: .plain,
        highlight: Style(reverse: true), currentHighlight: Style(bold: true, underline: true, reverse: true),
        status: Style(reverse: true), levelNormal: .plain, levelWarning: Style(bold: true),
        levelLimit: Style(bold: true, reverse: true), codeTokens: monochromeTokens)

    /// Code without colour: keywords and preprocessor lines bold, comments
    /// italic, everything else as written.
    private static let monochromeTokens: [Style] = CodeClass.allCases.map { kind in
        switch kind {
        case .keyword, .preprocessor: Style(bold: true)
        case .comment: Style(italic: true)
        default: .plain
        }
    }

    /// `monochrome` with ASCII glyphs, for terminals that show neither
    /// colour nor box drawing.
    public static let monochromeASCII: Theme = {
        var theme = monochrome
        theme.ascii = true
        return theme
    }()

    /// The colours a neon theme is made of.
    private struct Palette {
        var background, text, muted, accent, track, codeBackground, codeText, statusBackground: Color
        var blue, yellow, red: Color
        var tokens: TokenPalette
    }

    /// The colours of highlighted code; the classes not named take the
    /// colour of their nearest kin.
    private struct TokenPalette {
        var keyword, type, string, escape, number, comment, function, preprocessor, variable: Color

        var styles: [Style] {
            CodeClass.allCases.map { kind in
                switch kind {
                case .keyword: Style(fg: keyword)
                case .type, .builtin: Style(fg: type)
                case .string: Style(fg: string)
                case .escape: Style(fg: escape)
                case .number, .constant: Style(fg: number)
                case .comment: Style(fg: comment, italic: true)
                case .function: Style(fg: function)
                case .preprocessor, .attribute: Style(fg: preprocessor)
                case .variable: Style(fg: variable)
                }
            }
        }
    }

    private init(palette p: Palette) {
        let on = Style(bg: p.background)
        self.init(
            usesColor: true, ascii: false, background: on, text: on.with(fg: p.text), muted: on.with(fg: p.muted),
            accent: on.with(fg: p.accent), strong: Style(fg: p.accent, bg: p.background, bold: true),
            border: on.with(fg: p.accent), trackLine: on.with(fg: p.track),
            barFill: Style(fg: p.accent, bg: p.track), barTrack: Style(fg: p.text, bg: p.track),
            barLabel: Style(fg: p.background, bg: p.accent, bold: true),
            code: Style(fg: p.codeText, bg: p.codeBackground),
            highlight: Style(fg: p.text, bg: p.background, reverse: true),
            currentHighlight: Style(fg: p.accent, bg: p.background, bold: true, reverse: true),
            status: Style(fg: p.accent, bg: p.statusBackground),
            levelNormal: on.with(fg: p.blue), levelWarning: on.with(fg: p.yellow),
            levelLimit: Style(fg: p.red, bg: p.background, bold: true), codeTokens: p.tokens.styles)
    }
}
