import CLibWebSockets
import NeonTransportCore

/// Plain HTTP on the WebSocket port (`/healthz`, `/metrics`): a request
/// that asks for no upgrade is read into an ``HTTPRequest`` and handed to
/// the gateway thread, which gathers every shard's backlog and asks the
/// delegate. The answer comes back to the request's shard
/// (`ServerCommand.httpAnswer`), which writes it in two steps: the headers
/// in one HTTP_WRITEABLE, the body in the next. What is waiting lives in
/// the connection's per-session slot (``PendingHTTPResponse``); keep-alive
/// is lws's. No service thread waits for an answer meanwhile.
struct HTTPResponder {
    /// LWS_CALLBACK_HTTP: builds the request and hands it on with `ask`,
    /// which returns the token its answer will carry (nil: nobody can
    /// answer, and the connection closes).
    func request(_ wsi: OpaquePointer, slot: UnsafeMutableRawPointer?, path: UnsafeRawBufferPointer,
                 ask: (HTTPRequest) -> UInt64?) -> Int32 {
        guard let slot else { return -1 }
        let method = Self.method(of: wsi)
        let request = HTTPRequest(
            method: method,
            path: String(decoding: path, as: UTF8.self),
            query: RequestHeaders.value(WSI_TOKEN_HTTP_URI_ARGS, of: wsi) ?? "")
        guard let token = ask(request) else { return -1 }
        _ = RetainedSlot<PendingHTTPResponse>.take(slot)
        RetainedSlot.store(PendingHTTPResponse(token: token, method: method), in: slot)
        return 0
    }

    /// The delegate's answer reached the request's shard: it is written
    /// when the connection is next writeable.
    func answer(_ response: HTTPResponse, _ wsi: OpaquePointer) {
        guard let pending = RetainedSlot<PendingHTTPResponse>.load(lws_wsi_user(wsi)) else { return }
        pending.response = response
        lws_callback_on_writable(wsi)
    }

    /// LWS_CALLBACK_HTTP_WRITEABLE: the headers first, then (next time)
    /// the body, which ends the transaction (keeping the connection for the
    /// next request when the client allows).
    func writeable(_ wsi: OpaquePointer, slot: UnsafeMutableRawPointer?) -> Int32 {
        guard let pending = RetainedSlot<PendingHTTPResponse>.load(slot) else { return 0 }
        if let response = pending.response {
            pending.response = nil
            guard writeHeaders(response, wsi) else { return -1 }
            pending.body = Self.body(of: response, method: pending.method)
            pending.headersWritten = true
            lws_callback_on_writable(wsi)
            return 0
        }
        guard pending.headersWritten else { return 0 }
        _ = RetainedSlot<PendingHTTPResponse>.take(slot)
        if let body = pending.body {
            let start = body.payloadStart.assumingMemoryBound(to: UInt8.self)
            if lws_write(wsi, start, body.count, LWS_WRITE_HTTP_FINAL) < Int32(clamping: body.count) {
                return -1
            }
        }
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    /// LWS_CALLBACK_CLOSED_HTTP: what was waiting goes with the slot;
    /// returns the token of a request still waiting for its answer.
    func closed(slot: UnsafeMutableRawPointer?) -> UInt64? {
        guard let pending = RetainedSlot<PendingHTTPResponse>.take(slot), !pending.headersWritten else { return nil }
        return pending.token
    }

    private func writeHeaders(_ response: HTTPResponse, _ wsi: OpaquePointer) -> Bool {
        let headroom = OutboundFrame.headroom
        var headers = [UInt8](repeating: 0, count: headroom + 512 + response.contentType.utf8.count)
        return headers.withUnsafeMutableBufferPointer { buffer -> Bool in
            let start = buffer.baseAddress! + headroom
            let end = buffer.baseAddress! + buffer.count
            var cursor: UnsafeMutablePointer<UInt8>? = start
            return lws_add_http_common_headers(
                wsi, UInt32(clamping: response.status), response.contentType,
                lws_filepos_t(response.body.count), &cursor, end) == 0
                && lws_finalize_write_http_header(wsi, start, &cursor, end) == 0
        }
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

/// An HTTP request between its arrival and its last byte written: waiting
/// for the delegate's answer (`token`), then its headers, then its body.
/// Lives in the per-session slot.
final class PendingHTTPResponse {
    let token: UInt64
    let method: String
    /// The answer, until its headers are written.
    var response: HTTPResponse?
    var headersWritten = false
    /// The body with lws headroom; `nil` for `HEAD` or an empty body.
    var body: OutboundFrame?

    init(token: UInt64, method: String) {
        self.token = token
        self.method = method
    }
}
