import NeonCore

/// The server's counters and latency histograms. Plain integers owned by the
/// router's service-thread state: counting is an array increment, and every
/// label value comes from a small fixed set (message types, error codes),
/// never from room names or client ids.
struct ServerMetrics: Equatable, Sendable {
    /// `type` label values of inbound messages; `invalid` counts frames that
    /// did not decode into a message.
    static let inboundTypes = ["hello", "document", "scroll", "tab", "follow", "edit", "cursor", "relay", "point", "unpoint",
                               "pointing", "invalid"]
    static let outboundTypes = ["welcome", "joined", "left", "document", "progress", "tab", "follow", "edit",
                                "cursor", "ack", "limit", "error", "relay", "overview", "pointer", "room"]

    private(set) var connections = 0
    private(set) var messagesIn = Array(repeating: 0, count: inboundTypes.count)
    private(set) var messagesOut = Array(repeating: 0, count: outboundTypes.count)
    private(set) var broadcasts = 0
    private(set) var bytesIn = 0
    private(set) var bytesOut = 0
    private(set) var errors: [ErrorCode: Int] = [:]
    private(set) var fanOut = Histogram.fanOut
    private(set) var storeCommit = Histogram.storeCommit
    private(set) var slowCloses = 0
    /// Cluster mode: from an event's time on its node to its application here.
    private(set) var clusterLag = Histogram.redisBuckets

    mutating func connected() { connections += 1 }

    /// A connection was closed with 4008 because its backlog of unsent
    /// messages went past the limit.
    mutating func closedTooSlow() { slowCloses += 1 }

    /// A frame of `bytes` arrived; `message` is what it decoded to, `nil` when it did not decode.
    mutating func received(bytes: Int, _ message: ClientMessage?) {
        bytesIn += bytes
        messagesIn[message.map(Self.index) ?? Self.inboundTypes.count - 1] += 1
    }

    /// The transport refused a frame (too large, not UTF-8) before it became a message.
    mutating func refusedFrame() {
        messagesIn[Self.inboundTypes.count - 1] += 1
    }

    /// `message`, encoded once as `bytes`, was queued to `recipients` connections.
    mutating func sent(_ message: ServerMessage, bytes: Int, recipients: Int) {
        messagesOut[Self.index(message.payload)] += recipients
        bytesOut += bytes * recipients
        if case let .error(error) = message.payload { errors[error.code, default: 0] += recipients }
    }

    /// A message was relayed in a `room` envelope (`bytes` once) to `recipients` observers
    /// (`room` is the last outbound type).
    mutating func relayed(bytes: Int, recipients: Int) {
        messagesOut[Self.outboundTypes.count - 1] += recipients
        bytesOut += bytes * recipients
    }

    /// A broadcast was encoded and queued to its last recipient `elapsed` after its cause arrived.
    mutating func broadcast(fanOut elapsed: Duration) {
        broadcasts += 1
        fanOut.observe(elapsed)
    }

    /// A cluster log entry was applied `lag` after its node stamped it.
    mutating func delivered(lag: Duration) {
        clusterLag.observe(lag)
    }

    mutating func committed(in elapsed: Duration) {
        storeCommit.observe(elapsed)
    }

    private static func index(_ message: ClientMessage) -> Int {
        switch message {
        case .hello: 0
        case .document: 1
        case .scroll: 2
        case .tab: 3
        case .follow: 4
        case .edit: 5
        case .cursor: 6
        case .relay: 7
        case .point: 8
        case .unpoint: 9
        case .pointing: 10
        }
    }

    private static func index(_ payload: ServerMessage.Payload) -> Int {
        switch payload {
        case .welcome: 0
        case .joined: 1
        case .left: 2
        case .document: 3
        case .progress: 4
        case .tab: 5
        case .follow: 6
        case .edit: 7
        case .cursor: 8
        case .ack: 9
        case .limit: 10
        case .error: 11
        case .relay: 12
        case .overview: 13
        case .pointer: 14
        case .room: 15
        }
    }
}
