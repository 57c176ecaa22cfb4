import NeonCore
import NeonTUI

/// The reader's tab header: the sections' titles and their widths,
/// measured once per document; the scroll-spy that says which section the
/// reader is in (and holds a chosen tab, as the server does); and how far
/// the header is scrolled to keep the current tab in sight. Which section
/// is current is the reader's to say (a follower shows its presenter's).
public struct SectionTabs: Sendable {
    /// The widest a title is drawn before it is cut or swings.
    static let maxTitleWidth = 24

    public internal(set) var spy = ScrollSpy()
    /// How many columns the header is scrolled left.
    public internal(set) var offset = 0
    public internal(set) var titles: [String] = []
    var widths: [Int] = []

    init() {}

    /// A new document: its sections, from the first, with nothing chosen.
    mutating func reset(for document: Document?) {
        spy.reset()
        offset = 0
        titles = document?.sections.map(\.title) ?? []
        widths = TabHeader.titleWidths(titles, maxTitleWidth: Self.maxTitleWidth)
    }

    /// A new version of the document: its titles; the spy, which sees the
    /// reader's place again at once, is kept.
    mutating func retitle(for document: Document) {
        titles = document.sections.map(\.title)
        widths = TabHeader.titleWidths(titles, maxTitleWidth: Self.maxTitleWidth)
    }

    /// The reader chose `section`: the spy holds it until `until`.
    mutating func choose(_ section: Int, at time: Duration, holdingUntil until: Duration) {
        spy.select(section, at: time, until: until)
    }

    /// The spy sees the reader at `place`; true when that changed it.
    mutating func observe(_ place: SpyPlace, at time: Duration) -> Bool {
        let before = spy
        spy.observe(place, at: time)
        return spy != before
    }

    /// The titles' fields on a header `width` columns wide: each title's
    /// width, at most `maxTitleWidth` and never wider than the header's
    /// strip.
    func fields(width: Int) -> [Int] {
        TabHeader.fieldWidths(widths, width: width)
    }

    /// The section whose title is drawn at `column` of a header `width`
    /// columns wide.
    func section(atColumn column: Int, width: Int) -> Int? {
        let fields = fields(width: width)
        let starts = TabStrip.starts(widths: fields, spacing: TabHeader.spacing)
        let marker = width >= 3 ? 1 : 0
        let x = column - marker + offset
        return starts.indices.first { x >= starts[$0] && x < starts[$0] + fields[$0] }
    }

    /// Scrolls the header so that `current` is in sight.
    mutating func settle(current: Int, width: Int) {
        offset = TabStrip.scrollOffset(widths: fields(width: width), spacing: TabHeader.spacing, current: current,
                                       viewWidth: TabHeader.stripWidth(forWidth: width), previous: offset)
    }

    /// Scrolls the header back to its first title (no document to show).
    mutating func scrollToStart() {
        offset = 0
    }

    /// How the current tab's title swings when wider than its field (it
    /// slides to show its end and back); nil when there is no such tab.
    /// Other titles too wide for their fields end in "…".
    func motion(current: Int, width: Int) -> SwingMotion? {
        let fields = fields(width: width)
        guard titles.indices.contains(current), fields.count == titles.count else { return nil }
        return TabHeader.titleMotion(titles[current], fieldWidth: fields[current])
    }

    /// Draws the header into `area` with `current` underlined, at `time`'s
    /// swing.
    func render(in area: Rect, current: Int, at time: Duration, theme: Theme, into buffer: inout Buffer) {
        let swing = motion(current: current, width: area.width)?.offset(at: time) ?? 0
        TabHeader(titles: titles, current: current, offset: offset, maxTitleWidth: Self.maxTitleWidth,
                  currentTitleOffset: swing, widths: fields(width: area.width), theme: theme)
            .render(in: area, into: &buffer)
    }
}
