/// The characters widgets draw with: box drawing and block elements, or
/// plain ASCII for terminals that cannot show them.
public struct Glyphs: Equatable, Sendable {
    /// Border corners (top-left, top-right, bottom-left, bottom-right) and
    /// the horizontal and vertical edges.
    public let topLeft, topRight, bottomLeft, bottomRight, horizontal, vertical: Character
    /// A completely filled bar cell.
    public let barFull: Character
    /// Partly filled bar cells, one to seven eighths; empty when the set has
    /// no sub-cell steps.
    public let barEighths: [Character]
    /// An empty bar cell where colour cannot show the track.
    public let barTrack: Character
    /// Spinner frames, shown in turn.
    public let spinner: [Character]
    /// The wheel's twelve ring cells, clockwise from 12 o'clock, as drawn
    /// when filled.
    public let wheel: [Character]
    /// A ring cell not filled, where colour cannot show the track.
    public let wheelTrack: Character
    /// Markers for tabs hidden to the left and right of the tab header.
    public let moreLeft, moreRight: Character
    /// The current tab's underline and the header's baseline.
    public let tabUnderline, tabBaseline: Character
    /// Presence markers: presenter, follower, observer.
    public let presenter, follower, observer: Character
    /// The back-to-top arrow.
    public let upArrow: Character
    /// Drawn after text cut short.
    public let ellipsis: Character
    /// The draft ring: empty, a quarter, a half, three quarters, full.
    public let ring: [Character]

    /// Box drawing, block elements, braille spinner and geometric shapes.
    public static let unicode = Glyphs(
        topLeft: "╭", topRight: "╮", bottomLeft: "╰", bottomRight: "╯", horizontal: "─", vertical: "│",
        barFull: "█", barEighths: ["▏", "▎", "▍", "▌", "▋", "▊", "▉"], barTrack: "░",
        spinner: ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"],
        wheel: ["▄", "▄", "▖", "▌", "▘", "▀", "▀", "▀", "▝", "▐", "▗", "▄"], wheelTrack: "·",
        moreLeft: "‹", moreRight: "›", tabUnderline: "━", tabBaseline: "─",
        presenter: "★", follower: "↳", observer: "◦", upArrow: "↑", ellipsis: "…",
        ring: ["○", "◔", "◑", "◕", "●"])

    /// Seven-bit ASCII only: `+-|` borders, `#` bars, a `-\|/` spinner.
    public static let ascii = Glyphs(
        topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+", horizontal: "-", vertical: "|",
        barFull: "#", barEighths: [], barTrack: ".",
        spinner: ["-", "\\", "|", "/"],
        wheel: ["-", "-", "\\", "|", "/", "-", "-", "-", "\\", "|", "/", "-"], wheelTrack: ".",
        moreLeft: "<", moreRight: ">", tabUnderline: "=", tabBaseline: "-",
        presenter: "*", follower: ">", observer: "o", upArrow: "^", ellipsis: "~",
        ring: [".", "-", "+", "*", "#"])
}
