/// A structured log line the reducer (or the server) asks for, of one of the
/// events `LogEvent` defines. The server adds the timestamp and writes it as
/// one JSON object per line.
public struct LogRecord: Equatable, Sendable {
    public enum Level: String, Equatable, Hashable, Comparable, Sendable, CaseIterable {
        case debug, info, warn, error

        private var rank: Int {
            switch self {
            case .debug: 0
            case .info: 1
            case .warn: 2
            case .error: 3
            }
        }

        public static func < (a: Level, b: Level) -> Bool { a.rank < b.rank }
    }

    public var level: Level
    public var event: String
    public var room: String?
    public var client: ClientID?
    public var fields: [LogField]
    /// What people wrote (document or draft text): written only when the
    /// operator asks for it (`--log-content`); logs are private by default.
    public var content: [LogField]

    /// A line of `event` (one of `LogEvent`'s: the schema's single
    /// definition).
    public init(_ level: Level, _ event: LogEvent, room: String? = nil,
                client: ClientID? = nil, _ fields: [LogField] = [], content: [LogField] = []) {
        self.level = level; self.event = event.name; self.room = room
        self.client = client; self.fields = fields; self.content = content
    }

    public subscript(key: String) -> LogValue? {
        fields.first { $0.key == key }?.value
    }
}

/// One named value of a log record, in the order it was given.
public struct LogField: Equatable, Sendable {
    public var key: String
    public var value: LogValue

    public init(_ key: String, _ value: LogValue) { self.key = key; self.value = value }
}

public enum LogValue: Equatable, Sendable, ExpressibleByStringLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
}
