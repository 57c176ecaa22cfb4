/// A parsed JSON value, as much as reading a catalog needs.
enum JSONValue {
    case string(String)
    case number
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    /// The value's type in words, for error messages: "an object", "a number".
    var kindName: String {
        switch self {
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
