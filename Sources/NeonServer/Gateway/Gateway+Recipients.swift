import NeonCore
import NeonTransportCore

/// Recipients: the hub names clients and rooms; this turns its outputs
/// into deliveries to this server's connections, each message encoded once.
extension Gateway {
    /// Turns hub outputs into commands. `local`: the event came from this
    /// server (in a cluster, other nodes' events are applied silently: their
    /// log lines are written where they happened). `waits`: what is sent to
    /// one connection may wait behind its room's commits, in order; not when
    /// the transport closes the connection right after (a refused frame).
    mutating func route(_ outputs: [RoomOutput], local: Bool = true, waits: Bool = true,
                        into out: inout [GatewayCommand]) {
        for output in outputs {
            switch output {
            case .send(var message, let client):
                guard let connection = clients[client] else { continue }
                if case var .overview(overview) = message.payload {
                    for i in overview.rooms.indices { overview.rooms[i].active = activity[overview.rooms[i].room] }
                    message = ServerMessage(seq: message.seq, .overview(overview))
                }
                if case var .welcome(welcome) = message.payload {
                    welcome.limits = limits
                    message = ServerMessage(seq: message.seq, .welcome(welcome))
                }
                let bytes = codec.encode(message)
                let room = waits ? hub.sessions[client] ?? connections[connection]?.room : nil
                out.append(.deliver(Delivery(bytes: bytes, to: [connection], room: room, isBroadcast: false)))
                metrics.sent(message, bytes: bytes.count, recipients: 1)
                if case .error = message.payload {
                    relay(bytes, seq: message.seq, room: hub.sessions[client], to: client,
                          observers: hub.errorObservers(of: client), into: &out)
                }
            case let .broadcast(message, room, except):
                let recipients = self.recipients.connections(of: room, members: hub.members(of: room),
                                                             except: except.flatMap { clients[$0] }, clients: clients)
                let watchers = hub.watchers(of: room)
                guard !recipients.isEmpty || !watchers.isEmpty else { continue }
                let bytes = codec.encode(message)
                let key = message.payload.coalescingKey
                if !recipients.isEmpty {
                    out.append(.deliver(Delivery(bytes: bytes, coalescingKey: key, to: recipients, room: room,
                                                 isBroadcast: true)))
                    metrics.sent(message, bytes: bytes.count, recipients: recipients.count)
                }
                relay(bytes, seq: message.seq, room: room, to: nil, observers: watchers, coalescingKey: key, into: &out)
            case let .log(record):
                if local { out.append(.log(record)) }
            case let .persist(record):
                out.append(.persist(record, room: record.room))
            }
        }
    }

    /// What this server takes from a client, as every welcome says.
    var limits: ServerLimits {
        ServerLimits(message: configuration.maxMessageBytes, document: hub.limits.maxDocumentBytes,
                     draft: hub.limits.maxDraftScalars)
    }

    /// Sends an encoded room message to `observers` outside the room, in a
    /// `room` envelope spliced around the same bytes (one frame for all).
    /// A latest-wins message keeps its coalescing key, prefixed so an
    /// envelope only ever replaces an envelope.
    private mutating func relay(_ message: [UInt8], seq: Int, room: String?, to client: ClientID?,
                                observers: [ClientID], coalescingKey: String? = nil, into out: inout [GatewayCommand]) {
        let connections = observers.compactMap { clients[$0] }
        guard !connections.isEmpty else { return }
        let bytes = codec.envelope(room: room, to: client, seq: seq, message: message)
        out.append(.deliver(Delivery(bytes: bytes, coalescingKey: coalescingKey.map { "relay:" + $0 }, to: connections,
                                     room: room, isBroadcast: false)))
        metrics.relayed(bytes: bytes.count, recipients: connections.count)
    }
}

extension PersistRecord {
    /// The room the record is about.
    var room: String {
        switch self {
        case let .roomCreated(room, _, _): room
        case let .documentSet(room, _): room
        case let .roomActive(room, _): room
        case let .roomRemoved(room): room
        case let .revisionAcked(room, _, _, _, _, _): room
        case let .presenterPlaced(room, _): room
        case let .questionsKept(room, _): room
        }
    }
}
