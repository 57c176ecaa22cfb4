/// A hyperlink cells of a buffer belong to: its address and an id that
/// tells a terminal which cells are one link (OSC 8's `id=`), so a link
/// wrapped over two rows lights up as one.
public struct Hyperlink: Equatable, Hashable, Sendable {
    public let url: String
    public let id: String

    public init(url: String, id: String) {
        self.url = url
        self.id = id
    }

    /// OSC 8 opening the link: ESC ] 8 ; id=ID ; URL ESC \.
    /// The address's bytes outside printable ASCII are percent-encoded, as
    /// OSC 8 wants a URI, so nothing in it can end the sequence.
    var open: String {
        var address = ""
        for byte in url.utf8 {
            if byte > 0x20, byte < 0x7F {
                address.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                address += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return "\u{1B}]8;id=\(id);\(address)\u{1B}\\"
    }

    /// OSC 8 closing whatever link is open.
    static let close = "\u{1B}]8;;\u{1B}\\"
}

private extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(width - count, 0)) + self
    }
}
