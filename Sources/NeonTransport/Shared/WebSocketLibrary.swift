import CLibWebSockets

/// The libwebsockets this process runs with.
public enum WebSocketLibrary {
    /// Its version as the shared library reports it, e.g. "4.1.6" (without
    /// the "-" a build with no git hash appends).
    public static var version: String {
        var text = String(cString: lws_get_library_version())
        while text.hasSuffix("-") { text.removeLast() }
        return text
    }
}
