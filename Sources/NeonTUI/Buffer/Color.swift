/// A terminal colour: the terminal's default, one of the 16 ANSI colours, an
/// entry of the 256-colour palette, or a 24-bit colour.
public enum Color: Equatable, Hashable, Sendable {
    /// The terminal's own foreground or background.
    case `default`
    case black, red, green, yellow, blue, magenta, cyan, white
    case brightBlack, brightRed, brightGreen, brightYellow
    case brightBlue, brightMagenta, brightCyan, brightWhite
    /// An entry of the xterm 256-colour palette.
    case indexed(UInt8)
    /// A 24-bit colour, for terminals announcing `COLORTERM=truecolor`.
    case rgb(UInt8, UInt8, UInt8)
}

extension Color {
    /// The SGR parameters selecting this colour as the foreground
    /// (`background == false`) or the background: 39/49 for the default,
    /// 30–37/40–47 and 90–97/100–107 for the 16 colours, `38;5;n` for the
    /// palette and `38;2;r;g;b` for 24-bit colours.
    public func sgrParameters(background: Bool) -> String {
        let base = background ? 40 : 30
        switch self {
        case .default: return String(base + 9)
        case .indexed(let n): return "\(base + 8);5;\(n)"
        case let .rgb(r, g, b): return "\(base + 8);2;\(r);\(g);\(b)"
        default:
            let (offset, bright) = basicIndex
            return String(base + offset + (bright ? 60 : 0))
        }
    }

    /// The position among the eight basic colours and whether it is the
    /// bright variant; only meaningful for the 16 ANSI cases.
    private var basicIndex: (Int, Bool) {
        switch self {
        case .black: (0, false)
        case .red: (1, false)
        case .green: (2, false)
        case .yellow: (3, false)
        case .blue: (4, false)
        case .magenta: (5, false)
        case .cyan: (6, false)
        case .white: (7, false)
        case .brightBlack: (0, true)
        case .brightRed: (1, true)
        case .brightGreen: (2, true)
        case .brightYellow: (3, true)
        case .brightBlue: (4, true)
        case .brightMagenta: (5, true)
        case .brightCyan: (6, true)
        case .brightWhite: (7, true)
        case .default, .indexed, .rgb: (9, false)
        }
    }
}
