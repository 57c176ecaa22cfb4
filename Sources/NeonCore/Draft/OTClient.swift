/// The client side of the draft protocol: the ot.js client state machine.
///
/// A client has at most one edit in flight (`outstanding`) and collects
/// further local edits into one `buffer` until the server acknowledges it.
/// It does not hold the text; its owner applies local edits to its own text
/// and the operations returned by `applyServer(_:)` likewise.
///
/// Every error means the local text and the server disagree: resync (fetch
/// the text and revision afresh) and call `resync(revision:)`.
public struct OTClient: Equatable, Sendable {
    /// What the client is waiting for.
    public enum State: Hashable, Sendable {
        /// Nothing in flight.
        case synchronized
        /// `outstanding` was sent and not yet acknowledged.
        case awaitingConfirm(outstanding: TextOperation)
        /// `outstanding` was sent; `buffer` holds local edits made since.
        case awaitingWithBuffer(outstanding: TextOperation, buffer: TextOperation)
    }

    /// The server revision the local text is based on; send edits with it.
    public private(set) var revision: Int
    public private(set) var state: State = .synchronized

    /// A client whose text is the server's text at `revision`.
    public init(revision: Int) {
        self.revision = revision
    }

    /// Records an edit the user made to the local text. Returns the
    /// operation to send now, based on `revision`, or nil when it was
    /// buffered behind the edit in flight.
    public mutating func applyLocal(_ operation: TextOperation) throws(OTClientError) -> TextOperation? {
        switch state {
        case .synchronized:
            state = .awaitingConfirm(outstanding: operation)
            return operation
        case .awaitingConfirm(let outstanding):
            guard outstanding.targetLength == operation.baseLength else {
                throw .mismatchedEdit(.lengthMismatch(expected: operation.baseLength, actual: outstanding.targetLength))
            }
            state = .awaitingWithBuffer(outstanding: outstanding, buffer: operation)
            return nil
        case .awaitingWithBuffer(let outstanding, let buffer):
            do {
                state = .awaitingWithBuffer(outstanding: outstanding, buffer: try buffer.compose(operation))
            } catch {
                throw .mismatchedEdit(error)
            }
            return nil
        }
    }

    /// Takes in another client's edit broadcast by the server. Returns the
    /// operation to apply to the local text, transformed past the local
    /// edits the server has not sequenced yet.
    public mutating func applyServer(_ operation: TextOperation) throws(OTClientError) -> TextOperation {
        let local: TextOperation
        do {
            switch state {
            case .synchronized:
                local = operation
            case .awaitingConfirm(let outstanding):
                let (outstandingPrime, operationPrime) = try TextOperation.transform(outstanding, operation)
                state = .awaitingConfirm(outstanding: outstandingPrime)
                local = operationPrime
            case .awaitingWithBuffer(let outstanding, let buffer):
                let (outstandingPrime, operationPrime) = try TextOperation.transform(outstanding, operation)
                let (bufferPrime, operationDoublePrime) = try TextOperation.transform(buffer, operationPrime)
                state = .awaitingWithBuffer(outstanding: outstandingPrime, buffer: bufferPrime)
                local = operationDoublePrime
            }
        } catch {
            throw .mismatchedEdit(error)
        }
        revision += 1
        return local
    }

    /// Takes in the server's acknowledgement of the edit in flight. Returns
    /// the buffered edit to send next, based on the new `revision`, if any.
    public mutating func serverAck() throws(OTClientError) -> TextOperation? {
        switch state {
        case .synchronized:
            throw .unexpectedAcknowledgement(revision: revision)
        case .awaitingConfirm:
            state = .synchronized
            revision += 1
            return nil
        case .awaitingWithBuffer(_, let buffer):
            state = .awaitingConfirm(outstanding: buffer)
            revision += 1
            return buffer
        }
    }

    /// Starts over from the server's text at `revision`, after a reconnect
    /// or an error. Edits in flight or buffered are dropped: the owner
    /// replaces its local text with the server's.
    public mutating func resync(revision: Int) {
        self.revision = revision
        state = .synchronized
    }
}
