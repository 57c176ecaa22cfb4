import Foundation
import Synchronization

/// The reader thread: takes up rooms (their image and log at one instant)
/// and then reads every room's new entries with one blocking `XREAD`,
/// woken early by the node's own wake stream. A gap in a room's indexes
/// (the log was trimmed past this node) takes the room up again.
final class ClusterReader: @unchecked Sendable {
    let configuration: ClusterConfiguration
    let generation: Int
    /// Rooms asked for and not yet taken up, and whether to stop.
    private let requests = Mutex<(wanted: [String], stopping: Bool)>(([], false))
    private let done = DispatchSemaphore(value: 0)
    // Reader thread only.
    private var connection: RedisConnection?
    private var loadScript = ""
    private var rooms: [String: Int] = [:]
    private var wakeID = "0-0"
    private var deliver: (@Sendable (ClusterDelivery) -> Void)?
    private var known: Set<String> = []
    private var started = false

    init(configuration: ClusterConfiguration, generation: Int) {
        self.configuration = configuration
        self.generation = generation
    }

    func start(deliver: @escaping @Sendable (ClusterDelivery) -> Void) {
        self.deliver = deliver
        started = true
        let thread = Thread { [self] in run() }
        thread.name = "neonsync-redis-reader"
        thread.start()
    }

    /// Asks for `room`; false when it was asked for before.
    func want(_ room: String) -> Bool {
        requests.withLock { state in
            guard !state.wanted.contains(room) else { return false }
            state.wanted.append(room)
            return true
        }
    }

    func stop() {
        guard started else { return }
        requests.withLock { $0.stopping = true }
        _ = done.wait(timeout: .now() + .seconds(4))
    }

    private func run() {
        var backoff = Duration.milliseconds(100)
        while !requests.withLock({ $0.stopping }) {
            guard let redis = connected() else {
                Thread.sleep(forTimeInterval: Double(backoff.milliseconds) / 1000)
                backoff = min(backoff * 2, .seconds(2))
                continue
            }
            backoff = .milliseconds(100)
            do {
                let wanted = requests.withLock { state in state.wanted.filter { !known.contains($0) } }
                for room in wanted {
                    try takeUp(room, on: redis)
                    known.insert(room)
                }
                try read(on: redis)
            } catch {
                connection?.close()
                connection = nil
            }
        }
        connection?.close()
        done.signal()
    }

    private func connected() -> RedisConnection? {
        if let connection, !connection.isBroken { return connection }
        do {
            let fresh = try RedisConnection(configuration.endpoint, password: configuration.password)
            fresh.setTimeout(.seconds(5))
            guard let sha = try fresh.command(["SCRIPT", "LOAD", ClusterScripts.load]).text else { return nil }
            loadScript = sha
            connection = fresh
            return fresh
        } catch {
            return nil
        }
    }

    /// Reads `room`'s image and every entry after it, and hands both over.
    private func takeUp(_ room: String, on redis: RedisConnection) throws(RedisFailure) {
        let reply = try redis.command(["EVALSHA", loadScript, "2", ClusterKeys.snapshot(room), ClusterKeys.log(room)])
        guard let parts = reply.array, parts.count == 2 else {
            throw RedisFailure("Redis answered the load of room \(room) with \(reply)")
        }
        var image: String?
        var last = 0
        if let text = parts[0].text, let newline = text.firstIndex(of: "\n") {
            last = Int(text[..<newline]) ?? 0
            image = String(text[text.index(after: newline)...])
        }
        let entries = (parts[1].array ?? []).compactMap(ClusterEntry.init)
        if let end = entries.last?.index { last = end }
        rooms[room] = last
        deliver?(.loaded(room: room, image: image, entries: entries))
    }

    /// One `XREAD` over the wake stream and every room: hands over what came.
    private func read(on redis: RedisConnection) throws(RedisFailure) {
        let names = Array(rooms.keys)
        var command = ["XREAD", "COUNT", "1000", "BLOCK", "2000", "STREAMS", ClusterKeys.wake(generation)]
        command += names.map(ClusterKeys.log)
        command.append(wakeID)
        command += names.map { "\(rooms[$0]!)-0" }
        let reply = try redis.command(command)
        guard let streams = reply.array else { return }
        for stream in streams {
            guard let pair = stream.array, pair.count == 2, let key = pair[0].text, let items = pair[1].array else { continue }
            if key == ClusterKeys.wake(generation) {
                if let id = items.last?.array?.first?.text { wakeID = id }
                continue
            }
            guard let room = names.first(where: { ClusterKeys.log($0) == key }), let last = rooms[room] else { continue }
            let entries = items.compactMap(ClusterEntry.init)
            guard let first = entries.first else { continue }
            if first.index != last + 1 {
                try takeUp(room, on: redis)
                continue
            }
            rooms[room] = entries.last!.index
            deliver?(.entries(room: room, entries))
        }
    }
}
