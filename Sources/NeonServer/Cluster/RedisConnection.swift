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

    /// Where this connection went: the endpoint's address, or for a
    /// Sentinel endpoint the master the Sentinels named.
    package let address: RedisAddress

    /// Connects (with a timeout), authenticates and selects the database.
    /// A `sentinel://` endpoint asks its Sentinels for the master first and
    /// refuses a server that does not answer `ROLE` as a master.
    package init(_ endpoint: RedisEndpoint, password: String?, timeout: Duration = .seconds(2)) throws(NeonError) {
        self.endpoint = endpoint
        if endpoint.sentinels.isEmpty {
            address = RedisAddress(host: endpoint.host, port: endpoint.port)
            context = try Self.open(address, timeout: timeout, naming: endpoint.description)
        } else {
            let master = try SentinelQuery.master(of: endpoint, timeout: timeout)
            address = master.address
            context = try Self.open(master.address, timeout: timeout,
                                    naming: "\(master.address), the master of \(endpoint.masterName) as the Sentinel at \(master.sentinel) named it,")
        }
        guard let c = context else { throw NeonError("cannot reach Redis at \(endpoint)") }
        redisEnableKeepAlive(c)
        if let password {
            if case let .error(message) = try command(["AUTH", password]) {
                close()
                throw NeonError("Redis at \(endpoint) refused the password from --redis-password-file: \(message)")
            }
        }
        if !endpoint.sentinels.isEmpty {
            let role = try command(["ROLE"]).array?.first?.text
            guard role == "master" else {
                close()
                throw NeonError("the Sentinels of \(endpoint) name \(address) as the master of \(endpoint.masterName), but it answers ROLE as \(role ?? "something else") (a failover is under way, or the Sentinels disagree); the node asks again")
            }
        }
        if endpoint.database != 0, case let .error(message) = try command(["SELECT", String(endpoint.database)]) {
            close()
            throw NeonError("Redis at \(endpoint) cannot select database \(endpoint.database): \(message)")
        }
    }

    /// A plain connection to `address` (a Sentinel's, or a master's).
    init(sentinel address: RedisAddress, of endpoint: RedisEndpoint, timeout: Duration) throws(NeonError) {
        self.endpoint = endpoint
        self.address = address
        context = try Self.open(address, timeout: timeout, naming: "the Sentinel at \(address)")
    }

    /// hiredis's context for `address`, or a sentence naming `naming`.
    private static func open(_ address: RedisAddress, timeout: Duration, naming: String) throws(NeonError) -> UnsafeMutablePointer<redisContext> {
        var tv = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        if tv.tv_sec == 0 { tv.tv_usec = 500_000 }
        guard let c = redisConnectWithTimeout(address.host, Int32(address.port), tv) else {
            throw NeonError("cannot reach Redis at \(naming): out of memory")
        }
        if c.pointee.err != 0 {
            let reason = String(cString: neon_redis_errstr(c))
            redisFree(c)
            throw NeonError("cannot reach Redis at \(naming): \(reason)")
        }
        return c
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

