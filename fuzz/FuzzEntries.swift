// A libFuzzer target over a room's log as a cluster node reads it back from
// Redis: the input is Redis protocol (RESP) bytes, parsed by hiredis' reader
// into replies and copied into RedisReply as RedisConnection does, then read
// the ways ClusterReader reads them: an XRANGE answer (stream entries, into
// ClusterEntry), the load script's answer (`[image text, entries]`), and
// pub/sub messages (`message`, channel, payload: ClusterEntry(published:)).
// The input itself is also tried as a published payload. Built and run by
// scripts/fuzz.sh with NeonCore, the NeonServer files it names and
// fuzz/FuzzSession.swift.
//
// Checks: an entry read back stores as fields that read back equal, and
// every entry that decodes is applied to a hub (a message as the client's,
// a bye as its disconnection) whose answers survive the wire.

import CHiredis
import Foundation

func fuzzEntries(_ data: UnsafePointer<UInt8>, _ size: Int) {
    var entries: [ClusterEntry] = []
    if let entry = ClusterEntry(published: Array(UnsafeBufferPointer(start: data, count: size))) {
        entries.append(entry)
    }
    for reply in replies(UnsafeRawPointer(data), size) {
        entries += (reply.array ?? []).compactMap(ClusterEntry.init)
        if let parts = reply.array {
            if parts.count == 2, let stored = parts[1].array {
                entries += stored.compactMap(ClusterEntry.init)
            }
            if parts.count == 3, parts[0].text == "message", let channel = parts[1].text,
               ClusterKeys.room(ofChannel: channel) != nil, case let .string(payload) = parts[2],
               let entry = ClusterEntry(published: payload) {
                entries.append(entry)
            }
        }
    }
    var hub = Hub(limits: RoomLimits(), maxRooms: 16)
    var clients: [ClientID] = []
    for entry in entries {
        checkStored(entry)
        guard let event = entry.roomEntry(fuzzCodec) else { continue }
        clients.append(event.client)
        switch event.event {
        case let .message(message): checkOutputs(hub.apply(.received(event.client, message), at: event.time))
        case .bye: checkOutputs(hub.apply(.disconnected(event.client), at: event.time))
        case .gone: break
        }
    }
    disconnectAll(clients, from: &hub)
}

/// The replies hiredis reads from `bytes`, up to 64 of them; none when an
/// array header (`*n`) announces more elements than there are bytes:
/// hiredis 0.14 allocates an array's element pointers as soon as it reads
/// the header (6 GB for `*750000000`), which libFuzzer reports as running
/// out of memory although it is Redis, not the bytes' reader, that says how
/// long its answers are.
private func replies(_ bytes: UnsafeRawPointer, _ count: Int) -> [RedisReply] {
    let input = UnsafeBufferPointer(start: bytes.assumingMemoryBound(to: UInt8.self), count: count)
    for (index, byte) in input.enumerated() where byte == UInt8(ascii: "*") {
        let digits = input[(index + 1)...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.prefix(19)
        if let announced = Int(String(decoding: digits, as: UTF8.self)), announced > count { return [] }
    }
    guard let reader = redisReaderCreate() else { return [] }
    defer { redisReaderFree(reader) }
    guard redisReaderFeed(reader, bytes.assumingMemoryBound(to: CChar.self), count) == REDIS_OK else { return [] }
    var replies: [RedisReply] = []
    while replies.count < 64 {
        var raw: UnsafeMutableRawPointer?
        guard redisReaderGetReply(reader, &raw) == REDIS_OK, let raw else { break }
        replies.append(RedisReply(raw.assumingMemoryBound(to: redisReply.self)))
        freeReplyObject(raw)
    }
    return replies
}

/// Traps when an entry does not survive being stored again.
private func checkStored(_ entry: ClusterEntry) {
    let stored = RedisReply.array([.string(Array("\(entry.index)-0".utf8)),
                                   .array(entry.fields.map { .string(Array($0.utf8)) })])
    guard let again = ClusterEntry(stored), again == entry else {
        fatalError("a log entry changed when stored again: \(entry)")
    }
}

/// Entries the code itself makes from each seed session's events, as
/// XRANGE answers, as the load script's answer (with the room's image) and
/// as pub/sub messages.
func entrySeeds() -> [[UInt8]] {
    let clients = [ClientID("c1"), ClientID("c2"), ClientID("c3")]
    var seeds: [[UInt8]] = []
    for session in seedSessions() {
        var entries: [ClusterEntry] = []
        for (index, line) in session.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let client = clients[index % clients.count]
            let event: RoomEntry.Event
            if line.isEmpty {
                event = .bye
            } else if case let .success(message) = fuzzCodec.decodeClient(line) {
                event = .message(message)
            } else {
                continue
            }
            var entry = ClusterEntry(RoomEntry(event: event, client: client, origin: 3,
                                               time: .milliseconds(index * 250)))
            entry.index = entries.count + 1
            entries.append(entry)
        }
        entries.append(ClusterEntry(index: entries.count + 1, kind: .gone, client: "", origin: 3, time: 1))
        let stream = resp(.array(entries.map(streamEntry)))
        seeds.append(stream)
        var hub = Hub(limits: RoomLimits(), maxRooms: 16)
        replaySession(session, clients: clients, into: &hub)
        let image = hub.rooms.values.first.map { String(decoding: try! JSONEncoder().encode($0.image), as: UTF8.self) }
        seeds.append(resp(.array([image.map { .string(Array("\(entries.count)\n\($0)".utf8)) } ?? .null,
                                  .array(entries.map(streamEntry))])))
        let published = entries.map { entry in
            RedisReply.array([.string(Array("message".utf8)), .string(Array(ClusterKeys.channel("room").utf8)),
                              .string(Array(([String(entry.index)] + entry.fields.enumerated()
                                  .filter { $0.offset % 2 == 1 }.map(\.element)).joined(separator: "\u{1F}").utf8))])
        }
        seeds.append(published.flatMap(resp))
    }
    return seeds
}

private func streamEntry(_ entry: ClusterEntry) -> RedisReply {
    .array([.string(Array("\(entry.index)-0".utf8)), .array(entry.fields.map { .string(Array($0.utf8)) })])
}

/// The Redis protocol bytes of a reply.
private func resp(_ reply: RedisReply) -> [UInt8] {
    switch reply {
    case let .string(bytes): Array("$\(bytes.count)\r\n".utf8) + bytes + [0x0D, 0x0A]
    case let .status(text): Array("+\(text)\r\n".utf8)
    case let .error(text): Array("-\(text)\r\n".utf8)
    case let .integer(n): Array(":\(n)\r\n".utf8)
    case .null: Array("$-1\r\n".utf8)
    case let .array(items): Array("*\(items.count)\r\n".utf8) + items.flatMap(resp)
    }
}
