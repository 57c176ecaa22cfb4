/// twitter-text's TLD lists (generated into `TwitterTLDs+Lists.swift` by
/// `scripts/gen-tlds.py`), looked up the way its URL expression tries them:
/// every generic TLD in list order, then every country TLD.
enum TwitterTLDs {
    /// The TLDs as scalars, grouped by first scalar, each group in the order
    /// the expression tries them.
    static let byFirstScalar: [Unicode.Scalar: [[Unicode.Scalar]]] = {
        var table: [Unicode.Scalar: [[Unicode.Scalar]]] = [:]
        for tld in (generic + "\n" + country).split(whereSeparator: \.isWhitespace) {
            let scalars = Array(tld.unicodeScalars)
            table[scalars[0], default: []].append(scalars)
        }
        return table
    }()
}
