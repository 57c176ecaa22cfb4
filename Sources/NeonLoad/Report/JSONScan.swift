/// Reads a few fields out of a server message's JSON without decoding it:
/// the load generator receives hundreds of thousands of messages a second
/// and needs only a type, an id, a number. It relies on what the server
/// writes (compact JSON, the ids and keys it was given, no escapes in them);
/// anything else simply does not match.
package struct JSONScan {
    package let bytes: UnsafeBufferPointer<UInt8>

    package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The index just past the first occurrence of `needle` at or after `start`.
    package func end(of needle: [UInt8], from start: Int = 0) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var index = start
        let last = bytes.count - needle.count
        while index <= last {
            if bytes[index] == first {
                var matched = 1
                while matched < needle.count, bytes[index + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return index + matched }
            }
            index += 1
        }
        return nil
    }

    /// `true` when the message's `type` is `type` (`"type":"<type>"` occurs).
    package func hasType(_ type: [UInt8]) -> Bool {
        end(of: type) != nil
    }

    /// The string value of the first `"key":"…"`, up to the next quote.
    package func string(_ key: [UInt8]) -> Substring? {
        guard let start = end(of: key) else { return nil }
        var index = start
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += 1 }
        guard index < bytes.count else { return nil }
        return Substring(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    /// The integer value of the first `"key":n`.
    package func int(_ key: [UInt8]) -> Int? {
        guard var index = end(of: key) else { return nil }
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var value = 0
        var digits = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39, digits < 18 {
            value = value * 10 + Int(bytes[index] - 0x30)
            index += 1
            digits += 1
        }
        guard digits > 0 else { return nil }
        return negative ? -value : value
    }

    /// The needle that finds `"name":` followed by a string's opening quote
    /// (`quoted`) or a number.
    package static func key(_ name: String, quoted: Bool) -> [UInt8] {
        Array("\"\(name)\":\(quoted ? "\"" : "")".utf8)
    }

    /// The needle that finds `"type":"<name>"`.
    package static func type(_ name: String) -> [UInt8] {
        Array("\"type\":\"\(name)\"".utf8)
    }
}
