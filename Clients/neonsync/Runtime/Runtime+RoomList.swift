import NeonClient
import NeonCore
import NeonTransport
import NeonTransportCore

/// The list of rooms a program asks for (`ClientCommand.listRooms`): a
/// connection of its own to the current server that says hello as an
/// observer of every room, as `neonsync rooms` does, hands the overview to
/// the program and closes.
extension Runtime {
    /// The number the list's connection's events carry, apart from the
    /// room connection's.
    static var roomListGeneration: Int { Int.min }

    func listRooms() {
        guard let link, link.roomList == nil else { return }
        self.link?.roomList = try? mailbox.connect(to: link.servers.current, generation: Self.roomListGeneration)
    }

    func roomListReceived(_ event: ClientEvent) {
        guard let link, let connection = link.roomList else { return }
        switch event {
        case .connected:
            let hello = ClientMessage.hello(room: Hub.everyRoom, name: "neonsync-rooms", role: .observer, token: link.token)
            connection.send(text: String(decoding: WireCodec().encode(hello), as: UTF8.self))
        case let .received(.text(text)):
            if let message = try? WireCodec().decodeServer(Array(text.utf8)), case .overview = message.payload {
                update(.received(message, text: text))
            }
            connection.close(code: CloseCode.normal, reason: "bye")
            self.link?.roomList = nil
        case .received(.binary), .rejected:
            break
        case .closed, .failed, .untrusted:
            self.link?.roomList = nil
        }
    }
}
