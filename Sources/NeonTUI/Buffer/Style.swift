/// How a cell is drawn: colours and attributes.
public struct Style: Equatable, Hashable, Sendable {
    public var fg: Color
    public var bg: Color
    public var bold: Bool
    public var dim: Bool
    public var italic: Bool
    public var underline: Bool
    public var reverse: Bool
    /// Crossed out (SGR 9): Markdown's ~~strikethrough~~.
    public var strikethrough: Bool
    /// The hyperlink the cell belongs to: an index into its buffer's
    /// `hyperlinks` plus one, or 0 for none (`Buffer.hyperlink(_:id:)`).
    /// Not an SGR attribute: the frame writer opens and closes links with
    /// OSC 8 around the cells that carry one.
    public var link: UInt16 = 0

    /// A style; everything left out is the terminal default.
    public init(fg: Color = .default, bg: Color = .default, bold: Bool = false, dim: Bool = false,
                italic: Bool = false, underline: Bool = false, reverse: Bool = false,
                strikethrough: Bool = false, link: UInt16 = 0) {
        self.fg = fg
        self.bg = bg
        self.bold = bold
        self.dim = dim
        self.italic = italic
        self.underline = underline
        self.reverse = reverse
        self.strikethrough = strikethrough
        self.link = link
    }

    /// The terminal's default look: default colours, no attributes.
    public static let plain = Style()

    /// This style with `overlay` laid on top: the overlay's colours replace
    /// these unless they are `.default`, and its attributes are added.
    public func patched(with overlay: Style) -> Style {
        Style(fg: overlay.fg == .default ? fg : overlay.fg,
              bg: overlay.bg == .default ? bg : overlay.bg,
              bold: bold || overlay.bold, dim: dim || overlay.dim, italic: italic || overlay.italic,
              underline: underline || overlay.underline, reverse: reverse || overlay.reverse,
              strikethrough: strikethrough || overlay.strikethrough, link: overlay.link != 0 ? overlay.link : link)
    }

    /// This style in the hyperlink `link` of its buffer.
    public func linked(_ link: UInt16) -> Style {
        var copy = self
        copy.link = link
        return copy
    }

    /// The style without its hyperlink: what SGR selects.
    public var unlinked: Style { linked(0) }

    /// This style with another foreground.
    public func with(fg color: Color) -> Style {
        var copy = self
        copy.fg = color
        return copy
    }

    /// This style with another background.
    public func with(bg color: Color) -> Style {
        var copy = self
        copy.bg = color
        return copy
    }

    /// Whether the style uses any colour other than the terminal's default.
    public var hasColor: Bool { fg != .default || bg != .default }
}
