import CHiredis
import Glibc
import NeonCore

/// One blocking hiredis connection. Not thread-safe: each thread that talks
/// to Redis owns one (the writer, the reader). After any I/O error the
/// connection is dead (`isBroken`) and must be replaced. Package-wide:
/// neonsync-bench's Redis load reads Redis's CPU time and the rooms'
/// counters through it.
package final class RedisConnection {
    private var context: UnsafeMutablePointer<redisContext>?
    let endpoint: RedisEndpoint

    /// Connects (with a timeout), authenticates and selects the database.
    package init(_ endpoint: RedisEndpoint, password: String?, timeout: Duration = .seconds(2)) throws(NeonError) {
        self.endpoint = endpoint
        var tv = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        if tv.tv_sec == 0 { tv.tv_usec = 500_000 }
        guard let c = redisConnectWithTimeout(endpoint.host, Int32(endpoint.port), tv) else {
            throw NeonError("cannot reach Redis at \(endpoint): out of memory")
        }
        if c.pointee.err != 0 {
            let reason = String(cString: neon_redis_errstr(c))
            redisFree(c)
            throw NeonError("cannot reach Redis at \(endpoint): \(reason)")
        }
        context = c
        redisEnableKeepAlive(c)
        if let password {
            if case let .error(message) = try command(["AUTH", password]) {
                close()
                throw NeonError("Redis at \(endpoint) refused the password from --redis-password-file: \(message)")
            }
        }
        if endpoint.database != 0, case let .error(message) = try command(["SELECT", String(endpoint.database)]) {
            close()
            throw NeonError("Redis at \(endpoint) cannot select database \(endpoint.database): \(message)")
        }
    }

    deinit { close() }

    var isBroken: Bool { context == nil }

    package func close() {
        if let context { redisFree(context) }
        context = nil
    }

    /// Sets how long a read may block (SO_RCVTIMEO); nil blocks forever.
    func setTimeout(_ timeout: Duration?) {
        guard let context else { return }
        let t = timeout ?? .zero
        let tv = timeval(tv_sec: Int(t.components.seconds), tv_usec: Int(t.components.attoseconds / 1_000_000_000_000))
        redisSetTimeout(context, tv)
    }

    /// Reads the next `count` replies (of commands sent before), in order.
    func receive(_ count: Int) throws(NeonError) -> [RedisReply] {
        guard let context else { throw NeonError("the connection to Redis at \(endpoint) is closed") }
        var replies: [RedisReply] = []
        replies.reserveCapacity(count)
        for _ in 0..<count {
            var raw: UnsafeMutableRawPointer?
            if redisGetReply(context, &raw) != 0 || raw == nil { throw fail() }
            replies.append(RedisReply(raw!.assumingMemoryBound(to: redisReply.self)))
            freeReplyObject(raw)
        }
        return replies
    }

    /// Runs one command and waits for its reply. A Redis error reply is a
    /// `.error` value; a broken connection throws.
    @discardableResult
    package func command(_ arguments: [String]) throws(NeonError) -> RedisReply {
        try pipeline([arguments])[0]
    }

    /// Like `pipeline`, for arguments that are bytes (binary-safe).
    func pipeline(bytes commands: [[[UInt8]]]) throws(NeonError) -> [RedisReply] {
        try append(commands)
        return try receive(commands.count)
    }

    /// Sends every command at once, then reads every reply, in order.
    func pipeline(_ commands: [[String]]) throws(NeonError) -> [RedisReply] {
        try append(commands.map { $0.map(\.utf8) })
        return try receive(commands.count)
    }

    /// The socket, for `poll` (a subscriber waits on it with other things).
    var fileDescriptor: Int32 { context?.pointee.fd ?? -1 }

    /// Sends commands without waiting for replies (a subscriber's
    /// SUBSCRIBE, whose confirmations arrive among its messages).
    func send(_ commands: [[String]]) throws(NeonError) {
        try append(commands.map { $0.map(\.utf8) })
        guard let context else { throw NeonError("the connection to Redis at \(endpoint) is closed") }
        var done: Int32 = 0
        while done == 0 {
            if redisBufferWrite(context, &done) != 0 { throw fail() }
        }
    }

    /// Reads what the socket has (one read; call when `poll` says it is
    /// readable) and returns every whole reply buffered so far.
    func readAvailable() throws(NeonError) -> [RedisReply] {
        guard let context else { throw NeonError("the connection to Redis at \(endpoint) is closed") }
        if redisBufferRead(context) != 0 { throw fail() }
        var replies: [RedisReply] = []
        while true {
            var raw: UnsafeMutableRawPointer?
            if redisGetReplyFromReader(context, &raw) != 0 { throw fail() }
            guard let raw else { break }
            replies.append(RedisReply(raw.assumingMemoryBound(to: redisReply.self)))
            freeReplyObject(raw)
        }
        return replies
    }

    /// Puts `commands` in the output buffer, in order, unsent.
    private func append<Argument: Collection>(_ commands: [[Argument]]) throws(NeonError) where Argument.Element == UInt8 {
        guard let context else { throw NeonError("the connection to Redis at \(endpoint) is closed") }
        for arguments in commands {
            let status = Self.withArgv(arguments) { argc, argv, lengths in
                redisAppendCommandArgv(context, argc, argv, lengths)
            }
            if status != 0 { throw fail() }
        }
    }

    private func fail() -> NeonError {
        let reason = context.map { String(cString: neon_redis_errstr($0)) } ?? "closed"
        close()
        return NeonError("lost the connection to Redis at \(endpoint): \(reason.isEmpty ? "connection closed" : reason)")
    }

    /// Runs `body` with `arguments` as hiredis wants them: a count, an argv
    /// of NUL-terminated copies in one buffer, and their lengths (arguments
    /// may hold NUL bytes of their own). Strings are given as their UTF-8.
    private static func withArgv<Argument: Collection, R>(
        _ arguments: [Argument], _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> R
    ) -> R where Argument.Element == UInt8 {
        var bytes: [CChar] = []
        bytes.reserveCapacity(arguments.reduce(0) { $0 + $1.count + 1 })
        var offsets: [Int] = []
        offsets.reserveCapacity(arguments.count)
        var lengths: [Int] = []
        lengths.reserveCapacity(arguments.count)
        for argument in arguments {
            offsets.append(bytes.count)
            lengths.append(argument.count)
            let copied: Void? = argument.withContiguousStorageIfAvailable { buffer in
                buffer.withMemoryRebound(to: CChar.self) { bytes.append(contentsOf: $0) }
            }
            if copied == nil { bytes.append(contentsOf: argument.map { CChar(bitPattern: $0) }) }
            bytes.append(0)
        }
        return bytes.withUnsafeBufferPointer { buffer in
            var pointers: [UnsafePointer<CChar>?] = offsets.map { buffer.baseAddress! + $0 }
            return pointers.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeBufferPointer { lens in
                    body(Int32(arguments.count), argv.baseAddress!, lens.baseAddress!)
                }
            }
        }
    }
}

