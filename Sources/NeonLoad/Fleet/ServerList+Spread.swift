import NeonClient

/// How `neonsync bench` spreads its connections over a list of servers.
extension ServerList {
    /// Which of `all` the bench's connection number `index` (0-based, in
    /// the order they are opened) goes to: round-robin over every server.
    /// With `presenterFirst` (bench follow) connection 0, the presenter,
    /// goes to the first server and the followers after it are dealt
    /// round-robin over all of them, starting with the first, so each
    /// server gets an equal share of followers (the first ones the extra).
    package func position(forConnection index: Int, presenterFirst: Bool = false) -> Int {
        guard presenterFirst else { return index % all.count }
        return index == 0 ? 0 : (index - 1) % all.count
    }

    /// The server of connection number `index`; see ``position(forConnection:presenterFirst:)``.
    package func server(forConnection index: Int, presenterFirst: Bool = false) -> Address {
        all[position(forConnection: index, presenterFirst: presenterFirst)]
    }
}
