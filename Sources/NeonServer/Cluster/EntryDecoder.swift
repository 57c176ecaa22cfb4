import Foundation
import NeonCore

/// How a reader turns what Redis holds into a room's events: the node's
/// own messages as it decoded them when they arrived (`sent`), other
/// messages decoded from their JSON, an image from its snapshot key.
struct EntryDecoder {
    /// The incarnation whose own messages `sent` holds.
    let generation: Int
    let sent: any OwnMessages
    let codec = WireCodec()

    /// The event of an entry: this node's own messages as it decoded them
    /// when they arrived, other messages decoded.
    func decoded(_ entry: ClusterEntry, from source: UndecodableEntryError.Source) -> Result<RoomEntry, UndecodableEntryError> {
        if entry.origin == generation {
            switch entry.kind {
            case .message, .verifiedHello:
                if let message = sent.take(entry.message, of: entry.client) {
                    return .success(RoomEntry(event: .message(message), client: ClientID(entry.client), origin: entry.origin,
                                              time: .nanoseconds(entry.time), index: entry.index,
                                              verified: entry.kind == .verifiedHello))
                }
            case .bye: sent.forget(entry.client)
            case .gone: break
            }
        }
        return entry.decoded(codec, from: source)
    }

    /// A room's image as the snapshot key holds it (`n\n{JSON}`), or what
    /// is wrong with it.
    static func image(_ reply: RedisReply) -> Result<(Int, RoomImage), UndecodableEntryError> {
        guard case let .string(bytes) = reply, let newline = bytes.firstIndex(of: 0x0A),
              let index = Int(String(decoding: bytes[..<newline], as: UTF8.self)), index >= 0 else {
            return .failure(UndecodableEntryError(.image, index: nil, "it does not start with the number of its entry and a newline"))
        }
        do {
            return .success((index, try JSONDecoder().decode(RoomImage.self, from: Data(bytes[(newline + 1)...]))))
        } catch {
            return .failure(UndecodableEntryError(.image, index: index, "its JSON does not decode as a room (\(error))"))
        }
    }
}
