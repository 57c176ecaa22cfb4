import CLibWebSockets
import NeonTransportCore

/// What lws holds of an HTTP request (an upgrade or a plain request) and
/// of its peer, read into Swift values. Valid during the callbacks of the
/// handshake and, for a connection, its ESTABLISHED: lws lets go of the
/// headers after that.
enum RequestHeaders {
    /// A request header's value; `nil` when the request has none.
    static func value(_ token: lws_token_indexes, of wsi: OpaquePointer) -> String? {
        let length = lws_hdr_total_length(wsi, token)
        guard length > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        let copied = lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token)
        guard copied >= 0 else { return nil }
        return String(decoding: buffer[..<Int(copied)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A header lws has no token for, by its lowercase name with the colon.
    static func custom(_ name: String, of wsi: OpaquePointer) -> String? {
        let count = Int32(name.utf8.count)
        let length = lws_hdr_custom_length(wsi, name, count)
        guard length > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        let copied = lws_hdr_custom_copy(wsi, &buffer, Int32(buffer.count), name, count)
        guard copied >= 0 else { return nil }
        return String(decoding: buffer[..<Int(copied)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The remote IP address, or "" when lws cannot tell.
    static func peer(of wsi: OpaquePointer) -> String {
        var peer = [CChar](repeating: 0, count: 64)
        return lws_get_peer_simple(wsi, &peer, peer.count).map { String(cString: $0) } ?? ""
    }
}

extension HandshakeGate.Request {
    /// The upgrade request's headers the gate reads.
    init(of wsi: OpaquePointer) {
        self.init(host: RequestHeaders.value(WSI_TOKEN_HOST, of: wsi), key: RequestHeaders.value(WSI_TOKEN_KEY, of: wsi),
                  version: RequestHeaders.value(WSI_TOKEN_VERSION, of: wsi),
                  origin: RequestHeaders.value(WSI_TOKEN_ORIGIN, of: wsi))
    }
}
