import NeonLock

/// One terminal cell: a grapheme cluster and its style.
///
/// A character two columns wide lives in its left cell; the cell to its right
/// is a continuation (`isContinuation`), carries the same style, and is never
/// drawn on its own.
///
/// A cell holds no reference: its character is kept as UTF-8 in two words
/// (``Glyph``), so copying, filling and comparing cells, which a frame does
/// for every cell several times, is copying and comparing plain memory.
/// Two cells are equal when a terminal would be sent the same bytes for
/// them (not by `Character`'s canonical equivalence: two spellings of one
/// accented letter merely repaint).
public struct Cell: Equatable, Hashable, Sendable {
    /// The grapheme cluster's bytes.
    var glyph: Glyph
    public var style: Style
    /// The right half of the wide character in the cell to the left.
    public var isContinuation: Bool

    /// The grapheme cluster drawn; a space in a continuation cell.
    public var character: Character {
        get { glyph.character }
        set { glyph = Glyph(newValue) }
    }

    /// A cell showing `character` (a space by default) in `style`.
    public init(_ character: Character = " ", style: Style = .plain, isContinuation: Bool = false) {
        self.init(glyph: Glyph(character), style: style, isContinuation: isContinuation)
    }

    init(glyph: Glyph, style: Style, isContinuation: Bool = false) {
        self.glyph = glyph
        self.style = style
        self.isContinuation = isContinuation
    }

    /// A space in the plain style.
    public static let blank = Cell()
}

/// A grapheme cluster's UTF-8 in two words: up to 15 bytes in place, the
/// count in the top byte of `high`; a longer cluster (a family emoji, a
/// long ZWJ sequence) is numbered in ``LongGlyphs`` once per process and
/// `low` holds its number.
struct Glyph: Hashable, Sendable {
    private var low: UInt64
    private var high: UInt64

    private static let longMark: UInt64 = 0xFF << 56

    init(_ character: Character) {
        let utf8 = character.utf8
        guard utf8.count <= 15 else {
            low = UInt64(LongGlyphs.shared.number(of: String(character)))
            high = Self.longMark
            return
        }
        var low: UInt64 = 0
        var high = UInt64(utf8.count) << 56
        for (index, byte) in utf8.enumerated() {
            if index < 8 {
                low |= UInt64(byte) << (8 * index)
            } else {
                high |= UInt64(byte) << (8 * (index - 8))
            }
        }
        self.low = low
        self.high = high
    }

    /// One ASCII byte, without going through `Character`.
    init(ascii byte: UInt8) {
        low = UInt64(byte)
        high = 1 << 56
    }

    private var isLong: Bool { high == Self.longMark }

    /// The number of UTF-8 bytes in place (0 for a long cluster).
    private var count: Int { isLong ? 0 : Int(high >> 56) }

    /// The single byte of a one-byte cluster (ASCII), else nil.
    var asciiByte: UInt8? { high == 1 << 56 ? UInt8(truncatingIfNeeded: low) : nil }

    /// The bytes in place, in order (the words are little-endian, as on
    /// every platform Swift runs NeonSync on).
    private func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        var words = (low.littleEndian, high.littleEndian)
        return withUnsafeBytes(of: &words) { body(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
    }

    /// Appends the cluster's UTF-8 to `out`.
    func appendUTF8(to out: inout [UInt8]) {
        guard !isLong else {
            out.append(contentsOf: LongGlyphs.shared.string(numbered: Int(low)).utf8)
            return
        }
        withBytes { out.append(contentsOf: $0) }
    }

    /// Whether the cluster is one Unicode scalar.
    var isSingleScalar: Bool {
        !isLong && withBytes { bytes in bytes.count { $0 & 0xC0 != 0x80 } == 1 }
    }

    var character: Character {
        if let byte = asciiByte { return Character(Unicode.Scalar(byte)) }
        if isLong { return Character(LongGlyphs.shared.string(numbered: Int(low))) }
        return withBytes { Character(String(decoding: $0, as: UTF8.self)) }
    }
}

/// The grapheme clusters longer than 15 UTF-8 bytes seen in this process,
/// numbered: few (emoji ZWJ sequences), so kept for the process's life.
final class LongGlyphs: Sendable {
    static let shared = LongGlyphs()

    private let table = Locked<(strings: [String], numbers: [String: Int])>(([], [:]))

    func number(of string: String) -> Int {
        table.withLock { table in
            if let number = table.numbers[string] { return number }
            table.strings.append(string)
            table.numbers[string] = table.strings.count - 1
            return table.strings.count - 1
        }
    }

    func string(numbered number: Int) -> String {
        table.withLock { $0.strings[number] }
    }
}
