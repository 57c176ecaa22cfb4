import NeonCore
import NeonServer
import NeonTransportCore
import NeonTUI

/// The events a run is made of, and how likely each is when it can happen.
extension DraftSimulation {
    enum Action: CustomStringConvertible {
        /// A writer presses a key (a character, a delete, a move) or pastes.
        case key(client: Int, Key)
        case type(client: Int)
        case paste(client: Int, length: Int)
        /// The runtime's timer: tick the program.
        case tick(client: Int)
        /// A writer's runtime tries to connect again.
        case reconnect(client: Int)
        /// A connection's handshake completes (or fails: its node is down).
        case open(connection: Int)
        /// The next frame of a connection reaches the node / the client.
        case up(connection: Int)
        case down(connection: Int)
        /// The node / the client learns the connection ended.
        case upEnd(connection: Int)
        case downEnd(connection: Int)
        /// The network between them fails.
        case cut(connection: Int)
        /// One node: the committer takes a batch of `count` pieces of work.
        case commit(node: Int, count: Int)
        /// One node: the service thread runs what the committer reported.
        case handBack(node: Int)
        /// Cluster: the writer appends an entry; the reader hands one over.
        case write(node: Int)
        case read(node: Int, most: Int)
        /// Cluster: survivors reap a dead incarnation (its members leave).
        case reap(incarnation: Int)
        /// A node's process is killed (SIGKILL); it starts again.
        case crash(node: Int)
        case restart(node: Int)

        var description: String {
            switch self {
            case let .key(client, key): "writer\(client) presses \(key)"
            case let .type(client): "writer\(client) types"
            case let .paste(client, length): "writer\(client) pastes \(length) characters"
            case let .tick(client): "writer\(client) ticks"
            case let .reconnect(client): "writer\(client) connects"
            case let .open(connection): "connection \(connection + 1) opens"
            case let .up(connection): "connection \(connection + 1) delivers a frame to its node"
            case let .down(connection): "connection \(connection + 1) delivers a frame to its writer"
            case let .upEnd(connection): "connection \(connection + 1)'s node learns it ended"
            case let .downEnd(connection): "connection \(connection + 1)'s writer learns it ended"
            case let .cut(connection): "connection \(connection + 1) is cut"
            case let .commit(node, count): "node\(node) commits \(count) piece(s) of work"
            case let .handBack(node): "node\(node) runs a committer report"
            case let .write(node): "node\(node) appends an entry to the log"
            case let .read(node, most): "node\(node) reads up to \(most) entries"
            case let .reap(incarnation): "the cluster reaps incarnation \(incarnation)"
            case let .crash(node): "node\(node) is killed"
            case let .restart(node): "node\(node) starts again"
            }
        }
    }

    /// What can happen now, with weights. In quiet, nobody types and
    /// nothing fails; what is in flight arrives and everyone reconnects.
    func enabled(quiet: Bool) -> [(weight: Int, action: Action)] {
        var actions: [(weight: Int, action: Action)] = []
        func add(_ weight: Int, _ action: Action) { actions.append((weight, action)) }
        for client in clients {
            let i = client.index
            if !quiet, typesEarly || client.draft.synced {
                add(30, .type(client: i))
                add(3, .key(client: i, .character(" ")))
                add(3, .paste(client: i, length: Int.random(in: 2...6, using: &random)))
                add(3, .key(client: i, .backspace))
                add(2, .key(client: i, .delete))
                add(1, .key(client: i, .ctrl("w")))
                let moves: [Key] = [.left, .right, .home, .end, .up, .down, .alt("b"), .alt("f"), .alt("<"), .alt(">")]
                add(6, .key(client: i, moves[Int.random(in: 0..<moves.count, using: &random)]))
                add(2, .tick(client: i))
            }
            if client.connection == nil { add(quiet ? 20 : 5, .reconnect(client: i)) }
        }
        network.forgetFinished()
        for index in network.unfinished {
            let connection = network[index]
            if !connection.opened, !connection.clientDone { add(10, .open(connection: index)) }
            if connection.opened, !connection.nodeDone {
                if !connection.up.isEmpty {
                    add(15, .up(connection: index))
                } else if connection.upEnds {
                    add(5, .upEnd(connection: index))
                }
            }
            if !connection.clientDone {
                if !connection.down.isEmpty {
                    add(15, .down(connection: index))
                } else if connection.downEnds {
                    add(5, .downEnd(connection: index))
                }
            }
            if !quiet, connection.opened, !connection.upEnds || !connection.downEnds { add(1, .cut(connection: index)) }
        }
        for node in nodes {
            let i = node.index
            guard let run = node.run else {
                add(quiet ? 20 : 4, .restart(node: i))
                continue
            }
            switch run.sequencer {
            case let .local(sequencer):
                if !sequencer.backlog.isEmpty {
                    add(10, .commit(node: i, count: Int.random(in: 1...sequencer.backlog.count, using: &random)))
                }
                if !sequencer.handedBack.isEmpty { add(10, .handBack(node: i)) }
            case let .cluster(sequencer):
                if !sequencer.unwritten.isEmpty { add(10, .write(node: i)) }
                if sequencer.readable { add(10, .read(node: i, most: Int.random(in: 1...4, using: &random))) }
            }
            if !quiet { add(1, .crash(node: i)) }
        }
        if let log {
            let live = Set(nodes.compactMap { $0.run?.incarnation })
            for incarnation in 1...max(log.generation, 1) where !live.contains(incarnation) && log.awaitsReaping(incarnation) {
                add(3, .reap(incarnation: incarnation))
            }
        }
        return actions
    }

