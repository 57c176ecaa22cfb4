extension OptionRow {
    /// Reads `arguments` by `rows` into `target`: first every argument is
    /// matched to a row (`failing` words what does not fit the table),
    /// then, in order, each option's row stores its value and each
    /// positional argument goes to `positional`. Returns true when a row
    /// that ends the reading stopped it.
    @discardableResult
    public static func read(_ arguments: some Sequence<String>, by rows: [OptionRow], into target: inout Target,
                            failing: (OptionSpec.ParseError) -> NeonError,
                            positional: (inout Target, String) throws(NeonError) -> Void) throws(NeonError) -> Bool {
        let read: [OptionSpec.Argument]
        do {
            read = try OptionSpec.parse(arguments, by: rows.map(\.spec))
        } catch {
            throw failing(error)
        }
        for argument in read {
            switch argument {
            case let .positional(word):
                try positional(&target, word)
            case let .option(spec, text):
                guard let row = rows.first(where: { $0.spec.flag == spec.flag }) else { continue }
                try row.store(text, as: spec.flag, into: &target)
                if row.ends { return true }
            }
        }
        return false
    }
}
