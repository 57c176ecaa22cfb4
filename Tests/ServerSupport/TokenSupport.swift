import Foundation
import NeonCore
import NeonServer
import NeonTestSupport

extension TestSecret {
    /// A token signed in-process, with any expiry (an expired one included).
    package func token(_ room: String, _ role: Role, expires: Int64 = Int64(Date().timeIntervalSince1970) + 3600) throws -> String {
        RoomToken(room: room, role: role, expires: expires).signed(with: try TokenSecret(Array(text.utf8)))
    }
}
