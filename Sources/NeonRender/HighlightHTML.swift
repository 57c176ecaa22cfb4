import NeonCore

/// Reads the HTML fragment `highlight --out-format=html --fragment` writes:
/// the code with its entities (`&lt;`, `&amp;`, `&quot;`, `&#NN;`) and its
/// tokens in `<span class="hl CLASS">`. The text it comes to must be the
/// code given (with one trailing newline more when the code has none:
/// `highlight` ends its last line); anything else gives nil, so a reader never sees a run on the
/// wrong characters.
enum HighlightHTML {
    /// `highlight`'s classes (its themes' names) to the classes a reader
    /// tells apart; `opt` (operators) and plain text get no run.
    static let classes: [String: CodeClass] = [
        "kwa": .keyword, "kwb": .type, "kwc": .builtin, "kwd": .function, "kwe": .builtin, "kwf": .builtin,
        "str": .string, "pps": .string, "esc": .escape, "ipl": .escape, "num": .number,
        "slc": .comment, "com": .comment, "ppc": .preprocessor,
    ]

    static func runs(of html: [UInt8], code: [UInt8]) -> [CodeRun]? {
        var runs: [CodeRun] = []
        var stack: [CodeClass?] = []
        var at = 0, offset = 0, endedLine = false
        func add(_ byte: UInt8) -> Bool {
            guard offset < code.count else {
                defer { endedLine = true }
                return byte == 0x0a && !endedLine && code.last != 0x0a
            }
            guard code[offset] == byte else { return false }
            if let kind = stack.last ?? nil {
                if let last = runs.last, last.kind == kind, last.bytes.upperBound == offset {
                    runs[runs.count - 1] = CodeRun(bytes: last.bytes.lowerBound..<offset + 1, kind: kind)
                } else {
                    runs.append(CodeRun(bytes: offset..<offset + 1, kind: kind))
                }
            }
            offset += 1
            return true
        }
        while at < html.count {
            let byte = html[at]
            if byte == UInt8(ascii: "<") {
                guard let end = html[at...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
                let tag = String(decoding: html[(at + 1)..<end], as: UTF8.self)
                if tag.hasPrefix("/span") {
                    guard !stack.isEmpty else { return nil }
                    stack.removeLast()
                } else if tag.hasPrefix("span") {
                    stack.append(spanClass(tag).flatMap { classes[$0] })
                } else {
                    return nil
                }
                at = end + 1
            } else if byte == UInt8(ascii: "&") {
                guard let end = html[at...].prefix(12).firstIndex(of: UInt8(ascii: ";")),
                      let decoded = entity(String(decoding: html[(at + 1)..<end], as: UTF8.self))
                else { return nil }
                for byte in decoded.utf8 where !add(byte) { return nil }
                at = end + 1
            } else {
                guard add(byte) else { return nil }
                at += 1
            }
        }
        guard offset == code.count, stack.isEmpty else { return nil }
        return runs
    }

    /// The last word of a span's class attribute ("hl kwa" gives "kwa").
    private static func spanClass(_ tag: String) -> String? {
        guard let start = tag.range(of: "class=\"") else { return nil }
        let value = tag[start.upperBound...].prefix { $0 != "\"" }
        return value.split(separator: " ").last.map(String.init)
    }

    private static func entity(_ name: String) -> String? {
        switch name {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return "\u{a0}"
        default:
            let digits = name.dropFirst()
            guard name.hasPrefix("#") else { return nil }
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
    }
}
