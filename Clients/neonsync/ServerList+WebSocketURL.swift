import NeonClient
import NeonTransport

/// `--server` as the commands use it: WebSocket URLs.
extension ServerList where Address == WebSocketURL {
    /// Parses `--server URL` or `--server URL1,URL2,…` (each checked as a
    /// ws:// or wss:// URL); throws the sentence to print.
    static func webSockets(_ text: String) throws(ServerListProblem) -> ServerList {
        try parse(text) { entry in try WebSocketURL(parsing: entry) }
    }

    /// Every server, comma-separated, for sentences about all of them.
    var listed: String { all.map(\.description).joined(separator: ", ") }
}
