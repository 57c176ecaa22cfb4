import Foundation

/// JSON text frames ⇄ messages. Decoding never throws: a bad frame becomes a
/// `ProtocolError` whose message names the field and what it must be.
public struct WireCodec: Sendable {
    public init() {}

    /// Decodes one client frame.
    public func decodeClient(_ bytes: some Collection<UInt8>) -> Result<ClientMessage, ProtocolError> {
        let data = Data(bytes)
        do {
            return .success(try JSONDecoder().decode(ClientMessage.self, from: data))
        } catch let error as DecodingError {
            return .failure(Self.explain(error, in: data))
        } catch {
            return .failure(ProtocolError(.invalidJSON, "the frame could not be read as JSON: \(error)"))
        }
    }

    /// Encodes a message as the bytes of one text frame.
    public func encode(_ message: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(message))
        } catch {
            preconditionFailure("wire messages always encode: \(error)")
        }
    }

    /// Decodes an operation stored in its ot.js wire form.
    public func decodeOperation(_ json: String) throws -> TextOperation {
        try JSONDecoder().decode(TextOperation.self, from: Data(json.utf8))
    }

    /// Decodes one server frame (clients and tests).
    public func decodeServer(_ bytes: some Collection<UInt8>) throws -> ServerMessage {
        try JSONDecoder().decode(ServerMessage.self, from: Data(bytes))
    }
}

extension WireCodec {
    private struct Envelope: Decodable { let type: String? }

    private static let expected: [String: String] = [
        "room": "a string", "name": "a string", "title": "a string", "text": "a string",
        "role": "one of \"reader\", \"presenter\", \"observer\"",
        "format": "one of \"markdown\", \"text\", \"catalog\"",
        "profile": "one of \"graphemes\", \"twitter\", \"mastodon\", \"bluesky\"",
        "top": "a whole number of rows", "viewport": "a whole number of rows",
        "content": "a whole number of rows", "section": "a whole number (a section index)",
        "rev": "a whole number (the draft revision the edit is based on)",
        "anchor": "an object {\"block\": n, \"offset\": n}",
        "block": "a whole number", "offset": "a whole number",
        "on": "true or false",
        "draftRev": "a whole number (the draft revision this client has)",
        "key": "a string that identifies this edit",
        "token": "a string (a room token from `neonsyncd token`)",
        "position": "a whole number of characters (Unicode scalars) into the draft",
        "data": "a string (the message to relay to the room)",
        "length": "a whole number of characters (grapheme clusters) from the anchor",
        "who": "one of \"everyone\", \"presenter\"",
        "revises": "a whole number (the version of the room's document this one follows)",
        "step": "a whole number (the slide's step, from 0)",
        "question": "a whole number (the number of the room's question)",
        "state": "one of \"running\", \"exited\", \"timeout\", \"truncated\", \"failed\"",
        "exit": "a whole number (the snippet's exit status)",
        "ops": "a list of retain counts (positive), insert strings and delete counts (negative)",
    ]

    static func explain(_ error: DecodingError, in data: Data) -> ProtocolError {
        let type = (try? JSONDecoder().decode(Envelope.self, from: data))?.type
        let what = type.map { "\"\($0)\"" } ?? "the message"
        switch error {
        case let .dataCorrupted(context) where context.codingPath.isEmpty:
            if let field = fractionalIntegerField(in: data) {
                return ProtocolError(.invalidMessage,
                    "\"\(field)\" in \(what) must be \(expectation(for: field.split(separator: ".").last.map(String.init)))")
            }
            return ProtocolError(.invalidJSON,
                "the frame is not valid JSON; send one UTF-8 JSON object per text frame")
        case let .typeMismatch(_, context) where context.codingPath.isEmpty:
            return ProtocolError(.invalidMessage,
                "a message must be a JSON object with a string field \"type\"")
        case let .keyNotFound(key, context):
            let field = path(context.codingPath + [key])
            if field == "type" {
                return ProtocolError(.invalidMessage,
                    "the message has no \"type\"; every message needs a string field \"type\" such as \"hello\"")
            }
            return ProtocolError(.invalidMessage,
                "\(what) needs a field \"\(field)\": \(expectation(for: key.stringValue))")
        case let .valueNotFound(_, context):
            let field = path(context.codingPath)
            return ProtocolError(.invalidMessage,
                "\"\(field)\" in \(what) is null; it must be \(expectation(for: context.codingPath.last?.stringValue))")
        case let .typeMismatch(_, context), let .dataCorrupted(context):
            let field = path(context.codingPath)
            if field == "type" {
                guard let type else {
                    return ProtocolError(.invalidMessage, "\"type\" must be a string such as \"hello\"")
                }
                return ProtocolError(.unknownType,
                    "unknown message type \"\(type)\"; the types are \(ClientMessage.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let top = context.codingPath.first?.stringValue
            if top == "ops" {
                return ProtocolError(.invalidMessage,
                    "\"\(field)\" in \(what) is not a valid edit item (\(context.debugDescription)); ops must be \(expectation(for: "ops"))")
            }
            return ProtocolError(.invalidMessage,
                "\"\(field)\" in \(what) must be \(expectation(for: context.codingPath.last?.stringValue))")
        @unknown default:
            return ProtocolError(.invalidMessage, "\(what) could not be read: \(error)")
        }
    }

    /// Foundation reports a fractional number for an integer field as
    /// invalid JSON; find the field so the answer can name it.
    private static func fractionalIntegerField(in data: Data) -> String? {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        func fractional(_ value: Any?) -> Bool {
            guard let number = value as? NSNumber, !(value is Bool) else { return false }
            return number.doubleValue != number.doubleValue.rounded(.towardZero)
        }
        for key in ["top", "viewport", "content", "section", "rev", "position", "draftRev", "length", "revises", "step", "question", "block", "exit"] where fractional(object[key]) {
            return key
        }
        if let anchor = object["anchor"] as? [String: Any] {
            for key in ["block", "offset"] where fractional(anchor[key]) { return "anchor.\(key)" }
        }
        return nil
    }

    private static func expectation(for key: String?) -> String {
        key.flatMap { expected[$0] } ?? "of the documented type"
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        var out = ""
        for key in keys {
            if let index = key.intValue {
                out += "[\(index)]"
            } else {
                out += out.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return out
    }
}
