import Glibc

/// An IPv4 or IPv6 address, held as 16 bytes (IPv4 as IPv4-mapped IPv6, so
/// `::ffff:10.0.0.1` and `10.0.0.1` are the same address).
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// Network order; IPv4 in the last four after `::ffff:`.
    let bytes: [UInt8]

    /// `10.0.0.1`, `::1`, `2001:db8::17`, `::ffff:10.0.0.1`; nil for
    /// anything else (names, ports, brackets, zone ids).
    public init?(_ text: some StringProtocol) {
        let text = String(text)
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = Self.mappedPrefix + withUnsafeBytes(of: v4.s_addr) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        bytes = withUnsafeBytes(of: v6) { Array($0) }
    }

    private static let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF]

    /// Whether it is an IPv4 address (or IPv4-mapped IPv6 one).
    public var isIPv4: Bool { bytes.starts(with: Self.mappedPrefix) }

    /// The usual text: dotted IPv4, or RFC 5952 IPv6 (`inet_ntop`).
    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        if isIPv4 {
            var v4 = in_addr()
            withUnsafeMutableBytes(of: &v4.s_addr) { $0.copyBytes(from: bytes[12...]) }
            return inet_ntop(AF_INET, &v4, &buffer, socklen_t(buffer.count)).map { String(cString: $0) } ?? ""
        }
        var v6 = in6_addr()
        withUnsafeMutableBytes(of: &v6) { $0.copyBytes(from: bytes) }
        return inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)).map { String(cString: $0) } ?? ""
    }
}

/// One `--trust-proxy` value: an address, or a CIDR range of them.
public struct AddressRange: Equatable, Sendable, CustomStringConvertible {
    let network: IPAddress
    /// Leading bits that must match, of the 128-bit (mapped) form.
    let bits: Int
    public let description: String

    /// `10.0.0.5`, `::1`, `10.0.0.0/8`, `fd00::/8`; nil for anything else.
    /// Bits past the prefix are ignored (`10.1.2.3/8` is `10.0.0.0/8`).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else { return nil }
        let width = address.isIPv4 ? 32 : 128
        var prefix = width
        if parts.count == 2 {
            guard parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(parts[1]), (0...width).contains(n) else { return nil }
            prefix = n
        }
        bits = prefix + (address.isIPv4 ? 96 : 0)
        network = address
        description = text
    }

    public func contains(_ address: IPAddress) -> Bool {
        var left = bits
        for (a, b) in zip(network.bytes, address.bytes) {
            guard left > 0 else { return true }
            let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
            guard a & mask == b & mask else { return false }
            left -= 8
        }
        return true
    }
}
