import NeonCore
import NeonTUI

/// A minimal terminal for checking `FrameWriter` output: it understands
/// exactly what the writer emits (CUP, CUF, ED 2, SGR, printable text with
/// wide characters) and fails on anything else.
struct VirtualTerminal {
    enum Failure: Error, Equatable {
        case unexpected(String)
    }

    private(set) var screen: Buffer
    private var cursor = (x: 0, y: 0)
    private var style = Style.plain

    init(width: Int, height: Int) {
        screen = Buffer(width: width, height: height)
    }

    /// Applies `output` and returns the style left selected.
    @discardableResult
    mutating func apply(_ output: String) throws -> Style {
        var characters = Array(output)[...]
        while let character = characters.popFirst() {
            guard character == "\u{1B}" else {
                screen.set(character, x: cursor.x, y: cursor.y, style: style)
                cursor.x += DisplayWidth.of(character)
                continue
            }
            guard characters.popFirst() == "[" else { throw Failure.unexpected("ESC without [") }
            var parameters = ""
            while let next = characters.first, next.isNumber || next == ";" {
                parameters.append(next)
                characters.removeFirst()
            }
            guard let final = characters.popFirst() else { throw Failure.unexpected("unfinished CSI") }
            let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
            switch final {
            case "H": cursor = (max((numbers.count > 1 ? numbers[1] : 1) - 1, 0), max((numbers.first ?? 1) - 1, 0))
            case "C": cursor.x += max(numbers.first ?? 1, 1)
            case "J": screen = Buffer(width: screen.width, height: screen.height)
            case "m": style = try Self.style(numbers.isEmpty ? [0] : numbers)
            default: throw Failure.unexpected("CSI \(parameters)\(final)")
            }
        }
        return style
    }

    private static func style(_ numbers: [Int]) throws -> Style {
        var style = Style.plain
        var rest = numbers[...]
        while let number = rest.popFirst() {
            switch number {
            case 0: style = .plain
            case 1: style.bold = true
            case 2: style.dim = true
            case 3: style.italic = true
            case 4: style.underline = true
            case 7: style.reverse = true
            case 30...37, 90...97: style.fg = basic[number % 10 + (number >= 90 ? 8 : 0)]
            case 40...47, 100...107: style.bg = basic[number % 10 + (number >= 100 ? 8 : 0)]
            case 38, 48:
                let color: Color
                switch rest.popFirst() {
                case 5: color = .indexed(UInt8(rest.popFirst() ?? 0))
                case 2: color = .rgb(UInt8(rest.popFirst() ?? 0), UInt8(rest.popFirst() ?? 0), UInt8(rest.popFirst() ?? 0))
                default: throw Failure.unexpected("colour \(number)")
                }
                if number == 38 { style.fg = color } else { style.bg = color }
            default: throw Failure.unexpected("SGR \(number)")
            }
        }
        return style
    }

    private static let basic: [Color] = [
        .black, .red, .green, .yellow, .blue, .magenta, .cyan, .white,
        .brightBlack, .brightRed, .brightGreen, .brightYellow, .brightBlue, .brightMagenta, .brightCyan, .brightWhite,
    ]
}
