import NeonClient
import NeonCore
import NeonTUI

/// One room in-process: NeonCore's reducer plays the server and reader
/// models play the terminals, with time passed in. Every message is
/// delivered at once, in the order the server sends it, so a test can ask
/// the server's state and every screen's model at any step.
struct RoomSimulation {
    var room = RoomState(name: "talk")
    var clients: [ClientID: ReaderModel] = [:]
    private var order: [ClientID] = []
    private var away: [ClientID: ReaderModel] = [:]
    /// Every message each terminal received, in order.
    private(set) var inbox: [ClientID: [ServerMessage]] = [:]
    private(set) var now: Duration = .seconds(1)

    /// A terminal in `mode` connects as `id`; a presenter or reader brings
    /// `document` to publish.
    mutating func join(_ id: ClientID, _ mode: ClientMode, name: String, columns: Int, rows: Int,
                       document: DocumentInfo? = nil) {
        var model = ReaderModel(mode: mode, room: room.name, name: name, columns: columns, rows: rows,
                                document: document, at: now)
        _ = model.connected(at: now)
        clients[id] = model
        order.append(id)
        deliver(room.apply(.joined(id, name: name, role: mode.role), at: now))
    }

    /// The terminal of `id` loses its connection and comes back as `newID`
    /// (the server sees a leave and a fresh join).
    mutating func reconnect(_ id: ClientID, as newID: ClientID) {
        guard var model = clients.removeValue(forKey: id) else { return }
        order.removeAll { $0 == id }
        _ = model.disconnected("test", at: now)
        deliver(room.apply(.left(id), at: now))
        _ = model.connected(at: now)
        clients[newID] = model
        order.append(newID)
        deliver(room.apply(.joined(newID, name: model.name, role: model.mode.role), at: now))
    }

    /// The terminal of `id` loses its connection and stays away (its model
    /// is kept for `rejoin`).
    mutating func leave(_ id: ClientID) {
        guard var model = clients.removeValue(forKey: id) else { return }
        order.removeAll { $0 == id }
        _ = model.disconnected("test", at: now)
        away[id] = model
        deliver(room.apply(.left(id), at: now))
    }

    /// The terminal that left as `id` connects again as `newID`.
    mutating func rejoin(_ id: ClientID, as newID: ClientID) {
        guard var model = away.removeValue(forKey: id) else { return }
        _ = model.connected(at: now)
        clients[newID] = model
        order.append(newID)
        deliver(room.apply(.joined(newID, name: model.name, role: model.mode.role), at: now))
    }

    /// A key or mouse event on the terminal of `id`.
    mutating func input(_ id: ClientID, _ event: InputEvent) {
        guard var model = clients[id] else { return }
        let commands = model.handle(event, at: now)
        model.settle()
        clients[id] = model
        deliver(perform(commands, from: id))
    }

    mutating func press(_ id: ClientID, _ key: Key) { input(id, .key(key)) }

    /// Lets `duration` pass in 16 ms frames, as the client's shell does while
    /// something moves.
    mutating func advance(by duration: Duration) {
        let end = now + duration
        while now < end {
            now = min(now + .milliseconds(16), end)
            for id in order {
                guard var model = clients[id] else { continue }
                let commands = model.tick(at: now)
                model.settle()
                clients[id] = model
                deliver(perform(commands, from: id))
            }
        }
    }

    private mutating func deliver(_ outputs: [RoomOutput]) {
        var queue = outputs
        while !queue.isEmpty {
            switch queue.removeFirst() {
            case let .broadcast(message, _, except):
                for id in order where id != except { queue += receive(message, by: id) }
            case let .send(message, to: id):
                queue += receive(message, by: id)
            default:
                break
            }
        }
    }

    private mutating func receive(_ message: ServerMessage, by id: ClientID) -> [RoomOutput] {
        guard var model = clients[id] else { return [] }
        inbox[id, default: []].append(message)
        let commands = model.receive(message, at: now)
        model.settle()
        clients[id] = model
        return perform(commands, from: id)
    }

    /// The room's answer to what a terminal sent.
    private mutating func perform(_ commands: [ClientCommand], from id: ClientID) -> [RoomOutput] {
        var outputs: [RoomOutput] = []
        for case let .send(message) in commands {
            switch message {
            case let .scroll(top, viewport, content, anchor, step):
                outputs += room.apply(.scrolled(id, top: top, viewport: viewport, content: content, anchor: anchor, step: step), at: now)
            case let .tab(section):
                outputs += room.apply(.tabSelected(id, section: section), at: now)
            case let .follow(on):
                outputs += room.apply(.followChanged(id, on: on), at: now)
            case let .document(title, format, text, _, images, unshown, revises):
                outputs += room.apply(.documentPublished(id, DocumentInfo(title: title, format: format, text: text, images: images,
                                                                          unshown: unshown), revises: revises), at: now)
            default:
                break
            }
        }
        return outputs
    }
}
