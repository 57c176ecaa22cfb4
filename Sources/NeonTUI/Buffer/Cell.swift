/// One terminal cell: a grapheme cluster and its style.
///
/// A character two columns wide lives in its left cell; the cell to its right
/// is a continuation (`isContinuation`), carries the same style, and is never
/// drawn on its own.
public struct Cell: Equatable, Hashable, Sendable {
    /// The grapheme cluster drawn; a space in a continuation cell.
    public var character: Character
    public var style: Style
    /// The right half of the wide character in the cell to the left.
    public var isContinuation: Bool

    /// A cell showing `character` (a space by default) in `style`.
    public init(_ character: Character = " ", style: Style = .plain, isContinuation: Bool = false) {
        self.character = character
        self.style = style
        self.isContinuation = isContinuation
    }

    /// A space in the plain style.
    public static let blank = Cell()
}
