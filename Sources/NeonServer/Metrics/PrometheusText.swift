/// Writes the Prometheus text exposition format, version 0.0.4: each family
/// as `# HELP`, `# TYPE`, then its samples, one per line.
struct PrometheusText {
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    enum Kind: String {
        case counter, gauge, histogram
    }

    private(set) var text = ""

    mutating func family(_ name: String, _ kind: Kind, help: String) {
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(kind.rawValue)\n"
    }

    mutating func sample(_ name: String, labels: [(name: String, value: String)] = [], _ value: Int) {
        sample(name, labels: labels, value: String(value))
    }

    mutating func sample(_ name: String, labels: [(name: String, value: String)] = [], value: String) {
        text += name
        if !labels.isEmpty {
            text += "{"
            text += labels.map { "\($0.name)=\"\(Self.escapeLabel($0.value))\"" }.joined(separator: ",")
            text += "}"
        }
        text += " \(value)\n"
    }

    /// A whole histogram family: cumulative `_bucket`s ending in `+Inf`, `_sum` in seconds, `_count`.
    mutating func histogram(_ name: String, _ histogram: Histogram, labels: [(name: String, value: String)] = [],
                            help: String) {
        family(name, .histogram, help: help)
        let cumulative = histogram.cumulative
        for (bound, count) in zip(histogram.boundsMicroseconds, cumulative) {
            sample("\(name)_bucket", labels: labels + [("le", Self.seconds(microseconds: bound))], count)
        }
        sample("\(name)_bucket", labels: labels + [("le", "+Inf")], histogram.count)
        sample("\(name)_sum", labels: labels, value: Self.seconds(nanoseconds: histogram.sumNanoseconds))
        sample("\(name)_count", labels: labels, histogram.count)
    }

    /// `50` → `0.00005`: a plain decimal, no exponent.
    static func seconds(microseconds: Int) -> String {
        decimal(microseconds, scale: 6)
    }

    /// `1_500` → `0.0000015`.
    static func seconds(nanoseconds: Int) -> String {
        decimal(nanoseconds, scale: 9)
    }

    private static func decimal(_ value: Int, scale: Int) -> String {
        var unit = 1
        for _ in 0..<scale { unit *= 10 }
        let whole = value / unit
        var fraction = String(value % unit)
        fraction = String(repeating: "0", count: scale - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return fraction.isEmpty ? String(whole) : "\(whole).\(fraction)"
    }

    private static func escapeHelp(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("\n", with: "\\n")
    }

    private static func escapeLabel(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n")
    }
}
