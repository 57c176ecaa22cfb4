import Foundation
import NeonCore
import Testing

/// The JSON examples of docs/PROTOCOL.md, which also seed the fuzz corpus
/// (scripts/fuzz.sh), replayed through the decoder and the hub the way the
/// fuzz target does it.
@Suite("Protocol examples replay through decode and the hub")
struct ProtocolExamplesReplayTests {
    static let examples: [String] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = (try? String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)) ?? ""
        var inJSON = false
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inJSON = line == "```json"
            } else if inJSON, line.hasPrefix("{") {
                lines.append(String(line))
            }
        }
        return lines
    }()

    /// Whether `line` is a server message: every one carries the room's
    /// `seq`, which no client message has (several server messages share a
    /// client message's type and fields, `tab` or `edit` for one).
    static func isServerMessage(_ line: String) -> Bool {
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return object?["seq"] != nil
    }

    /// The examples that are client messages.
    static var clientExamples: [String] { examples.filter { !isServerMessage($0) } }

    let codec = WireCodec()

    @Test("every example decodes: client messages as client messages, the rest as server messages")
    func examplesDecode() throws {
        #expect(Self.examples.count >= 10)
        var clientCount = 0
        for line in Self.examples {
            if Self.isServerMessage(line) {
                #expect(throws: Never.self, "\(line)") { _ = try codec.decodeServer(Array(line.utf8)) }
            } else {
                #expect(throws: Never.self, "\(line)") { _ = try codec.decodeClient(Array(line.utf8)).get() }
                clientCount += 1
            }
        }
        #expect(clientCount >= 6)
    }

    @Test("three clients sending every client example in turn get answers that survive the wire, and leave no room member behind")
    func sessionReplay() throws {
        let client = Self.clientExamples
        let hello = client.filter { $0.contains(#""type":"hello""#) }
        let session = hello.map { $0.replacingOccurrences(of: #""reader""#, with: #""presenter""#) } + hello + hello + client + [""] + client
        var hub = Hub(limits: RoomLimits(), maxRooms: 16)
        let ids = [ClientID("c1"), ClientID("c2"), ClientID("c3")]
        var answers = 0
        var unanswered: [String] = []
        for (index, line) in session.enumerated() {
            let id = ids[index % ids.count]
            let event: HubEvent
            if line.isEmpty {
                event = .disconnected(id)
            } else {
                switch codec.decodeClient(Array(line.utf8)) {
                case let .success(message): event = .received(id, message)
                case let .failure(error): event = .rejected(id, error)
                }
            }
            let before = answers
            defer { if answers == before, !line.isEmpty { unanswered.append(line) } }
            for output in hub.apply(event, at: .milliseconds(index * 250)) {
                switch output {
                case let .send(message, _), let .broadcast(message, _, _):
                    answers += 1
                    #expect(try codec.decodeServer(codec.encode(message)) == message)
                case .log, .persist:
                    break
                }
            }
        }
        for id in ids { _ = hub.apply(.disconnected(id), at: .seconds(3600)) }
        // Every line is answered (a broadcast, a welcome or an error) but
        // those that change nothing anyone is told: an unpoint with no
        // pointer set, the pointing rule as it already was, follow when
        // already following, the room's document sent again unchanged.
        let silent: Set<String> = ["unpoint", "pointing", "follow", "document"]
        let types = unanswered.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["type"] as? String
        }
        #expect(types.count == unanswered.count && Set(types).isSubset(of: silent), "unanswered: \(unanswered)")
        #expect(answers >= session.count - unanswered.count)
        #expect(hub.sessions.isEmpty && hub.rooms.values.allSatisfy { $0.members.isEmpty })
    }
}
