/// A strict JSON parser (RFC 8259) for catalogs. Its errors say what was
/// expected, what was found, and at which line and column, e.g.
/// "catalog is not valid JSON at line 3, column 5: expected ',' or ']'
/// after an array element, found '}'".
struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0

    /// Deeper nesting is refused rather than risking the stack.
    static let maxDepth = 64

    static func parse(_ text: String) throws(NeonError) -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8))
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else {
            throw parser.failure("expected the end of the text after the catalog's array")
        }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func value(depth: Int) throws(NeonError) -> JSONValue {
        skipWhitespace()
        guard depth < Self.maxDepth else {
            throw failure("values are nested more than \(Self.maxDepth) levels deep")
        }
        guard let byte = current else { throw failure("expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number(); return .number
        default: throw failure("expected a value")
        }
    }

    private mutating func array(depth: Int) throws(NeonError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw failure("expected ',' or ']' after an array element")
            }
        }
    }

    private mutating func object(depth: Int) throws(NeonError) -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a member name in double quotes") }
            let name = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after the member name \"\(name)\"") }
            index += 1
            members[name] = try value(depth: depth + 1)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw failure("expected ',' or '}' after the value of \"\(name)\"")
            }
        }
    }

    private mutating func string() throws(NeonError) -> String {
        index += 1
        var out: [UInt8] = []
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                try escape(into: &out)
            case 0x00..<0x20:
                throw failure("a control character inside a string must be escaped, e.g. as \\n")
            default:
                out.append(byte)
                index += 1
            }
        }
        throw failure("the string is not closed with '\"'")
    }

    /// The one-character escapes and what they stand for.
    private static let simpleEscapes: [UInt8: UInt8] = [
        UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F,
        UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A,
        UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
    ]

    private mutating func escape(into out: inout [UInt8]) throws(NeonError) {
        guard let byte = current else { throw failure("the string is not closed with '\"'") }
        if let replacement = Self.simpleEscapes[byte] {
            out.append(replacement)
            index += 1
            return
        }
        guard byte == UInt8(ascii: "u") else { throw failure("unknown escape '\\\(Character(Unicode.Scalar(byte)))'") }
        index += 1
        var value = try hexQuad()
        if (0xD800..<0xDC00).contains(value) {
            guard current == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") else {
                throw failure("a \\u escape of a high surrogate must be followed by a low surrogate")
            }
            index += 2
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("expected a low surrogate \\uDC00–\\uDFFF") }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(value) else { throw failure("a \\u escape names a lone low surrogate") }
        out.append(contentsOf: String(Character(scalar)).utf8)
    }

    private mutating func hexQuad() throws(NeonError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Self.hexDigit(byte) else {
                throw failure("expected four hexadecimal digits after \\u")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func number() throws(NeonError) {
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            try digits("expected a digit in the number")
        }
        if current == UInt8(ascii: ".") {
            index += 1
            try digits("expected a digit after the decimal point")
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            try digits("expected a digit in the exponent")
        }
    }

    private mutating func digits(_ expectation: String) throws(NeonError) {
        let start = index
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
        if index == start { throw failure(expectation) }
    }

    private mutating func literal(_ word: String) throws(NeonError) {
        for expected in word.utf8 {
            guard current == expected else { throw failure("expected \(word)") }
            index += 1
        }
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func peek(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// An error at the current position, naming what was found there.
    private func failure(_ expectation: String) -> NeonError {
        let before = bytes[..<min(index, bytes.count)]
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let column = String(decoding: bytes[lineStart..<before.endIndex], as: UTF8.self).count + 1
        return NeonError("catalog is not valid JSON at line \(line), column \(column): \(expectation), found \(found)")
    }

    /// The character at the current position in words: 'x', U+000D for
    /// invisible ones, or the end of the text.
    private var found: String {
        guard index < bytes.count,
              let scalar = String(decoding: bytes[index...].prefix(4), as: UTF8.self).unicodeScalars.first else {
            return "the end of the text"
        }
        guard scalar.value > 0x20, !scalar.properties.isWhitespace else {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(4 - hex.count, 0)) + hex
        }
        return "'\(scalar)'"
    }
}
