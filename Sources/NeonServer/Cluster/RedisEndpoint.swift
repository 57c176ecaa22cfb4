import NeonCore

/// A Redis server's or a Sentinel's host and port.
public struct RedisAddress: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host; self.port = port
    }

    public var description: String { "\(host):\(port)" }
}

/// One shard's Redis as `--redis` names it: `redis://HOST:PORT[/DB]`, a
/// server, or `sentinel://HOST:PORT,HOST:PORT,…/MASTERNAME[/DB]`, whatever
/// master those Sentinels name (docs/CLUSTER.md, "Replicas and Sentinel").
public struct RedisEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// The server's address (a `redis://` endpoint's; unused with Sentinels).
    public var host: String
    public var port: Int
    public var database: Int
    /// The Sentinels to ask for the master, in the order given; empty for
    /// a `redis://` endpoint.
    public var sentinels: [RedisAddress]
    /// The name the Sentinels monitor the master under ("" without them).
    public var masterName: String

    public init(host: String, port: Int, database: Int = 0) {
        self.host = host; self.port = port; self.database = database
        sentinels = []; masterName = ""
    }

    public init(sentinels: [RedisAddress], masterName: String, database: Int = 0) {
        precondition(!sentinels.isEmpty, "a Sentinel endpoint names at least one Sentinel")
        host = sentinels[0].host; port = sentinels[0].port; self.database = database
        self.sentinels = sentinels; self.masterName = masterName
    }

    /// Whether the Sentinels name this shard's master.
    public var isSentinel: Bool { !sentinels.isEmpty }

    static let usage = "write redis://HOST:PORT[/DB], e.g. redis://127.0.0.1:6379/0, or sentinel://HOST:PORT,HOST:PORT,HOST:PORT/MASTERNAME[/DB], e.g. sentinel://10.0.0.1:26379,10.0.0.2:26379,10.0.0.3:26379/neonsync1"

    /// Parses a `redis://` or `sentinel://` URL, or says what to write instead.
    public init(parsing url: String, flag: String = "--redis") throws(NeonError) {
        if url.hasPrefix("sentinel://") {
            self = try Self.sentinel(parsing: url, flag: flag)
            return
        }
        guard url.hasPrefix("redis://") else {
            throw NeonError.usage("\(flag) \(url) is not a redis:// or sentinel:// URL; \(Self.usage) (a password goes in --redis-password-file)")
        }
        var rest = Substring(url.dropFirst("redis://".count))
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            database = try Self.database(rest[rest.index(after: slash)...], url: url, flag: flag)
            rest = rest[..<slash]
        }
        let address = try Self.address(rest, url: url, flag: flag, defaultPort: 6379)
        self.init(host: address.host, port: address.port, database: database)
    }

    private static func sentinel(parsing url: String, flag: String) throws(NeonError) -> RedisEndpoint {
        let parts = url.dropFirst("sentinel://".count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, !parts[1].isEmpty else {
            throw NeonError.usage("\(flag) \(url) names no master: a sentinel:// URL ends with /MASTERNAME, the name the Sentinels monitor it under (`sentinel monitor NAME …`); \(usage)")
        }
        guard parts[1].allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
            throw NeonError.usage("\(flag) \(url): the master's name \"\(parts[1])\" may hold only letters, digits, '-', '_' and '.'; \(usage)")
        }
        let database = parts.count == 3 ? try Self.database(parts[2], url: url, flag: flag) : 0
        var sentinels: [RedisAddress] = []
        for entry in parts[0].split(separator: ",", omittingEmptySubsequences: false) {
            guard !entry.isEmpty else {
                throw NeonError.usage("\(flag) \(url) lists an empty Sentinel; join the Sentinels' HOST:PORT with commas, no spaces; \(usage)")
            }
            let address = try Self.address(entry, url: url, flag: flag, defaultPort: 26379)
            guard !sentinels.contains(address) else {
                throw NeonError.usage("\(flag) \(url) lists the Sentinel \(address) twice; list each once")
            }
            sentinels.append(address)
        }
        return RedisEndpoint(sentinels: sentinels, masterName: String(parts[1]), database: database)
    }

    private static func database(_ text: Substring, url: String, flag: String) throws(NeonError) -> Int {
        guard text.isEmpty || Int(text).map({ (0...15).contains($0) }) == true else {
            throw NeonError.usage("\(flag) \(url): database \"\(text)\" is not a number from 0 to 15; \(usage)")
        }
        return Int(text) ?? 0
    }

    private static func address(_ text: Substring, url: String, flag: String, defaultPort: Int) throws(NeonError) -> RedisAddress {
        guard !text.contains("@") else {
            throw NeonError.usage("\(flag) \(url) carries a password; put it in a file readable only by you and pass --redis-password-file FILE")
        }
        var host = String(text)
        var port = defaultPort
        if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            guard let p = Int(text[text.index(after: colon)...]), (1...65535).contains(p) else {
                throw NeonError.usage("\(flag) \(url): the port of \"\(text)\" is not a number from 1 to 65535; \(usage)")
            }
            port = p
        }
        guard !host.isEmpty else { throw NeonError.usage("\(flag) \(url) names no host in \"\(text)\"; \(usage)") }
        return RedisAddress(host: host, port: port)
    }

    public var description: String {
        let db = database == 0 ? "" : "/\(database)"
        guard isSentinel else { return "redis://\(host):\(port)" + db }
        return "sentinel://" + sentinels.map(\.description).joined(separator: ",") + "/\(masterName)" + db
    }

    /// Parses `--redis`: one URL, or several joined by commas (the
    /// cluster's shards, in order; a `sentinel://` URL's own commas join its
    /// Sentinels), or says what to write instead.
    public static func list(parsing text: String, flag: String = "--redis") throws(NeonError) -> [RedisEndpoint] {
        let entries = Self.split(text)
        guard entries.count > 1 else { return [try RedisEndpoint(parsing: text, flag: flag)] }
        var endpoints: [RedisEndpoint] = []
        for (offset, entry) in entries.enumerated() {
            guard !entry.isEmpty else {
                throw NeonError.usage("\(flag) \(text): entry \(offset + 1) of \(entries.count) is empty; list the shards' URLs joined by commas, with no spaces, e.g. redis://10.0.0.1:6379,redis://10.0.0.2:6379")
            }
            let endpoint = try RedisEndpoint(parsing: entry, flag: flag)
            guard !endpoints.contains(endpoint) else {
                throw NeonError.usage("\(flag) \(text) lists \(endpoint) twice; each shard is a Redis of its own, listed once")
            }
            endpoints.append(endpoint)
        }
        return endpoints
    }

    /// The shards' URLs of a `--redis` list: split at each comma, except
    /// that the pieces after a `sentinel://` up to its `/MASTERNAME` are its
    /// Sentinels.
    static func split(_ text: String) -> [String] {
        var entries: [String] = []
        var inSentinels = false
        for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
            if inSentinels, !piece.hasPrefix("redis://"), !piece.hasPrefix("sentinel://"), var last = entries.popLast() {
                last += "," + piece
                entries.append(last)
            } else {
                entries.append(String(piece))
            }
            let body = piece.hasPrefix("sentinel://") ? piece.dropFirst("sentinel://".count) : piece
            inSentinels = entries.last?.hasPrefix("sentinel://") == true && !body.contains("/")
        }
        return entries
    }
}
