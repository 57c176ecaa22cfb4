import NeonTransportCore

/// Which web pages may open WebSocket connections to the server.
///
/// Browsers send an `Origin` header (`https://app.example.com`) naming the
/// page that opens a WebSocket; other programs (the terminal clients,
/// scripts) send none. A page on any site the user visits can try to
/// connect to a server the user's machine can reach, a loopback one
/// included, so a handshake that carries an `Origin` is accepted only when
/// the policy lists that origin. Handshakes without `Origin` are always
/// accepted: they did not come from a page.
public struct OriginPolicy: Sendable, Equatable {
    /// The allowed origins, normalized (see ``normalized(_:)``); `*`
    /// allows every origin.
    public private(set) var allowed: Set<String>

    /// A policy allowing exactly `origins` (each normalized); `*` allows
    /// every origin. Entries that are not origins are dropped: check them
    /// with ``normalized(_:)`` first.
    public init(allowing origins: [String] = []) {
        allowed = Set(origins.compactMap(Self.normalized))
    }

    /// No web page may connect; non-browser clients may. The default.
    public static let noBrowsers = OriginPolicy()

    /// `true` when a handshake with this `Origin` header value (or none)
    /// may proceed.
    public func allows(_ origin: String?) -> Bool {
        guard let origin else { return true }
        if allowed.contains("*") { return true }
        guard let normalized = Self.normalized(origin) else { return false }
        return allowed.contains(normalized)
    }

    /// An origin in canonical form: `scheme://host[:port]` with the scheme
    /// and host in lowercase, the scheme's default port (80 for http, 443
    /// for https) and a trailing `/` removed; `*` and `null` as they are.
    /// `nil` when `text` is not of that form (a path, a query, user
    /// information, an empty host, a colon in the host outside brackets or
    /// a port that is not a number).
    public static func normalized(_ text: String) -> String? {
        if text == "*" || text == "null" { return text }
        var rest = Substring(text)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") else { return nil }
        let scheme = rest[..<colon].lowercased()
        let authority = rest[rest.index(colon, offsetBy: 3)...]
        let schemeCharacters: (Character) -> Bool = { $0.isLetter || $0.isNumber || "+-.".contains($0) }
        let forbidden: (Character) -> Bool = { "/?#@ ".contains($0) }
        guard !scheme.isEmpty, scheme.allSatisfy(schemeCharacters),
              !authority.isEmpty, !authority.contains(where: forbidden)
        else { return nil }
        var host = Substring(authority)
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                port = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
            guard !host.contains(":") else { return nil }
        }
        guard !host.isEmpty else { return nil }
        var canonical = "\(scheme)://\(host.lowercased())"
        if let port {
            guard let number = Int(port), (1...65535).contains(number) else { return nil }
            let isDefault = (scheme == "http" && number == 80) || (scheme == "https" && number == 443)
            if !isDefault { canonical += ":\(number)" }
        }
        return canonical
    }
}
