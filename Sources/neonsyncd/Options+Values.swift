import Glibc
import NeonCore
import NeonServer
import NeonTransport

/// How neonsyncd's flags read their values, each with the sentence that
/// refuses a bad one: the parsers the rows of `rowGroups` name.
extension Options {
    /// `--log FILE|-`.
    static let logDestination = ValueParser<LogWriter.Destination> { _, text in
        text == "-" ? .standardOutput : .file(text)
    }

    static let logLevel = ValueParser<LogRecord.Level>({ LogRecord.Level(rawValue: $0) }, otherwise: { flag, text in
        "\(flag) \(text) is not a level; use debug, info, warn or error"
    })

    static let eventLoop = ValueParser<ServiceLoop>({ ServiceLoop(rawValue: $0) }, otherwise: { flag, text in
        "\(flag) \(text) is not an event loop; use epoll or poll"
    })

    /// Bytes with an optional K or M suffix, at most 1024M.
    static let size = ValueParser<Int> { flag, text throws(NeonError) in
        var digits = Substring(text)
        var scale = 1
        switch digits.last {
        case "K", "k": scale = 1024; digits = digits.dropLast()
        case "M", "m": scale = 1024 * 1024; digits = digits.dropLast()
        default: break
        }
        guard let n = Int(digits), n > 0, n <= (1 << 30) / scale else {
            throw NeonError.usage("\(flag) \(text) is not a size; use bytes with an optional K or M suffix, e.g. 4M (at most 1024M)")
        }
        return n * scale
    }

    /// A duration as `neonsyncd token --ttl` takes it, or 0 for none
    /// (nil); `zero` says what 0 means, `examples` a few durations.
    static func duration(orZero zero: String, examples: String) -> ValueParser<Duration?> {
        ValueParser { flag, text throws(NeonError) in
            if text == "0" { return nil }
            guard let seconds = TokenCommand.duration(text) else {
                throw NeonError.usage("\(flag) \(text) is not a duration; use e.g. \(examples) (at most 366d), or \(zero)")
            }
            return .seconds(seconds)
        }
    }

    /// Whole seconds in `range`, 0 for none (nil).
    static func seconds(in range: ClosedRange<Int>) -> ValueParser<Duration?> {
        ValueParser<Int>.wholeNumber(in: range).map { $0 == 0 ? nil : .seconds($0) }
    }

    /// `--idle-timeout`: seconds, 0 for none; 1 leaves no time for a pong.
    static let idleTimeout = ValueParser<Duration?> { flag, text throws(NeonError) in
        guard let timeout = try Options.seconds(in: 0...65535)(flag, text) else { return nil }
        guard timeout != .seconds(1) else {
            throw NeonError.usage("\(flag) 1 leaves no time to answer a ping; use 2 or more seconds, or 0 to keep idle connections")
        }
        return timeout
    }

    static let origin = ValueParser<String>({ OriginPolicy.normalized($0) != nil ? $0 : nil }, otherwise: { flag, text in
        "\(flag) \(text) is not an origin; write scheme://host[:port] with no path, e.g. https://app.example.com, or * for every origin"
    })

    static let proxy = ValueParser<AddressRange>({ AddressRange($0) }, otherwise: { flag, text in
        "\(flag) \(text) is not an address; give the IP address of a proxy in front of this server (127.0.0.1, ::1) or a CIDR range of them (10.0.0.0/8, fd00::/8)"
    })

    static let socketPath = ValueParser<String>({ !$0.isEmpty && $0.utf8.count < 108 ? $0 : nil }, otherwise: { flag, text in
        "\(flag) \(text) is not a usable socket path; give a path of 1 to 107 bytes, such as /run/neonsync/neonsync.sock"
    })

    static let mode = ValueParser<mode_t>({ mode_t($0, radix: 8).flatMap { $0 <= 0o777 ? $0 : nil } }, otherwise: { flag, text in
        "\(flag) \(text) is not a mode; give octal permission bits such as 0660 (owner and group) or 0600 (owner only)"
    })

    /// A group of this host, with its id.
    static let group = ValueParser<(name: String, id: gid_t)>({ name in getgrnam(name).map { (name: name, id: $0.pointee.gr_gid) } },
                                                              otherwise: { flag, text in
        "\(flag) \(text) is not a group on this host; create it (groupadd \(text)) or name an existing one (see getent group)"
    })

    static let redisEndpoints = ValueParser<[RedisEndpoint]> { flag, text throws(NeonError) in
        try RedisEndpoint.list(parsing: text, flag: flag)
    }

    /// 1 to 64 characters, no spaces or control characters.
    static let nodeName = ValueParser<String>({ name in
        let control = name.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == " " }
        return !name.isEmpty && name.count <= 64 && !control ? name : nil
    }, otherwise: { flag, text in
        "\(flag) \"\(text)\" is not a node name; use 1 to 64 characters without spaces, such as node-a or 10.0.0.5:7681"
    })
}
