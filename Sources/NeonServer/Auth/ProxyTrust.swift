/// `--trust-proxy`: the proxies whose word about the client's address is
/// taken. For a connection from one of them, the client is the address its
/// `X-Forwarded-For` (or, without one, RFC 7239 `Forwarded: for=`) names;
/// from anyone else those headers are ignored.
public struct ProxyTrust: Sendable, Equatable {
    public private(set) var ranges: [AddressRange]

    public init(_ ranges: [AddressRange] = []) {
        self.ranges = ranges
    }

    public mutating func add(_ range: AddressRange) {
        ranges.append(range)
    }

    public var isEmpty: Bool { ranges.isEmpty }

    public func trusts(_ address: IPAddress) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// Where a connection comes from, as limits and logs should see it.
    public struct Resolution: Equatable, Sendable {
        /// The client's address: from the headers of a trusted proxy,
        /// else the connection's own peer address.
        public var address: String
        /// The trusted proxy that named `address`; nil when it is the peer.
        public var proxy: String?
        /// The connection carried forwarding headers that were not used:
        /// its peer is not a trusted proxy.
        public var ignoredHeaders = false
    }

    /// The client behind `peer` (the TCP peer's address as the transport
    /// reports it). Each proxy appends the address it heard from, so the
    /// list is read from the right: trusted proxies are stepped over and
    /// the first address that is not one is the client. Anything unreadable
    /// ends the walk, keeping the last address read (whatever a client
    /// wrote to the left of the real hops cannot matter); a list of trusted
    /// proxies only gives the leftmost.
    public func resolve(peer: String, forwardedFor: String?, forwarded: String?) -> Resolution {
        let hops: [IPAddress?]
        if let forwardedFor, !Self.blank(forwardedFor) {
            hops = Self.forwardedForHops(forwardedFor)
        } else if let forwarded, !Self.blank(forwarded) {
            hops = Self.forwardedHops(forwarded)
        } else {
            return Resolution(address: peer)
        }
        guard let proxy = IPAddress(peer), trusts(proxy) else {
            return Resolution(address: peer, ignoredHeaders: true)
        }
        var client: IPAddress?
        for hop in hops.reversed() {
            guard let hop else { break }
            client = hop
            if !trusts(hop) { break }
        }
        guard let client else { return Resolution(address: peer) }
        return Resolution(address: client.description, proxy: proxy.description)
    }

    private static func blank(_ text: String) -> Bool {
        text.allSatisfy { $0 == " " || $0 == "\t" }
    }

    /// `X-Forwarded-For: client, proxy1, proxy2`: addresses, IPv6 bare or
    /// in brackets, either with an optional port; nil for what is not one.
    static func forwardedForHops(_ value: String) -> [IPAddress?] {
        value.split(separator: ",", omittingEmptySubsequences: false).map { node(trimmed($0)) }
    }

    /// RFC 7239 `Forwarded: for=192.0.2.60;proto=https, for="[2001:db8::17]:4711"`:
    /// the `for` of each element (`unknown`, obfuscated names and elements
    /// without one are nil).
    static func forwardedHops(_ value: String) -> [IPAddress?] {
        elements(value).map { element in
            for pair in element.split(separator: ";") {
                let pair = trimmed(pair)
                guard let eq = pair.firstIndex(of: "="), pair[..<eq].lowercased() == "for" else { continue }
                var value = trimmed(pair[pair.index(after: eq)...])
                if value.count >= 2, value.first == "\"", value.last == "\"" {
                    value = Substring(value.dropFirst().dropLast().replacing("\\", with: ""))
                }
                return node(value)
            }
            return nil
        }
    }

    /// A header value split at commas outside quoted strings.
    private static func elements(_ value: String) -> [Substring] {
        var result: [Substring] = []
        var start = value.startIndex
        var quoted = false
        var escaped = false
        for index in value.indices {
            let c = value[index]
            if escaped { escaped = false; continue }
            if quoted, c == "\\" { escaped = true; continue }
            if c == "\"" { quoted.toggle() }
            if c == ",", !quoted {
                result.append(value[start..<index])
                start = value.index(after: index)
            }
        }
        result.append(value[start...])
        return result
    }

    /// `10.0.0.1`, `10.0.0.1:8080`, `::1`, `[::1]`, `[::1]:8080`.
    private static func node(_ text: Substring) -> IPAddress? {
        if text.first == "[" {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.first == ":" && port(rest.dropFirst())) else { return nil }
            return IPAddress(text[text.index(after: text.startIndex)..<close])
        }
        let colons = text.filter { $0 == ":" }.count
        if colons == 1, let colon = text.firstIndex(of: ":") {
            guard port(text[text.index(after: colon)...]) else { return nil }
            return IPAddress(text[..<colon]).flatMap { $0.isIPv4 ? $0 : nil }
        }
        return IPAddress(text)
    }

    private static func port(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 5 && text.allSatisfy { $0.isASCII && $0.isNumber }
    }

    private static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let c = text.first, c == " " || c == "\t" { text = text.dropFirst() }
        while let c = text.last, c == " " || c == "\t" { text = text.dropLast() }
        return text
    }
}