/// `redis://HOST:PORT[/DB]`, parsed.
public struct RedisEndpoint: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var database: Int

    public init(host: String, port: Int, database: Int = 0) {
        self.host = host; self.port = port; self.database = database
    }

    /// Parses a `redis://` URL, or says what to write instead.
    public init(parsing url: String, flag: String = "--redis") throws(NeonError) {
        let usage = "write redis://HOST:PORT or redis://HOST:PORT/DB, e.g. redis://127.0.0.1:6379/0"
        guard url.hasPrefix("redis://") else {
            throw NeonError.usage("\(flag) \(url) is not a redis:// URL; \(usage) (a password goes in --redis-password-file)")
        }
        var rest = Substring(url.dropFirst("redis://".count))
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let db = rest[rest.index(after: slash)...]
            guard db.isEmpty || Int(db).map({ (0...15).contains($0) }) == true else {
                throw NeonError.usage("\(flag) \(url): database \"\(db)\" is not a number from 0 to 15; \(usage)")
            }
            database = Int(db) ?? 0
            rest = rest[..<slash]
        }
        guard !rest.contains("@") else {
            throw NeonError.usage("\(flag) \(url) carries a password; put it in a file readable only by you and pass --redis-password-file FILE")
        }
        var host = String(rest)
        var port = 6379
        if let colon = rest.lastIndex(of: ":") {
            host = String(rest[..<colon])
            guard let p = Int(rest[rest.index(after: colon)...]), (1...65535).contains(p) else {
                throw NeonError.usage("\(flag) \(url): the port is not a number from 1 to 65535; \(usage)")
            }
            port = p
        }
        guard !host.isEmpty else { throw NeonError.usage("\(flag) \(url) names no host; \(usage)") }
        self.init(host: host, port: port, database: database)
    }

    public var description: String { "redis://\(host):\(port)" + (database == 0 ? "" : "/\(database)") }

    /// Parses `--redis`: one `redis://` URL, or several joined by commas
    /// (the cluster's shards, in order), or says what to write instead.
    public static func list(parsing text: String, flag: String = "--redis") throws(NeonError) -> [RedisEndpoint] {
        let entries = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
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
}
