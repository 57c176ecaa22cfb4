/// How the text given to a flag becomes the flag's value. It is handed the
/// flag as written, so that a bad value is refused with a usage sentence
/// that names the flag and says what it allows.
public struct ValueParser<Value>: Sendable {
    private let parse: @Sendable (_ flag: String, _ text: String) throws(NeonError) -> Value

    public init(_ parse: @escaping @Sendable (_ flag: String, _ text: String) throws(NeonError) -> Value) {
        self.parse = parse
    }

    /// The value `lookup` finds for the text, or the usage error
    /// `otherwise` words (from the flag and the text) when it finds none.
    public init(_ lookup: @escaping @Sendable (String) -> Value?,
                otherwise: @escaping @Sendable (_ flag: String, _ text: String) -> String) {
        parse = { flag, text throws(NeonError) in
            guard let value = lookup(text) else { throw NeonError.usage(otherwise(flag, text)) }
            return value
        }
    }

    /// The value of `text` given to `flag`.
    public func callAsFunction(_ flag: String, _ text: String) throws(NeonError) -> Value {
        try parse(flag, text)
    }

    /// The same parser, its value turned into another by `transform`.
    public func map<Other>(_ transform: @escaping @Sendable (Value) -> Other) -> ValueParser<Other> {
        ValueParser<Other> { flag, text throws(NeonError) in transform(try self(flag, text)) }
    }
}

extension ValueParser where Value == String {
    /// The text as it was given.
    public static var text: ValueParser<String> { ValueParser { _, text in text } }
}

extension ValueParser where Value == Int {
    /// A whole number in `range`; otherwise `--port 70000 is not a whole
    /// number in 0…65535`.
    public static func wholeNumber(in range: ClosedRange<Int>) -> ValueParser<Int> {
        ValueParser({ Int($0).flatMap { range.contains($0) ? $0 : nil } }, otherwise: { flag, text in
            "\(flag) \(text) is not a whole number in \(range.lowerBound)…\(range.upperBound)"
        })
    }
}
