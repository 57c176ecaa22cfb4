import Foundation
import NeonCore

extension ClusterDelivery {
    /// The delivery as the gateway takes it, decoded (on the thread that
    /// read it, not the service thread).
    func gatewayEvent(redis: String) -> GatewayEvent {
        let codec = WireCodec()
        switch self {
        case let .loaded(room, image, entries):
            let decoded = image.flatMap { try? JSONDecoder().decode(RoomImage.self, from: Data($0.utf8)) }
            return .loaded(room: room, image: decoded, entries: entries.compactMap { $0.roomEntry(codec) })
        case let .entries(room, entries):
            return .ordered(room: room, entries.compactMap { $0.roomEntry(codec) })
        case let .failed(client, reason):
            return .unavailable(client: ClientID(client), reason: reason)
        case let .redis(up, reason):
            return .store(up: up, name: redis, reason: reason)
        case .lostMembership:
            return .membershipLost
        }
    }
}