    func perform(_ action: Action) {
        let now = clock.now
        switch action {
        case let .key(i, key):
            edit(by: clients[i], .key(key), typed: [])
        case let .type(i):
            guard let scalar = ledger.fresh(for: i) else { return }
            report.keystrokes += 1
            edit(by: clients[i], .key(.character(Character(scalar))), typed: [scalar])
        case let .paste(i, length):
            let scalars = (0..<length).compactMap { _ in ledger.fresh(for: i) }
            guard !scalars.isEmpty else { return }
            report.pastes += 1
            report.keystrokes += scalars.count
            edit(by: clients[i], .paste(String(String.UnicodeScalarView(scalars))), typed: scalars)
        case let .tick(i):
            clients[i].tick(on: network, at: now)
        case let .reconnect(i):
            connect(clients[i])
        case let .open(index):
            open(index)
        case let .up(index):
            let frame = network[index].up.removeFirst()
            if tracing { trace.append("    \(frame)") }
            nodes[network[index].node].handle(.received(.text(frame), from: network[index].id))
        case let .down(index):
            let frame = network[index].down.removeFirst()
            if tracing { trace.append("    \(frame)") }
            clients[network[index].client].received(frame, on: network, at: now)
        case let .upEnd(index):
            network[index].nodeDone = true
            nodes[network[index].node].handle(.disconnected(network[index].id, WebSocketClose(
                code: network[index].closeCode, initiatedByPeer: network[index].closeCode == nil
                    || network[index].clientDone)))
        case let .downEnd(index):
            network[index].clientDone = true
            let client = clients[network[index].client]
            client.lost(.closed("connection closed (\(network[index].closeCode.map(String.init) ?? "no code"))"),
                        on: network, at: now)
        case let .cut(index):
            report.cuts += 1
            network.cut(index, keepUp: Int.random(in: 0...network[index].up.count, using: &random),
                        keepDown: Int.random(in: 0...network[index].down.count, using: &random))
        case let .commit(i, count):
            guard case let .local(sequencer)? = nodes[i].run?.sequencer else { return }
            sequencer.commit(count)
            if let failure = sequencer.failure { fail("node\(i)'s store refused a commit: \(failure)") }
        case let .handBack(i):
            guard case let .local(sequencer)? = nodes[i].run?.sequencer else { return }
            nodes[i].apply(sequencer.takeHandedBack())
        case let .write(i):
            guard case let .cluster(sequencer)? = nodes[i].run?.sequencer else { return }
            sequencer.write()
        case let .read(i, most):
            guard case let .cluster(sequencer)? = nodes[i].run?.sequencer, let delivery = sequencer.readNext(most: most)
            else { return }
            nodes[i].apply(delivery)
        case let .reap(incarnation):
            log?.reap(incarnation, at: .nanoseconds(clock.wallNanoseconds))
        case let .crash(i):
            crash(nodes[i])
        case let .restart(i):
            report.restarts += 1
            start(nodes[i])
            if mode == .node { checkAckedKept() }
        }
        for client in clients where client.resyncAsked {
            client.resyncAsked = false
            report.resyncs += 1
            connect(client)
        }
        for client in clients {
            if let ended = client.ended { fail("writer\(client.index) stopped: \(ended)") }
        }
    }

    /// A writer's key or paste, recorded in the ledger: what it typed, or
    /// what a delete took from its screen.
    private func edit(by client: SimulatedClient, _ input: InputEvent, typed: [Unicode.Scalar]) {
        let deletes = [InputEvent.key(.backspace), .key(.delete), .key(.ctrl("w"))].contains(input)
        let before = deletes ? client.editor.text : ""
        let moment: KeystrokeLedger.Moment = client.connection == nil ? .offline
            : client.draft.connection == .joined ? .joined : .connecting
        client.input(input, on: network, at: clock.now)
        if deletes { ledger.recordDelete(before: before, after: client.editor.text) }
        guard !typed.isEmpty else { return }
        for problem in ledger.recordTyping(by: client.index, after: client.editor.text, typed: typed, moment: moment) {
            fail(problem)
        }
    }

    /// A handshake completes, or fails when the node it went to is down
    /// or is another run now.
    private func open(_ index: Int) {
        let connection = network[index]
        let client = clients[connection.client]
        guard let run = nodes[connection.node].run, run.incarnation == connection.incarnation else {
            network[index].clientDone = true
            network[index].nodeDone = true
            client.lost(.failed("connection refused"), on: network, at: clock.now)
            return
        }
        network[index].opened = true
        if let previous = client.previousNode, previous != connection.node { report.failovers += 1 }
        nodes[connection.node].handle(.connected(connection.id, peer: "127.0.0.1"))
        network[index].up = network[index].waiting
        network[index].waiting.removeAll()
        client.connected(on: network, at: clock.now)
    }

    /// A node is killed: its memory goes, its connections end.
    private func crash(_ node: SimulatedNode) {
        report.crashes += 1
        for index in network.connections.indices where network[index].node == node.index && !network[index].nodeDone {
            network.nodeDied(index, keepDown: Int.random(in: 0...network[index].down.count, using: &random))
        }
        node.crash()
    }

    /// "Acked means kept": after a crash, no writer holds a draft revision
    /// the store does not have.
    private func checkAckedKept() {
        let stored = (try? store.loadRoom(Self.room))?.draftRevision ?? 0
        for client in clients where client.draft.synced && client.editor.revision > stored {
            fail("after node0 restarted the store has draft revision \(stored), but writer\(client.index) holds revision \(client.editor.revision)")
        }
    }
}
