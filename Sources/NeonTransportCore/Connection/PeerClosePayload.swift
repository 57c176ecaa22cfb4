/// The payload of a close frame the peer sent first, checked against RFC
/// 6455 §5.5.1 and §7.4 before the close is answered.
///
/// libwebsockets 4.1 echoes the payload as it came, except that it turns
/// some reserved codes into 1002 (ops-ws.c, lws_ws_rx_sm, the
/// LWSWSOPC_CLOSE case); a 1-byte payload, a code of 5000 or more and a
/// reason that is not UTF-8 would go back to the peer unchanged. Pure
/// value: tested without sockets.
package enum PeerClosePayload: Equatable {
    /// A close the peer may send: empty, or a code that may appear on the
    /// wire and a UTF-8 reason. Answered with the same payload.
    case valid(code: UInt16?, reason: String)
    /// A close that breaks the protocol: the connection is failed with
    /// `code` (1002, or 1007 for a reason that is not UTF-8).
    case invalid(code: UInt16, reason: String)

    package init(_ payload: UnsafeRawBufferPointer) {
        guard !payload.isEmpty else {
            self = .valid(code: nil, reason: "")
            return
        }
        guard payload.count >= 2 else {
            self = .invalid(code: CloseCode.protocolError, reason: "a close frame's payload cannot be 1 byte")
            return
        }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard Self.mayBeSent(code) else {
            self = .invalid(code: CloseCode.protocolError, reason: "close code \(code) is not one a peer may send")
            return
        }
        guard let reason = String(validating: payload[2...], as: UTF8.self) else {
            self = .invalid(code: CloseCode.invalidPayload, reason: "close reason is not valid UTF-8")
            return
        }
        self = .valid(code: code, reason: reason)
    }

    /// Codes an endpoint may put in a close frame: the ones RFC 6455 §7.4.1
    /// defines for the wire, those IANA registered since (1012 to 1014), and
    /// the ranges for libraries (3000–3999) and applications (4000–4999).
    /// Not 1004, 1005, 1006 or 1015 (reserved, or only for reporting), not
    /// the rest of 1000–2999 (reserved) and nothing below 1000 or above 4999.
    package static func mayBeSent(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
