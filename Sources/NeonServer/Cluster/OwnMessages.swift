import NeonCore

/// Where a link's readers take the link's own messages back from, already
/// decoded, instead of decoding their JSON again: a node's is
/// `SentMessages`, what it appended per client. A program that drives a
/// link without being a node (neonsync-bench's Redis load, whose every
/// event is one message) hands the link a record of its own.
package protocol OwnMessages: Sendable {
    /// `client`'s `message`, appended as `text`.
    func add(_ message: ClientMessage, as text: String, of client: String)
    /// The message `client` appended as `text`, now read back; nil when it
    /// is not known (the reader then decodes the text).
    func take(_ text: String, of client: String) -> ClientMessage?
    /// `client`'s connection closed, as its log says: nothing more comes back.
    func forget(_ client: String)
}
