import NeonCore

extension ServerLimits {
    /// The error the server would answer `document` (sent as the `revises`
    /// version when given) with, known before sending it: its text over
    /// `--max-document`, or the message carrying it (JSON, its pictures in
    /// base64) over `--max-message`, which the server would cut off with
    /// close 1009. Nil when it fits.
    public func refusal(of document: DocumentInfo, revises: Int? = nil) -> ProtocolError? {
        let size = document.text.utf8.count
        if size > self.document {
            return ProtocolError(.documentTooLarge, "the document is \(size) bytes, over this server's limit of \(self.document) bytes; split it or ask the operator to raise --max-document")
        }
        let bytes = WireCodec().encode(ClientMessage.document(title: document.title, format: document.format, text: document.text,
                                                              parser: Document.parserIdentity, images: document.images,
                                                              revises: revises)).count
        guard bytes > message else { return nil }
        return ProtocolError(.messageTooLarge, "the document is \(bytes) bytes as a message, over this server's limit of \(message) bytes for one message; split it or ask the operator to raise --max-message")
    }
}
