import CLibWebSockets
import NeonTransportCore

/// Plain HTTP on the WebSocket port (`/healthz`, `/metrics`): a request
/// that asks for no upgrade is read into an ``HTTPRequest``, answered by
/// `respond` (the delegate), and written in two steps: the headers in
/// LWS_CALLBACK_HTTP, the body in the HTTP_WRITEABLE that follows. The body
/// waits in the connection's per-session slot (``PendingHTTPResponse``);
/// keep-alive is lws's.
struct HTTPResponder {
    /// LWS_CALLBACK_HTTP: builds the request, asks `respond`, writes the
    /// headers now and asks for HTTP_WRITEABLE for the body.
    func request(_ wsi: OpaquePointer, slot: UnsafeMutableRawPointer?, path: UnsafeRawBufferPointer,
                 respond: (HTTPRequest) -> HTTPResponse) -> Int32 {
        guard let slot else { return -1 }
        let method = Self.method(of: wsi)
        let request = HTTPRequest(
            method: method,
            path: String(decoding: path, as: UTF8.self),
            query: RequestHeaders.value(WSI_TOKEN_HTTP_URI_ARGS, of: wsi) ?? "")
        let response = respond(request)

        let headroom = OutboundFrame.headroom
        var headers = [UInt8](repeating: 0, count: headroom + 512 + response.contentType.utf8.count)
        let failed = headers.withUnsafeMutableBufferPointer { buffer -> Bool in
            let start = buffer.baseAddress! + headroom
            let end = buffer.baseAddress! + buffer.count
            var cursor: UnsafeMutablePointer<UInt8>? = start
            return lws_add_http_common_headers(
                wsi, UInt32(clamping: response.status), response.contentType,
                lws_filepos_t(response.body.count), &cursor, end) != 0
                || lws_finalize_write_http_header(wsi, start, &cursor, end) != 0
        }
        if failed {
            return -1
        }
        RetainedSlot.store(PendingHTTPResponse(body: Self.body(of: response, method: method)), in: slot)
        lws_callback_on_writable(wsi)
        return 0
    }

    /// LWS_CALLBACK_HTTP_WRITEABLE: writes the body and ends the transaction
    /// (keeping the connection for the next request when the client allows).
    func writeable(_ wsi: OpaquePointer, slot: UnsafeMutableRawPointer?) -> Int32 {
        guard let pending = RetainedSlot<PendingHTTPResponse>.take(slot) else { return 0 }
        if let body = pending.body {
            let start = body.payloadStart.assumingMemoryBound(to: UInt8.self)
            if lws_write(wsi, start, body.count, LWS_WRITE_HTTP_FINAL) < Int32(clamping: body.count) {
                return -1
            }
        }
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    /// LWS_CALLBACK_CLOSED_HTTP: a body never written goes with the slot.
    func closed(slot: UnsafeMutableRawPointer?) {
        _ = RetainedSlot<PendingHTTPResponse>.take(slot)
    }

    /// The body to write after the headers: none for `HEAD` (the headers
    /// still give its length) or an empty body.
    static func body(of response: HTTPResponse, method: String) -> OutboundFrame? {
        method == "HEAD" || response.body.isEmpty ? nil : OutboundFrame(binary: response.body)
    }

    private static let methods: [(lws_token_indexes, String)] = [
        (WSI_TOKEN_GET_URI, "GET"), (WSI_TOKEN_POST_URI, "POST"), (WSI_TOKEN_HEAD_URI, "HEAD"),
        (WSI_TOKEN_PUT_URI, "PUT"), (WSI_TOKEN_DELETE_URI, "DELETE"),
        (WSI_TOKEN_OPTIONS_URI, "OPTIONS"), (WSI_TOKEN_PATCH_URI, "PATCH"),
    ]

    private static func method(of wsi: OpaquePointer) -> String {
        for (token, name) in methods where lws_hdr_total_length(wsi, token) > 0 {
            return name
        }
        return "OTHER"
    }
}

/// A response whose headers are written and whose body waits for the
/// connection's HTTP_WRITEABLE callback. Lives in the per-session slot.
final class PendingHTTPResponse {
    /// The body with lws headroom; `nil` for `HEAD` or an empty body.
    let body: OutboundFrame?

    init(body: OutboundFrame?) {
        self.body = body
    }
}
