import NeonCore
import NeonServer

/// neonsyncd's command line: every flag, its default and its help.
struct Options {
    var host = "127.0.0.1"
    var port = 7681
    var log: Logger.Destination = .standardOutput
    var logLevel: LogRecord.Level = .info
    var logContent = false
    var maxMessage = 8 * 1024 * 1024
    var limits = RoomLimits()
    var maxRooms = 10_000
    var dataDirectory = "neonsync-data"
    var showHelp = false

    static let help = """
    neonsyncd — the NeonSync live-sync server (WebSocket protocol neonsync.v1)

    USAGE: neonsyncd [options]

    OPTIONS:
      --host ADDR          address to listen on (default 127.0.0.1)
      --port N             TCP port for WebSocket and HTTP, 0 picks a free one
                           (default 7681); the bound port is logged at start
      --data DIR           where rooms, documents and acknowledged drafts are
                           kept (SQLite, WAL); created if missing
                           (default ./neonsync-data)
      --log FILE|-         append JSON log lines to FILE, or - for standard
                           output (default -)
      --log-level LEVEL    debug, info, warn or error (default info)
      --log-content        also log what people wrote: document text in
                           "document" and the draft's text in "limit" lines
                           (off by default: logs name rooms and readers only)
      --max-message SIZE   largest frame accepted (default 8M); larger frames
                           get error message_too_large and close 1009
      --max-document SIZE  largest document accepted (default 4M)
      --max-draft N        longest shared draft, in characters (default 20000)
      --max-members N      members per room (default 10000)
      --max-rooms N        rooms per server (default 10000)
      --draft-limit N      character limit of new rooms' drafts (default 280)
      -h, --help           show this help

    SIZE is a number of bytes with an optional K or M suffix (1024-based).
    On the same port GET /healthz answers 200 ok and GET /metrics serves
    Prometheus metrics. SIGINT/SIGTERM stop the server gracefully (close
    frames, exit 0); SIGHUP reopens the --log file.
    Protocol: docs/PROTOCOL.md; log events: docs/LOGS.md.
    """

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ arguments: [String]) throws(Problem) -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(for flag: String) throws(Problem) -> String {
            guard let v = rest.popFirst() else {
                throw Problem(description: "\(flag) needs a value; see neonsyncd --help")
            }
            return v
        }
        while let arg = rest.popFirst() {
            var flag = arg
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                flag = String(arg[..<eq])
                rest.insert(String(arg[arg.index(after: eq)...]), at: rest.startIndex)
            }
            switch flag {
            case "-h", "--help": options.showHelp = true
            case "--host": options.host = try value(for: flag)
            case "--data": options.dataDirectory = try value(for: flag)
            case "--log-content": options.logContent = true
            case "--port":
                options.port = try integer(try value(for: flag), flag: flag, range: 0...65535)
            case "--log":
                let v = try value(for: flag)
                options.log = v == "-" ? .standardOutput : .file(v)
            case "--log-level":
                let v = try value(for: flag)
                guard let level = LogRecord.Level(rawValue: v) else {
                    throw Problem(description: "--log-level \(v) is not a level; use debug, info, warn or error")
                }
                options.logLevel = level
            case "--max-message": options.maxMessage = try size(try value(for: flag), flag: flag)
            case "--max-document": options.limits.maxDocumentBytes = try size(try value(for: flag), flag: flag)
            case "--max-draft":
                options.limits.maxDraftScalars = try integer(try value(for: flag), flag: flag, range: 1...10_000_000)
            case "--max-members":
                options.limits.maxMembers = try integer(try value(for: flag), flag: flag, range: 1...1_000_000)
            case "--max-rooms":
                options.maxRooms = try integer(try value(for: flag), flag: flag, range: 1...10_000_000)
            case "--draft-limit":
                options.limits.draftLimit = try integer(try value(for: flag), flag: flag, range: 1...1_000_000)
            default:
                throw Problem(description: "unknown option \(arg); see neonsyncd --help")
            }
        }
        if options.limits.maxDocumentBytes > options.maxMessage {
            throw Problem(description: "--max-document (\(options.limits.maxDocumentBytes) bytes) is larger than --max-message (\(options.maxMessage) bytes), so no document that large could arrive; raise --max-message")
        }
        return options
    }

    private static func integer(_ text: String, flag: String, range: ClosedRange<Int>) throws(Problem) -> Int {
        guard let n = Int(text), range.contains(n) else {
            throw Problem(description: "\(flag) \(text) is not a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return n
    }

    private static func size(_ text: String, flag: String) throws(Problem) -> Int {
        var digits = Substring(text)
        var scale = 1
        switch digits.last {
        case "K", "k": scale = 1024; digits = digits.dropLast()
        case "M", "m": scale = 1024 * 1024; digits = digits.dropLast()
        default: break
        }
        guard let n = Int(digits), n > 0, n <= (1 << 30) / scale else {
            throw Problem(description: "\(flag) \(text) is not a size; use bytes with an optional K or M suffix, e.g. 4M (at most 1024M)")
        }
        return n * scale
    }
}
