import NeonCore

/// Room names as the client checks them: by the server's own rule
/// (`Hub.problem(withRoom:)`), with the way out the command offers.
public enum RoomName {
    /// The rule, as every help text states it.
    public static let rule = "1–64 characters without spaces or control characters"

    /// What is wrong with `room` given as `given` (`neonsync join ROOM`,
    /// `--room R`), ending with how to give another; nil when the server
    /// takes it.
    public static func problem(_ room: String, given: String) -> String? {
        let fix = given.hasPrefix("-") ? "choose another with \(given)" : "choose another room: \(given)"
        return Hub.problem(withRoom: room).map { "\($0); \(fix)" }
    }

    /// A room name from a file's path: its base name without the
    /// extension, with spaces and control characters (which a room name
    /// cannot hold) turned into '-', at most 64 characters.
    public static func fromFile(_ path: String) -> String {
        let base = path.split(separator: "/").last.map(String.init) ?? path
        let stem = base.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
        let name = (stem.isEmpty ? base : stem).map { character -> Character in
            character.isWhitespace || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
                ? "-" : character
        }
        let room = String(String(name).prefix(Hub.maxRoomNameLength))
        return room.isEmpty ? "document" : room
    }
}
