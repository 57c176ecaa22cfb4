extension WireCodec {
    /// The bytes of a `room` envelope around a message already encoded as
    /// `message` (its seq is `seq`), spliced rather than encoded again, so a
    /// broadcast is still encoded once however many observers see it.
    /// Decodes to `ServerMessage(seq: seq, .room(RoomEnvelope(...)))`.
    public func envelope(room: String?, to: ClientID? = nil, seq: Int, message: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(message.count + 64 + (room?.utf8.count ?? 4))
        out += Array(#"{"type":"room","seq":\#(seq),"room":"#.utf8)
        if let room { out += encode(room) } else { out += Array("null".utf8) }
        if let to {
            out += Array(#","to":"#.utf8)
            out += encode(to.rawValue)
        }
        out += Array(#","message":"#.utf8)
        out += message
        out.append(UInt8(ascii: "}"))
        return out
    }
}
