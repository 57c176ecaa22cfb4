import NeonClient
import NeonCore
import NeonTUI

/// One writer of the simulation: `neonsync draft` (the real `DraftModel`),
/// or `neonsync join` typing into the reader's draft panel (the real
/// `ReaderModel`, `e` pressed first), driven the way the client's runtime
/// drives a program (`Runtime+Connection`):
/// a connection per try, sends dropped while there is none and queued while
/// its handshake is under way, events of a replaced connection ignored, the
/// `resume` secret in every hello, the next node of the failover list after
/// each loss, and `reconnect` closing the connection and opening another
/// at once. The reconnect timer is the scheduler's choice.
final class SimulatedClient {
    let index: Int
    /// The program: one of the two.
    private var draftScreen: DraftModel?
    private var readerScreen: ReaderModel?
    /// The nodes to use, in failover order, and the one in use.
    let servers: [Int]
    private(set) var current = 0
    let resume: String
    /// The connection in use (an index into the network); nil while
    /// waiting to try again.
    private(set) var connection: Int?
    /// What the program ended with instead of editing on (a bug here).
    private(set) var ended: String?
    private let codec = WireCodec()

    init(index: Int, room: String, servers: [Int], keyPrefix: String, resume: String, inReader: Bool) {
        self.index = index
        self.servers = servers
        self.resume = resume
        if inReader {
            var reader = ReaderModel(mode: .join, room: room, name: "writer\(index)", columns: 80, rows: 24,
                                     draftKeyPrefix: keyPrefix, at: .zero)
            _ = reader.update(.input(.key(.character("e"))), at: .zero)
            readerScreen = reader
        } else {
            draftScreen = DraftModel(room: room, name: "writer\(index)", profile: nil, columns: 60, rows: 12,
                                     keyPrefix: keyPrefix)
        }
    }

    /// The draft the writer types into: the editor, or the reader's panel.
    var draft: DraftModel { draftScreen ?? readerScreen!.draft }

    var editor: DraftEditor { draft.editor }

    /// Whether the writer types into the reader's draft panel.
    var inReader: Bool { readerScreen != nil }

    var node: Int { servers[current] }

    /// The node of the previous connection, if any.
    private(set) var previousNode: Int?

    /// The runtime's `connect()`: a new connection to the current node.
    func connect(on network: SimulatedNetwork, incarnation: Int, at time: Duration) {
        connection = network.open(client: index, node: node, incarnation: incarnation)
    }

    /// The connection opened: from now on it is the previous one.
    private func opened() {
        previousNode = node
    }

    /// The handshake completed: the runtime tells the program, which says hello.
    func connected(on network: SimulatedNetwork, at time: Duration) {
        opened()
        perform(update(.connected(to: "node\(node)"), at: time), on: network, at: time)
    }

    /// The connection ended or could not be made: the next try goes to the
    /// next node, and the program is told.
    func lost(_ cause: Disconnection.Cause, on network: SimulatedNetwork, at time: Duration) {
        connection = nil
        let server = "node\(node)"
        current = (current + 1) % servers.count
        let lost = Disconnection(cause: cause, server: server, retryAt: time,
                                 next: servers.count > 1 ? "node\(node)" : nil)
        perform(update(.disconnected(lost), at: time), on: network, at: time)
    }

    /// A frame from the node.
    func received(_ frame: String, on network: SimulatedNetwork, at time: Duration) {
        let event: ProgramEvent
        do {
            event = .received(try codec.decodeServer(Array(frame.utf8)), text: frame)
        } catch {
            event = .unreadable(text: frame, problem: "\(error)")
        }
        perform(update(event, at: time), on: network, at: time)
    }

    /// A key or a paste.
    func input(_ input: InputEvent, on network: SimulatedNetwork, at time: Duration) {
        perform(update(.input(input), at: time), on: network, at: time)
    }

    /// Time passed: the runtime ticks the program after every batch.
    func tick(on network: SimulatedNetwork, at time: Duration) {
        perform(update(.tick, at: time), on: network, at: time)
    }

    private func update(_ event: ProgramEvent, at time: Duration) -> [ClientCommand] {
        if draftScreen != nil { return draftScreen!.update(event, at: time) }
        return readerScreen!.update(event, at: time)
    }

    private func perform(_ commands: [ClientCommand], on network: SimulatedNetwork, at time: Duration) {
        for command in commands where ended == nil {
            switch command {
            case let .send(message):
                guard let connection else { continue }
                network.clientSends(String(decoding: codec.encode(completed(message)), as: UTF8.self), on: connection)
            case .reconnect:
                if let connection { network.clientCloses(connection) }
                connection = nil
                resyncAsked = true
            case .quit, .exit, .refused, .print, .printError:
                ended = "the program answered \(command)"
            case .listRooms, .highlight, .runSnippet, .writeTerminal:
                continue
            }
        }
    }

    /// The program asked to resync: the simulation opens the next
    /// connection at once, as the runtime does.
    var resyncAsked = false

    /// A hello with this run's resume secret, as the runtime's `Link` sends it.
    private func completed(_ message: ClientMessage) -> ClientMessage {
        guard case let .hello(room, name, role, profile, draftRev, nil, nil, notes) = message else { return message }
        return .hello(room: room, name: name, role: role, profile: profile, draftRev: draftRev, token: nil, resume: resume,
                      notes: notes)
    }
}
