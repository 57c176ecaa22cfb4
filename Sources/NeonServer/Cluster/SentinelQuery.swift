import NeonCore

/// Asking a shard's Sentinels which server is its master
/// (`SENTINEL get-master-addr-by-name`), each in the order `--redis`
/// lists them until one answers.
enum SentinelQuery {
    /// The master the first Sentinel that knows it names, and that Sentinel;
    /// a sentence saying what each Sentinel answered when none did.
    static func master(of endpoint: RedisEndpoint, timeout: Duration) throws(NeonError) -> (address: RedisAddress, sentinel: RedisAddress) {
        var problems: [String] = []
        for sentinel in endpoint.sentinels {
            do throws(NeonError) {
                let connection = try RedisConnection(sentinel: sentinel, of: endpoint, timeout: min(timeout, .seconds(1)))
                defer { connection.close() }
                connection.setTimeout(.seconds(1))
                let reply = try connection.command(["SENTINEL", "get-master-addr-by-name", endpoint.masterName])
                if let address = Self.address(reply) { return (address, sentinel) }
                if case let .error(message) = reply {
                    problems.append("\(sentinel) answered \(message)")
                } else {
                    problems.append("\(sentinel) monitors no master named \(endpoint.masterName)")
                }
            } catch {
                problems.append(error.description)
            }
        }
        throw NeonError("no Sentinel of \(endpoint) named the master of \(endpoint.masterName): " + problems.joined(separator: "; ")
                        + ". Check that the Sentinels run and monitor it under that name (`sentinel monitor \(endpoint.masterName) HOST PORT QUORUM`)")
    }

    /// The `[host, port]` a Sentinel answers, nil for anything else.
    static func address(_ reply: RedisReply) -> RedisAddress? {
        guard let parts = reply.array, parts.count == 2, let host = parts[0].text, !host.isEmpty,
              let port = parts[1].text.flatMap({ Int($0) }), (1...65535).contains(port) else { return nil }
        return RedisAddress(host: host, port: port)
    }

    /// The new master of a `+switch-master` message's text
    /// (`NAME OLDHOST OLDPORT NEWHOST NEWPORT`) when it is `name`'s.
    static func switched(_ text: String, name: String) -> RedisAddress? {
        let words = text.split(separator: " ")
        guard words.count == 5, words[0] == name, let port = Int(words[4]), (1...65535).contains(port) else { return nil }
        return RedisAddress(host: String(words[3]), port: port)
    }
}
