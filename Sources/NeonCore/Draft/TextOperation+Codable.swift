/// The wire form of an operation: a JSON array whose items are a positive
/// integer (retain that many scalars), a non-empty string (insert it) or a
/// negative integer (delete that many scalars), e.g. `[3, "abc", -2, 5]`.
///
/// Decoding is strict about items and lenient about shape: it rejects a
/// non-array, items that are neither integers nor strings (floats like 1.5,
/// booleans, null, nested values), the count 0 and empty inserts (`""`), each
/// with an error naming the item's index; it accepts and merges neighbours of
/// one kind (`[1, 2]` decodes as `[3]`). Whether a number with a fraction
/// or exponent counts as an integer is up to the decoder: Foundation's
/// `JSONDecoder` reads `1.0` and `1e2` as integers and rejects `1.5`.
/// Encoding writes the normalized form, so `decode(encode(op)) == op`.
extension TextOperation: Codable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for component in components {
            switch component {
            case .retain(let count): try container.encode(count)
            case .insert(let text): try container.encode(text)
            case .delete(let count): try container.encode(-count)
            }
        }
    }

    public init(from decoder: any Decoder) throws {
        var container: any UnkeyedDecodingContainer
        do {
            container = try decoder.unkeyedContainer()
        } catch {
            throw DecodingError.typeMismatch(TextOperation.self, DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "an edit must be a JSON array such as [3, \"abc\", -2, 5]",
                underlyingError: error
            ))
        }
        var components: [Component] = []
        while !container.isAtEnd {
            let index = container.currentIndex
            let item: WireItem
            do {
                item = try container.decode(WireItem.self)
            } catch {
                throw DecodingError.typeMismatch(WireItem.self, DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "item \(index) of the edit is neither an integer nor a string; "
                        + "an edit looks like [3, \"abc\", -2, 5]",
                    underlyingError: error
                ))
            }
            switch item {
            case .text(let text):
                components.append(.insert(text))
            case .count(let count) where count >= 0:
                components.append(.retain(count))
            case .count(let count) where count == .min:
                throw Self.corrupted(.invalidComponent(index: index, problem: .tooLong), at: decoder.codingPath)
            case .count(let count):
                components.append(.delete(-count))
            }
        }
        do {
            try self.init(validating: components)
        } catch {
            throw Self.corrupted(error, at: decoder.codingPath)
        }
    }

    private static func corrupted(_ error: TextOperationError, at codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: codingPath,
            debugDescription: error.description,
            underlyingError: error
        ))
    }
}

/// One item of the wire array before it is read as a component.
private enum WireItem: Decodable {
    case count(Int)
    case text(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let count = try? container.decode(Int.self) {
            self = .count(count)
        } else {
            self = .text(try container.decode(String.self))
        }
    }
}
