import CLibWebSockets
import NeonTransportCore

extension ServerEngine {
    /// LWS_CALLBACK_HTTP_CONFIRM_UPGRADE: asks the ``HandshakeGate`` and
    /// writes its refusal, if any; none becomes a connection. Returning 1
    /// tells lws the response was written; the connection then closes (the
    /// response says `connection: close`).
    func confirmUpgrade(_ wsi: OpaquePointer) -> Int32 {
        let decision = gate.decide(HandshakeGate.Request(of: wsi), stopping: shuttingDown) {
            gateway.unavailableReason()
        }
        switch decision {
        case .proceed:
            return 0
        case .malformed(let refusal):
            TransportLog.note(.warning, "refused a WebSocket upgrade from \(RequestHeaders.peer(of: wsi)) "
                + "with \(refusal.status): \(refusal.body.dropLast())")
            return write(refusal, wsi)
        case .unavailable(let refusal):
            return write(refusal, wsi)
        case .originRefused(let origin):
            gateway.post(.refused(RefusedHandshake(peer: RequestHeaders.peer(of: wsi), origin: origin,
                                                   forwarding: ForwardingHeaders(of: wsi))))
            return write(.origin, wsi)
        }
    }

    private func write(_ refusal: HandshakeRefusal, _ wsi: OpaquePointer) -> Int32 {
        let response = OutboundFrame(binary: refusal.response)
        let start = response.payloadStart.assumingMemoryBound(to: UInt8.self)
        _ = lws_write(wsi, start, response.count, LWS_WRITE_HTTP_HEADERS)
        return 1
    }
}
