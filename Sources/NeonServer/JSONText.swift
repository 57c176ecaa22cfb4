/// Minimal JSON text writing for log lines: strings escaped per RFC 8259.
enum JSONText {
    static func appendString(_ s: String, to out: inout String) {
        out.append("\"")
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            case let c where c.value < 0x20 || c.value == 0x7F:
                let hex = String(c.value, radix: 16)
                out.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out.append("\"")
    }

    static func appendNumber(_ d: Double, to out: inout String) {
        if d.isFinite {
            out.append(d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d))
        } else {
            out.append("null")
        }
    }
}
