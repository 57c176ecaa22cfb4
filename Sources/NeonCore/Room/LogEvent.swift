/// The server log's events: the single definition of the JSON log schema
/// (docs/LOGS.md). The server writes `LogRecord`s of these events; `replay`
/// and `monitor` read lines back through `LoggedLine`, which types each field
/// by this definition; the tests check every line a real server writes, and
/// docs/LOGS.md itself, against it.
public struct LogEvent: Hashable, Sendable {
    /// Whether a line of the event names a room, a client.
    public enum Presence: Hashable, Sendable { case required, optional, absent }

    /// The JSON type of a field's value.
    public enum Kind: String, Hashable, Sendable { case string, int, bool }

    /// One field of the event, after the fields every line has.
    public struct Field: Hashable, Sendable {
        public let key: String
        public let kind: Kind
        /// The field may be left out (cluster-only, proxy-only, content).
        public let isOptional: Bool

        init(_ key: String, _ kind: Kind, optional: Bool = false) {
            self.key = key; self.kind = kind; self.isOptional = optional
        }
    }

    public let name: String
    public let levels: Set<LogRecord.Level>
    public let room: Presence
    public let client: Presence
    /// In the order they are written.
    public let fields: [Field]

    init(_ name: String, _ levels: Set<LogRecord.Level>, room: Presence = .absent, client: Presence = .absent,
         _ fields: [Field] = []) {
        self.name = name; self.levels = levels; self.room = room; self.client = client; self.fields = fields
    }

    /// The fields every line has, before the event's own.
    public static let common: [Field] = [.init("ts", .string), .init("level", .string), .init("event", .string),
                                         .init("node", .string, optional: true), .init("room", .string, optional: true),
                                         .init("client", .string, optional: true)]

    public func field(_ key: String) -> Field? { fields.first { $0.key == key } }

    public static func named(_ name: String) -> LogEvent? { byName[name] }

    private static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    // MARK: The server's life

    public static let start = LogEvent("start", [.info], [
        .init("host", .string), .init("port", .int), .init("threads", .int), .init("eventLoop", .string), .init("protocol", .string), .init("version", .string),
        .init("restoredRooms", .int), .init("tokens", .bool), .init("tls", .bool), .init("origins", .string),
        .init("redis", .string, optional: true), .init("generation", .int, optional: true),
    ])
    public static let startFailed = LogEvent("start_failed", [.error], [.init("error", .string)])
    public static let stop = LogEvent("stop", [.info], [.init("reason", .string)])
    /// The log file was reopened (SIGHUP, after logrotate moved it): the
    /// first line of the new file.
    public static let logReopened = LogEvent("log_reopened", [.info], [.init("reason", .string)])
    public static let storeFailed = LogEvent("store_failed", [.error], [.init("error", .string)])
    public static let lws = LogEvent("lws", [.debug], [.init("severity", .string), .init("line", .string)])

    // MARK: Cluster

    public static let redisDown = LogEvent("redis_down", [.error], [.init("redis", .string), .init("reason", .string)])
    public static let redisUp = LogEvent("redis_up", [.info], [.init("redis", .string), .init("reason", .string)])
    public static let redisFailover = LogEvent("redis_failover", [.warn], [.init("redis", .string), .init("from", .string),
                                                                         .init("to", .string)])
    public static let membershipLost = LogEvent("membership_lost", [.warn], [.init("connections", .int)])
    public static let roomReset = LogEvent("room_reset", [.warn], room: .required, client: .required,
                                           [.init("code", .int)])
    public static let entryUndecodable = LogEvent("entry_undecodable", [.error], room: .required, [
        .init("entry", .int, optional: true), .init("source", .string), .init("reason", .string), .init("action", .string),
    ])
    public static let roomExpired = LogEvent("room_expired", [.info], room: .required,
                                             [.init("idleSeconds", .int), .init("ttlSeconds", .int)])
    public static let roomDropped = LogEvent("room_dropped", [.info], room: .required, [])
    public static let roomReleased = LogEvent("room_released", [.info], room: .required, [
        .init("idleSeconds", .int), .init("releaseSeconds", .int), .init("members", .int),
    ])
    public static let roomRestored = LogEvent("room_restored", [.info], room: .required, [.init("waiting", .int)])

    // MARK: Connections

