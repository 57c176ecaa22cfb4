/// Turns the bytes a terminal sends into `InputEvent`s, incrementally: a
/// sequence split across reads is decoded once its last byte arrives.
///
/// A lone ESC cannot be told from the start of a sequence until more bytes
/// come or none do; the decoder keeps it pending (`hasPending`) and the
/// client calls `flush()` after a short quiet time (~25–50 ms) to get it as
/// `.escape` (or ESC [ / ESC O as Alt-[ / Alt-O). Characters of one read are
/// grouped into grapheme clusters, so an emoji ZWJ sequence or a letter with
/// combining marks is one `.character`. Unknown or malformed sequences are
/// dropped.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []
    /// The bytes of a bracketed paste so far, while one is open.
    private var paste: [UInt8]?

    /// A CSI longer than this without a final byte is dropped as garbage.
    static let maxSequenceLength = 64
    static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    /// A decoder with nothing pending.
    public init() {}

    /// Whether bytes wait for more input that may never come: call `flush()`
    /// after a short timeout when this is true.
    public var hasPending: Bool { paste == nil && !pending.isEmpty }

    /// Decodes what `bytes` complete; an incomplete tail stays pending.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
        pending.append(contentsOf: bytes)
        var output = Output()
        var index = 0
        while index < pending.count {
            if paste != nil {
                index = consumePaste(from: index, into: &output)
                if paste != nil { break }
                continue
            }
            guard let (token, length) = Self.token(in: pending, at: index) else { break }
            index += length
            switch token {
            case .scalar(let scalar): output.text.append(scalar)
            case .event(let event): output.append(event)
            case .pasteStart: paste = []
            case .ignored: break
            }
        }
        pending.removeFirst(index)
        return output.finish()
    }

    /// Resolves pending bytes no sequence followed: a lone ESC becomes
    /// `.escape`, ESC [ and ESC O become Alt-[ and Alt-O, anything else
    /// incomplete is dropped. An open paste is kept.
    public mutating func flush() -> [InputEvent] {
        guard paste == nil, !pending.isEmpty else { return [] }
        defer { pending.removeAll() }
        guard pending[0] == 0x1B else { return [] }
        if pending.count == 1 { return [.key(.escape)] }
        if pending.count == 2, pending[1] == UInt8(ascii: "[") || pending[1] == UInt8(ascii: "O") {
            return [.key(.alt(Character(Unicode.Scalar(pending[1]))))]
        }
        return []
    }

    /// Moves paste bytes from `pending` into the open paste, closing it at
    /// ESC [201~; a tail that may begin the terminator stays pending.
    private mutating func consumePaste(from index: Int, into output: inout Output) -> Int {
        let end = Self.pasteEnd
        var scan = index
        while scan + end.count <= pending.count {
            if pending[scan] == 0x1B, pending[scan..<scan + end.count].elementsEqual(end) {
                paste?.append(contentsOf: pending[index..<scan])
                output.append(.paste(String(decoding: paste ?? [], as: UTF8.self)))
                paste = nil
                return scan + end.count
            }
            scan += 1
        }
        var keep = 0
        for length in stride(from: min(end.count - 1, pending.count - index), to: 0, by: -1)
        where pending[(pending.count - length)...].elementsEqual(end[..<length]) {
            keep = length
            break
        }
        paste?.append(contentsOf: pending[index..<pending.count - keep])
        return pending.count - keep
    }

    /// Events being collected, with printable scalars grouped into grapheme
    /// clusters before the next event.
    private struct Output {
        var events: [InputEvent] = []
        var text = String.UnicodeScalarView()

        mutating func append(_ event: InputEvent) {
            flushText()
            events.append(event)
        }

        mutating func finish() -> [InputEvent] {
            flushText()
            return events
        }

        private mutating func flushText() {
            guard !text.isEmpty else { return }
            events.append(contentsOf: String(text).map { .key(.character($0)) })
            text.removeAll()
        }
    }
}
