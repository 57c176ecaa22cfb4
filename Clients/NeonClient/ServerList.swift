/// The servers a client may use (`--server URL1,URL2,…`) and the one it
/// uses now. The client starts with the first; each time a connection is
/// lost or fails it moves to the next, wrapping around after the last, so
/// a failover list is tried in order, round and round, with the client's
/// usual backoff between tries. A list of one stays on it.
public struct ServerList<Address: Sendable & Equatable>: Sendable, Equatable {
    /// Every server, in the order given; never empty.
    public let all: [Address]
    /// Where `current` is in `all`.
    public private(set) var index = 0

    /// A list of at least one server; starts with the first.
    public init(_ first: Address, _ more: [Address] = []) {
        all = [first] + more
    }

    /// The server to connect to now.
    public var current: Address { all[index] }

    /// The server `advance()` moves to.
    public var next: Address { all[(index + 1) % all.count] }

    /// How many servers there are.
    public var count: Int { all.count }

    /// More than one server: the client fails over.
    public var isFailover: Bool { all.count > 1 }

    /// The connection to `current` was lost or could not be made: the next
    /// try goes to the next server (the first after the last).
    public mutating func advance() {
        index = (index + 1) % all.count
    }
}
