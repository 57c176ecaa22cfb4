/// One row of a command's option table: its flag as `--help`, the man page
/// and the shell completions show it (`spec`), and where the flag's value
/// goes in the options value `Target` that reading the command line fills.
/// One row parses, validates, helps, documents and completes its flag;
/// checks between flags come after the reading, on the filled value.
public struct OptionRow<Target>: Sendable {
    /// How the flag is written, its value's placeholder and its help.
    public let spec: OptionSpec
    /// Whether reading stops at this row: a `--help` that answers before
    /// the flags after it are read.
    public let ends: Bool
    private let storing: @Sendable (inout Target, _ flag: String, _ text: String?) throws(NeonError) -> Void

    /// A row that does with its value what `store` says, for what a key
    /// path cannot say (a value added to a set, a file read). `store` gets
    /// the flag as written and its text (nil for a switch).
    public init(_ spec: OptionSpec, ends: Bool = false,
                store: @escaping @Sendable (inout Target, _ flag: String, _ text: String?) throws(NeonError) -> Void) {
        self.spec = spec
        self.ends = ends
        storing = store
    }

    /// Stores `text`, given as `flag`, where the row says.
    public func store(_ text: String?, as flag: String, into target: inout Target) throws(NeonError) {
        try storing(&target, flag, text)
    }

    /// The same row, with `check` run first (a flag that belongs to some
    /// commands only); `check` may note the flag in the target too.
    public func checking(_ check: @escaping @Sendable (inout Target, _ flag: String) throws(NeonError) -> Void) -> OptionRow {
        let storing = self.storing
        return OptionRow(spec, ends: ends) { target, flag, text throws(NeonError) in
            try check(&target, flag)
            try storing(&target, flag, text)
        }
    }
}

extension OptionRow {
    /// A switch: given, `keyPath` becomes true.
    public static func `switch`(_ spec: OptionSpec, _ keyPath: WritableKeyPath<Target, Bool> & Sendable,
                                ends: Bool = false) -> OptionRow {
        OptionRow(spec, ends: ends) { target, _, _ in target[keyPath: keyPath] = true }
    }

    /// A flag with a value, read by `parser` into `keyPath` (the last one
    /// given wins).
    public static func value<Value>(_ spec: OptionSpec, _ keyPath: WritableKeyPath<Target, Value> & Sendable,
                                    _ parser: ValueParser<Value>) -> OptionRow {
        OptionRow(spec) { target, flag, text throws(NeonError) in
            target[keyPath: keyPath] = try parser(flag, text ?? "")
        }
    }

    /// A flag with a value, read by `parser` into an optional `keyPath`
    /// (nil until the flag is given).
    public static func optional<Value>(_ spec: OptionSpec, _ keyPath: WritableKeyPath<Target, Value?> & Sendable,
                                    _ parser: ValueParser<Value>) -> OptionRow {
        OptionRow(spec) { target, flag, text throws(NeonError) in
            target[keyPath: keyPath] = try parser(flag, text ?? "")
        }
    }

    /// A repeatable flag: each value, read by `parser`, is added to the
    /// list at `keyPath`.
    public static func each<Value>(_ spec: OptionSpec, _ keyPath: WritableKeyPath<Target, [Value]> & Sendable,
                                   _ parser: ValueParser<Value>) -> OptionRow {
        OptionRow(spec) { target, flag, text throws(NeonError) in
            target[keyPath: keyPath].append(try parser(flag, text ?? ""))
        }
    }
}
