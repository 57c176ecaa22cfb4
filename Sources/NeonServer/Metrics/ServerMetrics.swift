import NeonCore

/// The server's counters and latency histograms. Plain integers owned by the
/// router's service-thread state: counting is an array increment, and every
/// label value comes from a small fixed set (message types, error codes),
/// never from room names or client ids.
struct ServerMetrics: Equatable, Sendable {
    /// `type` label values of inbound messages; `invalid` counts frames that
    /// did not decode into a message.
    static let inboundTypes = inboundKinds.map(\.rawValue) + ["invalid"]
    static let outboundTypes = outboundKinds.map(\.rawValue)
    private static let inboundKinds = ClientMessage.Kind.allCases
    private static let outboundKinds = ServerMessage.Kind.allCases

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
        messagesIn[message.map { Self.index($0.kind) } ?? Self.inboundTypes.count - 1] += 1
    }

    /// The transport refused a frame (too large, not UTF-8) before it became a message.
    mutating func refusedFrame() {
        messagesIn[Self.inboundTypes.count - 1] += 1
    }

    /// `message`, encoded once as `bytes`, was queued to `recipients` connections.
    mutating func sent(_ message: ServerMessage, bytes: Int, recipients: Int) {
        messagesOut[Self.index(message.payload.kind)] += recipients
        bytesOut += bytes * recipients
        if case let .error(error) = message.payload { errors[error.code, default: 0] += recipients }
    }

    /// A message was relayed in a `room` envelope (`bytes` once) to `recipients` observers.
    mutating func relayed(bytes: Int, recipients: Int) {
        messagesOut[Self.index(ServerMessage.Kind.room)] += recipients
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

    /// Where `kind` is counted: its place in the list of kinds.
    private static func index(_ kind: ClientMessage.Kind) -> Int {
        inboundKinds.firstIndex(of: kind) ?? inboundTypes.count - 1
    }

    private static func index(_ kind: ServerMessage.Kind) -> Int {
        outboundKinds.firstIndex(of: kind) ?? 0
    }
}
