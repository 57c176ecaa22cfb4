/// The figures of one benchmark run, in order: printed as an aligned table
/// for people and as one JSON object (the run's last line on standard
/// output) for scripts.
package struct BenchReport: Equatable, Sendable {
    /// One figure's value.
    package enum Value: Equatable, Sendable {
        case int(Int)
        /// Printed with `decimals` digits after the point.
        case number(Double, decimals: Int)
        case text(String)
        case flag(Bool)
    }

    /// A figure: its JSON key, its value and the unit shown in the table.
    package struct Figure: Equatable, Sendable {
        package var key: String
        package var value: Value
        package var unit: String

        package init(_ key: String, _ value: Value, unit: String = "") {
            self.key = key
            self.value = value
            self.unit = unit
        }
    }

    package private(set) var figures: [Figure] = []

    package init() {}

    /// Adds a figure, or replaces the one with the same key.
    package mutating func add(_ key: String, _ value: Value, unit: String = "") {
        let figure = Figure(key, value, unit: unit)
        if let index = figures.firstIndex(where: { $0.key == key }) {
            figures[index] = figure
        } else {
            figures.append(figure)
        }
    }

    /// Adds `p50_ms`, `p90_ms`, `p99_ms`, `max_ms` and `mean_ms`.
    package mutating func addLatency(_ summary: LatencySummary, prefix: String = "") {
        for (name, value) in [("p50", summary.p50), ("p90", summary.p90), ("p99", summary.p99),
                              ("max", summary.max), ("mean", summary.mean)] {
            add("\(prefix)\(name)_ms", .number(LatencySummary.milliseconds(value), decimals: 3), unit: "ms")
        }
    }

    package subscript(key: String) -> Value? {
        figures.first { $0.key == key }?.value
    }

    /// One line per figure: the key left-aligned, the value right-aligned,
    /// then its unit.
    package var table: String {
        let keyWidth = figures.map(\.key.count).max() ?? 0
        let valueWidth = figures.map { Self.text($0.value, grouped: true).count }.max() ?? 0
        return figures.map { figure in
            let key = figure.key.padding(to: keyWidth)
            let value = Self.text(figure.value, grouped: true)
            let line = "  \(key)  \(String(repeating: " ", count: valueWidth - value.count))\(value) \(figure.unit)"
            return String(line.reversed().drop { $0 == " " }.reversed())
        }.joined(separator: "\n")
    }

    /// The figures as one JSON object on one line, keys in order.
    package var json: String {
        "{" + figures.map { "\"\(Self.escaped($0.key))\":\(Self.jsonText($0.value))" }.joined(separator: ",") + "}"
    }

    private static func jsonText(_ value: Value) -> String {
        switch value {
        case let .text(string): "\"\(escaped(string))\""
        case let .number(number, _) where !number.isFinite: "null"
        default: text(value, grouped: false)
        }
    }

    /// A value as text; `grouped` puts thin separators (,) in whole numbers.
    static func text(_ value: Value, grouped: Bool) -> String {
        switch value {
        case let .int(number): grouped ? groupedDigits(number) : String(number)
        case let .number(number, decimals): fixed(number, decimals: decimals, grouped: grouped)
        case let .text(string): string
        case let .flag(flag): flag ? "true" : "false"
        }
    }

    /// `number` with exactly `decimals` fractional digits, without Foundation.
    static func fixed(_ number: Double, decimals: Int, grouped: Bool = false) -> String {
        guard number.isFinite else { return "nan" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(number) * scale).rounded()
        guard scaled < 9e18 else { return String(number) }
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        let sign = number < 0 && scaled > 0 ? "-" : ""
        let wholeText = grouped ? groupedDigits(whole) : String(whole)
        guard decimals > 0 else { return sign + wholeText }
        let digits = String(fraction)
        return sign + wholeText + "." + String(repeating: "0", count: decimals - digits.count) + digits
    }

    package static func groupedDigits(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (number < 0 ? "-" : "") + out
    }

    static func escaped(_ string: String) -> String {
        var out = ""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case let s where s.value < 0x20:
                let hex = String(s.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
