extension KeyDecoder {
    /// One unit of input.
    enum Token: Equatable {
        case scalar(Unicode.Scalar)
        case event(InputEvent)
        case pasteStart
        case ignored
    }

    /// The token starting at `index` and its length in bytes, or nil when
    /// the bytes end before it does.
    static func token(in bytes: [UInt8], at index: Int) -> (Token, Int)? {
        let byte = bytes[index]
        switch byte {
        case 0x1B: return escape(in: bytes, at: index)
        case 0x0D, 0x0A: return (.event(.key(.enter)), 1)
        case 0x09: return (.event(.key(.tab)), 1)
        case 0x08, 0x7F: return (.event(.key(.backspace)), 1)
        case 0x01...0x1A: return (.event(.key(.ctrl(Character(Unicode.Scalar(byte + 0x60))))), 1)
        case 0x20...0x7E: return (.scalar(Unicode.Scalar(byte)), 1)
        case 0x80...: return utf8(in: bytes, at: index)
        default: return (.ignored, 1)
        }
    }

    /// A multi-byte UTF-8 scalar; an invalid byte is skipped alone.
    private static func utf8(in bytes: [UInt8], at index: Int) -> (Token, Int)? {
        let length: Int
        switch bytes[index] {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (.ignored, 1)
        }
        let available = min(length, bytes.count - index)
        for offset in 1..<max(available, 1) where !(0x80...0xBF).contains(bytes[index + offset]) {
            return (.ignored, 1)
        }
        guard available == length else { return nil }
        var iterator = bytes[index..<index + length].makeIterator()
        var codec = Unicode.UTF8()
        guard case .scalarValue(let scalar) = codec.decode(&iterator) else { return (.ignored, 1) }
        let isControl = scalar.value >= 0x80 && scalar.value < 0xA0
        return (isControl ? .ignored : .scalar(scalar), length)
    }

    /// ESC and what follows it: a CSI or SS3 sequence, Alt and a character,
    /// or a lone Escape before another control byte.
    private static func escape(in bytes: [UInt8], at index: Int) -> (Token, Int)? {
        guard index + 1 < bytes.count else { return nil }
        let next = bytes[index + 1]
        switch next {
        case UInt8(ascii: "["):
            return csi(in: bytes, at: index)
        case UInt8(ascii: "O"):
            guard index + 2 < bytes.count else { return nil }
            return (ss3(bytes[index + 2]).map { .event(.key($0)) } ?? .ignored, 3)
        case 0x20...0x7E:
            return (.event(.key(.alt(Character(Unicode.Scalar(next))))), 2)
        default:
            return (.event(.key(.escape)), 1)
        }
    }

    /// The keys of ESC O sequences (application cursor mode, keypad).
    private static func ss3(_ final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        case UInt8(ascii: "M"): .enter
        case UInt8(ascii: "P"): .function(1)
        case UInt8(ascii: "Q"): .function(2)
        case UInt8(ascii: "R"): .function(3)
        case UInt8(ascii: "S"): .function(4)
        default: nil
        }
    }

    /// ESC [ parameters, intermediates, final byte. A byte that cannot be
    /// part of a sequence ends it unread, and the sequence is dropped.
    private static func csi(in bytes: [UInt8], at index: Int) -> (Token, Int)? {
        var cursor = index + 2
        while cursor < bytes.count {
            let byte = bytes[cursor]
            switch byte {
            case 0x20...0x3F:
                cursor += 1
                if cursor - index > maxSequenceLength { return (.ignored, cursor - index) }
            case 0x40...0x7E:
                let parameters = Array(bytes[index + 2..<cursor])
                return (csiToken(parameters: parameters, final: byte), cursor + 1 - index)
            default:
                return (.ignored, cursor - index)
            }
        }
        return nil
    }

    private static func csiToken(parameters: [UInt8], final: UInt8) -> Token {
        if parameters.first == UInt8(ascii: "<") {
            return mouse(parameters: parameters.dropFirst(), final: final).map { .event(.mouse($0)) } ?? .ignored
        }
        let numbers = parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
            .map { number(in: $0) }
        if final == UInt8(ascii: "~") {
            switch numbers.first ?? nil {
            case 200: return .pasteStart
            case 1, 7: return .event(.key(.home))
            case 2: return .event(.key(.insert))
            case 3: return .event(.key(.delete))
            case 4, 8: return .event(.key(.end))
            case 5: return .event(.key(.pageUp))
            case 6: return .event(.key(.pageDown))
            case let code?: return functionKeys[code].map { .event(.key(.function($0))) } ?? .ignored
            default: return .ignored
            }
        }
        if final == UInt8(ascii: "Z") { return .event(.key(.backTab)) }
        return ss3(final).flatMap { $0 == .enter ? nil : Token.event(.key($0)) } ?? .ignored
    }

    /// The function keys of ESC [ n ~ sequences by n (the VT220 numbering,
    /// with its gaps at 16 and 22).
    private static let functionKeys: [Int: Int] = [
        11: 1, 12: 2, 13: 3, 14: 4, 15: 5, 17: 6, 18: 7, 19: 8, 20: 9, 21: 10, 23: 11, 24: 12,
    ]

    /// An SGR mouse report: `b;x;y` then M (press, drag, wheel) or m
    /// (release), with 1-based coordinates.
    private static func mouse(parameters: ArraySlice<UInt8>, final: UInt8) -> MouseEvent? {
        guard final == UInt8(ascii: "M") || final == UInt8(ascii: "m") else { return nil }
        let fields = parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        guard fields.count == 3, let code = number(in: fields[0]), let column = number(in: fields[1]),
              let row = number(in: fields[2]) else { return nil }
        let x = max(column - 1, 0)
        let y = max(row - 1, 0)
        let buttons: [MouseEvent.Button] = [.left, .middle, .right]
        let low = code & 3
        if code & 64 != 0 {
            switch low {
            case 0: return MouseEvent(.wheelUp, x: x, y: y)
            case 1: return MouseEvent(.wheelDown, x: x, y: y)
            default: return nil
            }
        }
        if code & 32 != 0 {
            return MouseEvent(low == 3 ? .move : .drag(buttons[low]), x: x, y: y)
        }
        guard low < 3 else { return nil }
        return MouseEvent(final == UInt8(ascii: "M") ? .press(buttons[low]) : .release(buttons[low]), x: x, y: y)
    }

    /// A decimal number of at most nine digits, nil for anything else.
    private static func number(in digits: some Collection<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }
}
