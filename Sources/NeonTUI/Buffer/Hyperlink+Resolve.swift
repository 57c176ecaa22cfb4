extension Hyperlink {
    /// The address a link's cells open: an address with a scheme
    /// (`https:`, `mailto:`, `file:`) as it is; a relative one (`docs/a.md`,
    /// `../b.png`, `/root.md`) against `base` (a `file://HOST/DIR/` URL:
    /// only the client that published the document from its disk knows
    /// it); nil for a relative address without a base and for a place in
    /// the document (`#usage`), which nothing outside the reader can open.
    public static func resolved(_ url: String, base: String?) -> String? {
        if hasScheme(url) { return url }
        guard !url.isEmpty, !url.hasPrefix("#"), !url.hasPrefix("//"), let base else { return nil }
        if url.hasPrefix("/") {
            // From the base's root: file://HOST + /path.
            guard let hostEnd = base.dropFirst("file://".count).firstIndex(of: "/") else { return nil }
            return String(base[..<hostEnd]) + url
        }
        var path = Substring(url)
        while path.hasPrefix("./") { path = path.dropFirst(2) }
        return base + path
    }

    /// `scheme:` as RFC 3986 writes it: a letter, then letters, digits,
    /// `+`, `-` or `.`, then a colon.
    private static func hasScheme(_ url: String) -> Bool {
        var first = true
        for byte in url.utf8 {
            switch byte {
            case UInt8(ascii: ":"): return !first
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): break
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                if first { return false }
            default: return false
            }
            first = false
        }
        return false
    }

    /// The OSC 8 id of a link to `url` in block `block`: the same on every
    /// row the link is wrapped over, so a terminal lights it up as one.
    public static func id(block: Int, url: String) -> String {
        var hash: UInt32 = 5381
        for byte in url.utf8 { hash = hash &* 33 &+ UInt32(byte) }
        return "neonsync-\(block)-\(String(hash, radix: 36))"
    }
}
