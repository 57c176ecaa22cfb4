import Foundation

/// A strict parser of the Prometheus text exposition format 0.0.4, as
/// Prometheus itself reads it, with the house's stricter rules on top: no
/// blank lines, no free comments, no timestamps, and every sample's family
/// has `# HELP` and `# TYPE` before it. Histograms are checked whole.
package struct Exposition {
    package enum Kind: String { case counter, gauge, histogram }

    package struct Sample: Equatable {
        package var name: String
        package var labels: [String: String]
        package var value: Double
    }

    package struct Family {
        package var name: String
        package var help: String?
        package var kind: Kind?
        package var samples: [Sample] = []
    }

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        package init(_ line: Int, _ why: String) { description = "line \(line): \(why)" }
        package init(_ why: String) { description = why }
    }

    package private(set) var families: [String: Family] = [:]
    package private(set) var order: [String] = []

    package init(_ text: String) throws {
        guard text.hasSuffix("\n") else { throw Failure("the exposition does not end with a newline") }
        var current: String?
        var seen: Set<String> = []
        for (offset, line) in text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            if line.hasPrefix("#") {
                let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
                guard parts.count >= 3, parts[0] == "#", parts[1] == "HELP" || parts[1] == "TYPE" else {
                    throw Failure(number, "a comment line that is neither # HELP nor # TYPE: \(line)")
                }
                let name = String(parts[2])
                guard Self.isMetricName(name) else { throw Failure(number, "invalid metric name \(name)") }
                if name != current {
                    guard !order.contains(name) else { throw Failure(number, "family \(name) appears in two places") }
                    current = name
                    order.append(name)
                    families[name] = Family(name: name)
                }
                let rest = parts.count == 4 ? String(parts[3]) : ""
                if parts[1] == "HELP" {
                    guard families[name]?.help == nil else { throw Failure(number, "a second # HELP for \(name)") }
                    families[name]?.help = try Self.unescape(rest, quotes: false, line: number)
                } else {
                    guard families[name]?.kind == nil else { throw Failure(number, "a second # TYPE for \(name)") }
                    guard let kind = Kind(rawValue: rest) else { throw Failure(number, "unknown type \(rest) for \(name)") }
                    guard families[name]?.samples.isEmpty == true else { throw Failure(number, "# TYPE after samples of \(name)") }
                    families[name]?.kind = kind
                }
                continue
            }
            let sample = try Self.sample(String(line), line: number)
            guard let family = current, let kind = families[family]?.kind, families[family]?.help != nil,
                  Self.belongs(sample.name, to: family, kind) else {
                throw Failure(number, "sample \(sample.name) without # HELP and # TYPE of its family just before it")
            }
            let key = sample.name + "|" + sample.labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            guard seen.insert(key).inserted else { throw Failure(number, "a second sample of the series \(key)") }
            if kind == .counter, !(sample.value >= 0) { throw Failure(number, "counter \(sample.name) is \(sample.value)") }
            if sample.labels["le"] != nil, !sample.name.hasSuffix("_bucket") || kind != .histogram {
                throw Failure(number, "label le outside a histogram bucket")
            }
            families[family]?.samples.append(sample)
        }
        for name in order {
            guard let family = families[name], family.help != nil, family.kind != nil else {
                throw Failure("family \(name) lacks # HELP or # TYPE")
            }
            if family.kind == .histogram { try Self.checkHistogram(family) }
        }
    }

    /// The value of the one sample named `name` with exactly `labels`.
    package func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        families.values.lazy.flatMap(\.samples).first { $0.name == name && $0.labels == labels }?.value
    }

    private static func belongs(_ sample: String, to family: String, _ kind: Kind) -> Bool {
        guard kind == .histogram else { return sample == family }
        return ["_bucket", "_sum", "_count"].contains { sample == family + $0 }
    }

    private static func checkHistogram(_ family: Family) throws {
        var groups: [[String: String]: (buckets: [(le: Double, count: Double)], sum: Double?, count: Double?)] = [:]
        for sample in family.samples {
            var key = sample.labels
            key["le"] = nil
            var group = groups[key] ?? ([], nil, nil)
            switch sample.name {
            case family.name + "_bucket":
                guard let le = sample.labels["le"], let bound = parseValue(le) else {
                    throw Failure("\(sample.name) has no numeric le label")
                }
                group.buckets.append((bound, sample.value))
            case family.name + "_sum": group.sum = sample.value
            default: group.count = sample.value
            }
            groups[key] = group
        }
        guard !groups.isEmpty else { throw Failure("histogram \(family.name) has no samples") }
        for (labels, group) in groups {
            guard let count = group.count, group.sum != nil else { throw Failure("histogram \(family.name)\(labels) lacks _sum or _count") }
            guard let last = group.buckets.last, last.le == .infinity, last.count == count else {
                throw Failure("histogram \(family.name)\(labels) does not end with le=\"+Inf\" equal to _count")
            }
            for (a, b) in zip(group.buckets, group.buckets.dropFirst()) {
                guard a.le < b.le else { throw Failure("histogram \(family.name) buckets are not in ascending le order") }
                guard a.count <= b.count else { throw Failure("histogram \(family.name) buckets are not cumulative") }
            }
        }
    }

    private static func sample(_ line: String, line number: Int) throws -> Sample {
        let chars = Array(line)
        var i = 0
        while i < chars.count, chars[i] != "{", chars[i] != " " { i += 1 }
        let name = String(chars[0..<i])
        guard isMetricName(name) else { throw Failure(number, "invalid metric name \(name)") }
        var labels: [String: String] = [:]
        if i < chars.count, chars[i] == "{" {
            i += 1
            while true {
                let start = i
                while i < chars.count, chars[i] != "=" { i += 1 }
                let label = String(chars[start..<min(i, chars.count)])
                guard i < chars.count, isLabelName(label) else { throw Failure(number, "invalid label name \(label)") }
                guard i + 1 < chars.count, chars[i + 1] == "\"" else { throw Failure(number, "label \(label) has no quoted value") }
                i += 2
                var raw = ""
                while i < chars.count, chars[i] != "\"" {
                    if chars[i] == "\\", i + 1 < chars.count { raw.append(chars[i]); i += 1 }
                    raw.append(chars[i])
                    i += 1
                }
                guard i < chars.count else { throw Failure(number, "label \(label)'s value is not closed") }
                guard labels.updateValue(try unescape(raw, quotes: true, line: number), forKey: label) == nil else {
                    throw Failure(number, "label \(label) appears twice")
                }
                i += 1
                guard i < chars.count else { throw Failure(number, "labels are not closed") }
                if chars[i] == "," { i += 1; continue }
                guard chars[i] == "}" else { throw Failure(number, "expected , or } after label \(label)") }
                i += 1
                break
            }
        }
        guard i < chars.count, chars[i] == " " else { throw Failure(number, "no single space before the value") }
        let text = String(chars[(i + 1)...])
        guard let value = parseValue(text) else { throw Failure(number, "invalid value \"\(text)\"") }
        return Sample(name: name, labels: labels, value: value)
    }

    /// A Go float as Prometheus writes it: decimal or exponent, `+Inf`, `-Inf`, `NaN`.
    package static func parseValue(_ text: String) -> Double? {
        switch text {
        case "+Inf": return .infinity
        case "-Inf": return -.infinity
        case "NaN": return .nan
        default:
            guard text.wholeMatch(of: /[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?/) != nil else { return nil }
            return Double(text)
        }
    }

    package static func isMetricName(_ name: String) -> Bool {
        name.wholeMatch(of: /[a-zA-Z_:][a-zA-Z0-9_:]*/) != nil
    }

    package static func isLabelName(_ name: String) -> Bool {
        name.wholeMatch(of: /[a-zA-Z_][a-zA-Z0-9_]*/) != nil && !name.hasPrefix("__")
    }

    /// `\\` and `\n` (and `\"` in label values) are the only escapes.
    private static func unescape(_ text: String, quotes: Bool, line: Int) throws -> String {
        var out = ""
        var escaping = false
        for c in text {
            if escaping {
                switch c {
                case "\\": out.append("\\")
                case "n": out.append("\n")
                case "\"" where quotes: out.append("\"")
                default: throw Failure(line, "invalid escape \\\(c)")
                }
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else {
                if quotes, c == "\"" { throw Failure(line, "an unescaped quote in a label value") }
                out.append(c)
            }
        }
        guard !escaping else { throw Failure(line, "a dangling backslash") }
        return out
    }
}
