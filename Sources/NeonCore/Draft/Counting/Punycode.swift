/// Punycode (RFC 3492), as twitter-text's URL extraction uses it to measure
/// a domain label's ASCII form against DNS's 63-character limit.
enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700
    private static let initialBias = 72, initialN = 128

    /// The ASCII form of one label, like punycode.js's `toASCII`: the label
    /// itself when it is ASCII, else `xn--` and its encoding. Like
    /// `toASCII`, it also splits at the ideographic full stops.
    static func toASCII(_ label: some Collection<Unicode.Scalar>) -> String {
        label.split(omittingEmptySubsequences: false) { ".。．｡".unicodeScalars.contains($0) }
            .map { part in
                part.allSatisfy(\.isASCII) ? String(String.UnicodeScalarView(part)) : "xn--" + encode(Array(part))
            }
            .joined(separator: ".")
    }

    /// The encoding of `input`, without the `xn--` prefix.
    static func encode(_ input: [Unicode.Scalar]) -> String {
        var output = input.filter(\.isASCII).map { Character($0) }
        let basicCount = output.count
        if basicCount > 0 { output.append("-") }
        var n = initialN, delta = 0, bias = initialBias, handled = basicCount
        while handled < input.count {
            let next = input.lazy.map { Int($0.value) }.filter { $0 >= n }.min() ?? n
            delta += (next - n) * (handled + 1)
            n = next
            for scalar in input {
                let value = Int(scalar.value)
                if value < n { delta += 1 }
                guard value == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                    if q < t { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta, points: handled + 1, first: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(output)
    }

    private static func adapt(_ delta: Int, points: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / points
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    private static func digit(_ d: Int) -> Character {
        Character(Unicode.Scalar(UInt8(d < 26 ? 0x61 + d : 0x30 + d - 26)))
    }
}
