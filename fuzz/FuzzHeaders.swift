// A libFuzzer target over what the server reads from a WebSocket
// handshake's headers before it accepts it: the proxy headers
// (`X-Forwarded-For`, RFC 7239 `Forwarded`) through NeonServer's
// ProxyTrust and IPAddress, `Origin` through NeonTransport's OriginPolicy,
// and `Host`/`Sec-WebSocket-Key`/`Sec-WebSocket-Version` through
// HandshakeRefusal. Built and run by scripts/fuzz.sh from those files alone
// (no libwebsockets: these are the pure functions the callbacks call).
//
// The input is up to seven lines: X-Forwarded-For, Forwarded, Origin, Host,
// Sec-WebSocket-Key, Sec-WebSocket-Version and the TCP peer's address; a
// missing line is a missing header. Checks: the client a trusted proxy names
// is an address that prints and parses back to itself, from anyone else
// the peer; a normalized origin normalizes to itself and is allowed by a
// policy listing it; a refusal is a well-formed HTTP/1.1 answer.

private let trust = ProxyTrust(["10.0.0.0/8", "127.0.0.1", "::1", "fd00::/8"].compactMap(AddressRange.init))
private let policy = OriginPolicy(allowing: ["https://app.example.com", "http://localhost:8080"])

func fuzzHeaders(_ data: UnsafePointer<UInt8>, _ size: Int) {
    let lines = UnsafeBufferPointer(start: data, count: size)
        .split(separator: 0x0A, maxSplits: 6, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    func header(_ index: Int) -> String? { index < lines.count ? lines[index] : nil }
    let peer = header(6) ?? "10.0.0.1"

    let resolution = trust.resolve(peer: peer, forwardedFor: header(0), forwarded: header(1))
    if resolution.proxy != nil {
        guard let client = IPAddress(resolution.address), client.description == resolution.address else {
            fatalError("a trusted proxy named \(resolution.address.debugDescription), not an address")
        }
    } else if resolution.address != peer {
        fatalError("the client \(resolution.address) came from headers no trusted proxy sent")
    }
    for text in lines {
        if let address = IPAddress(text), IPAddress(address.description) != address {
            fatalError("address \(text.debugDescription) prints as \(address), which reads back differently")
        }
        if let range = AddressRange(text), let address = IPAddress(text.prefix { $0 != "/" }), !range.contains(address) {
            fatalError("range \(text.debugDescription) does not contain its own address")
        }
    }

    if let origin = header(2) {
        let allowed = policy.allows(origin)
        if let normalized = OriginPolicy.normalized(origin) {
            guard OriginPolicy.normalized(normalized) == normalized,
                  OriginPolicy(allowing: [origin]).allows(origin) else {
                fatalError("origin \(origin.debugDescription) normalizes to \(normalized.debugDescription), unstable")
            }
            if allowed != policy.allowed.contains(normalized) {
                fatalError("origin \(origin.debugDescription) allowed: \(allowed), its normal form is not")
            }
        } else if allowed {
            fatalError("origin \(origin.debugDescription) is no origin, yet allowed")
        }
    }

    if let refusal = HandshakeRefusal.check(host: header(3), key: header(4), version: header(5)) {
        let response = String(decoding: refusal.response, as: UTF8.self)
        guard [400, 426].contains(refusal.status), response.hasPrefix("HTTP/1.1 \(refusal.status) "),
              response.hasSuffix("\r\n\r\n" + refusal.body), refusal.body.hasSuffix("\n"),
              response.contains("content-length: \(refusal.body.utf8.count)\r\n") else {
            fatalError("a malformed refusal: \(response.debugDescription)")
        }
    }
}
