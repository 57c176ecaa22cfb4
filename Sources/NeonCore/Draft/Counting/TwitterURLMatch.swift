/// One match of twitter-text's `extractUrl` expression, in scalar offsets:
/// the preceding character, then the URL's protocol, domain, port, path and
/// query.
struct TwitterURLMatch {
    /// The character before the URL (`$2`); nil when the URL starts the text.
    var before: Unicode.Scalar?
    /// Where the URL starts (`$3`).
    var start: Int
    /// `http://` or `https://` (`$4`), empty when absent.
    var urlProtocol: Range<Int>
    /// The domain (`$5`).
    var domain: Range<Int>
    /// The path from its `/` (`$7`), nil when absent.
    var path: Range<Int>?
    /// Where the URL ends, after port, path and query.
    var end: Int
}