    public static let originRefused = LogEvent("origin_refused", [.warn], [
        .init("peer", .string), .init("proxy", .string, optional: true),
        .init("forwardedIgnored", .bool, optional: true), .init("origin", .string),
    ])
    public static let connect = LogEvent("connect", [.info], client: .required, [
        .init("peer", .string), .init("proxy", .string, optional: true), .init("forwardedIgnored", .bool, optional: true),
    ])
    public static let disconnect = LogEvent("disconnect", [.info], client: .required,
                                            [.init("initiatedByPeer", .bool), .init("code", .int, optional: true)])
    public static let tooSlow = LogEvent("too_slow", [.warn], client: .required,
                                         [.init("code", .int), .init("maxOutbound", .int)])

    // MARK: Rooms

    /// `resumed`: a presenter who came back took up the room's kept place
    /// (then `percent` is where it is).
    public static let join = LogEvent("join", [.info], room: .required, client: .required, [
        .init("name", .string), .init("role", .string), .init("members", .int),
        .init("resumed", .bool, optional: true), .init("percent", .int, optional: true),
        .init("notes", .bool, optional: true),
    ])
    public static let watch = LogEvent("watch", [.info], client: .required, [
        .init("name", .string), .init("scope", .string), .init("rooms", .int), .init("watchers", .int),
    ])
    public static let leave = LogEvent("leave", [.info], room: .required, client: .required, [
        .init("name", .string), .init("role", .string), .init("percent", .int), .init("members", .int),
        .init("furthest", .int, optional: true),
    ])
    public static let document = LogEvent("document", [.info], room: .required, client: .required, [
        .init("title", .string), .init("format", .string), .init("bytes", .int), .init("sections", .int),
        .init("blocks", .int), .init("version", .int, optional: true), .init("revises", .int, optional: true),
        .init("images", .int, optional: true), .init("unshown", .int, optional: true),
        .init("text", .string, optional: true),
    ])
    public static let progress = LogEvent("progress", [.info], room: .required, client: .required, [
        .init("step", .int), .init("percent", .int), .init("atBottom", .bool), .init("section", .int),
    ])
    public static let tab = LogEvent("tab", [.info], room: .required, client: .required,
                                     [.init("section", .int), .init("title", .string), .init("source", .string)])
    public static let follow = LogEvent("follow", [.info], room: .required, client: .required, [.init("on", .bool)])
    public static let limit = LogEvent("limit", [.info, .warn], room: .required, client: .required, [
        .init("draftLevel", .string), .init("fromLevel", .string), .init("count", .int), .init("remaining", .int),
        .init("limit", .int), .init("text", .string, optional: true),
    ])
    /// A member showing slides went to another slide or step.
    public static let slide = LogEvent("slide", [.info], room: .required, client: .required, [
        .init("slide", .int), .init("slides", .int), .init("step", .int), .init("steps", .int),
    ])
    /// A pointer was set, moved or cleared (`lead`: the presenter's).
    public static let point = LogEvent("point", [.info], room: .required, client: .required, [
        .init("lead", .bool), .init("block", .int, optional: true), .init("offset", .int, optional: true),
        .init("length", .int, optional: true), .init("cleared", .bool, optional: true),
    ])
    /// The presenter said who else may point.
    public static let pointing = LogEvent("pointing", [.info], room: .required, client: .required,
                                          [.init("who", .string)])
    /// A question was asked on a passage, marked answered, or carried onto
    /// a new version of the document (`moved`).
    public static let question = LogEvent("question", [.info], room: .required, client: .required, [
        .init("number", .int), .init("name", .string), .init("block", .int), .init("offset", .int), .init("length", .int),
        .init("answered", .bool), .init("answeredBy", .string, optional: true), .init("moved", .bool, optional: true),
        .init("text", .string, optional: true),
    ])
    /// The presenter brought the detached followers back (`members`: how many).
    public static let summon = LogEvent("summon", [.info], room: .required, client: .required, [.init("members", .int)])
    /// A presenter's snippet run started (its first output) or ended.
    public static let output = LogEvent("output", [.info], room: .required, client: .required, [
        .init("block", .int), .init("state", .string), .init("lines", .int), .init("bytes", .int),
        .init("exit", .int, optional: true), .init("text", .string, optional: true),
    ])
    public static let error = LogEvent("error", [.warn], room: .optional, client: .required,
                                       [.init("code", .string), .init("message", .string)])

    /// Every event, in the order docs/LOGS.md gives them.
    public static let all: [LogEvent] = [
        start, startFailed, redisDown, redisUp, redisFailover, membershipLost, roomReset, entryUndecodable, roomExpired, roomDropped, roomReleased, roomRestored, lws, stop, logReopened, originRefused,
        connect, disconnect, tooSlow, join, watch, leave, document, progress, tab, follow, limit, slide, point, pointing, question, output, summon, error, storeFailed,
    ]
}
