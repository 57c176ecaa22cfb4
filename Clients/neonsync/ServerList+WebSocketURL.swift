import NeonClient
import NeonCore
import NeonTransport

/// `--server` as the commands use it: WebSocket URLs.
extension ServerList where Address == WebSocketURL {
    /// Parses `--server URL` or `--server URL1,URL2,…` (each checked as a
    /// ws:// or wss:// URL); throws the sentence to print.
    static func webSockets(_ text: String) throws(NeonError) -> ServerList {
        try parse(text) { entry in try WebSocketURL(parsing: entry) }
    }
}

/// The room in the connection's URL, so a proxy in front of a cluster can
/// send every member of a room to the same node (deploy/nginx hashes on
/// it). A hint for routing only: the hello's room is the room joined.
extension WebSocketURL {
    /// This URL with `room=ROOM` in its query; unchanged for nil and for a
    /// Unix socket, which has no proxy in front.
    func naming(room: String?) -> WebSocketURL {
        guard let room, unixSocket == nil else { return self }
        return settingQueryParameter("room", to: room)
    }
}
