/// How the terminal is asked which graphics protocol it speaks, and what
/// its answers mean (the reading of the reply is pure; the client's
/// terminal code writes the query and reads the reply).
public enum GraphicsProbe {
    /// kitty's graphics query for a 1×1 picture (answered `_Gi=31;OK` by a
    /// terminal that speaks it), XTVERSION (the terminal's name), then
    /// Primary Device Attributes, which every terminal answers (a `4` among
    /// them: sixel), so the reply is complete once it has come.
    public static let query = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\" + "\u{1B}[>0q" + "\u{1B}[c"

    /// Whether `reply` holds the Device Attributes answer that ends it.
    public static func isComplete(_ reply: [UInt8]) -> Bool {
        attributes(in: reply) != nil
    }

    /// The protocol the terminal's `reply` (and `TERM_PROGRAM`) shows:
    /// kitty's first, then iTerm2's (XTVERSION or `TERM_PROGRAM` iTerm2 or
    /// WezTerm), then sixel; nil for none.
    public static func detected(reply: [UInt8], termProgram: String?) -> GraphicsProtocol? {
        let text = String(decoding: reply, as: UTF8.self)
        if text.contains("\u{1B}_Gi=31;OK") { return .kitty }
        if text.contains("iTerm2") || termProgram == "iTerm.app" || termProgram == "WezTerm" { return .iterm2 }
        if let attributes = attributes(in: reply), attributes.contains(4) { return .sixel }
        return nil
    }

    /// The parameters of a `CSI ? … c` answer in `reply`, if there is one.
    static func attributes(in reply: [UInt8]) -> [Int]? {
        let text = String(decoding: reply, as: UTF8.self)
        guard let start = text.range(of: "\u{1B}[?") else { return nil }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "c") else { return nil }
        let body = rest[..<end]
        guard body.allSatisfy({ $0.isNumber || $0 == ";" }) else { return nil }
        return body.split(separator: ";").compactMap { Int($0) }
    }
}
