import NeonCore
import NeonTUI

extension MonitorModel {
    /// The keys `?` lists.
    public static let help: [HelpOverlay.Line] = [
        HelpOverlay.Line(key: "j/k ↓/↑", action: "scroll the feed"),
        HelpOverlay.Line(key: "PgDn/PgUp", action: "scroll a page"),
        HelpOverlay.Line(key: "G/End", action: "newest events"),
        HelpOverlay.Line(key: "Tab/n →", action: "next room (every room)"),
        HelpOverlay.Line(key: "S-Tab/p ←", action: "previous room"),
        HelpOverlay.Line(key: "?", action: "this help"),
        HelpOverlay.Line(key: "q/Esc", action: "quit"),
    ]

    /// Width of a member row's name-and-bar part (PresenceList's columns).
    static let presenceWidth = 40

    /// Columns a name gets in a full member row before it swings: the row
    /// less the marker (2), the bar (11) and the percent (5).
    static let nameField = presenceWidth - 18

    /// Rows of the rooms box when watching every room: each room plus its
    /// border, at most a third of the screen; none for one room.
    var roomsHeight: Int { room == nil ? min(max(rooms.count, 1) + 2, max((rows - 2) / 3, 3)) : 0 }

    /// Rows of the readers box: every member plus its border, at most half
    /// the screen (of what the rooms box leaves).
    var readersHeight: Int { min(max(readers.count, 1) + 2, max((rows - 2 - roomsHeight) / 2, 3)) }

    /// Rows inside the events box.
    var feedHeight: Int { max(rows - 2 - roomsHeight - readersHeight - 2, 0) }

    public func view(at time: Duration, theme: Theme) -> Buffer {
        var buffer = Buffer(width: columns, height: rows, style: theme.background)
        renderTitle(into: &buffer, theme: theme)
        let roomsBox = Rect(x: 0, y: 1, width: columns, height: min(roomsHeight, max(rows - 2, 0)))
        if !roomsBox.isEmpty {
            BorderBox(title: "Rooms (\(rooms.count))", theme: theme).render(in: roomsBox, into: &buffer)
            renderRooms(in: BorderBox.inner(of: roomsBox), theme: theme, into: &buffer)
        }
        let readersBox = Rect(x: 0, y: roomsBox.maxY, width: columns,
                              height: min(readersHeight, max(rows - 1 - roomsBox.maxY, 0)))
        let whose = room == nil ? selectedRoom.map { " · \($0.name)" } ?? "" : ""
        let count = Headcount(readers)
        BorderBox(title: "Readers\(whose) (\(count.reading))\(count.watchingSuffix)", theme: theme).render(in: readersBox, into: &buffer)
        renderReaders(in: BorderBox.inner(of: readersBox), at: time, theme: theme, into: &buffer)
        let feedBox = Rect(x: 0, y: readersBox.maxY, width: columns, height: max(rows - 1 - readersBox.maxY, 0))
        let back = feed.scrollBack > 0 ? " · \(feed.scrollBack) newer below" : ""
        BorderBox(title: "Events\(back)", theme: theme).render(in: feedBox, into: &buffer)
        renderFeed(in: BorderBox.inner(of: feedBox), theme: theme, into: &buffer)
        let keys = (room == nil ? ["Tab next room"] : []) + ["j/k scroll events", "? help", "q quit"]
        StatusLine(items: keys, right: [connectionText], theme: theme)
            .render(in: Rect(x: 0, y: rows - 1, width: columns, height: 1), into: &buffer)
        if showsHelp {
            helpOverlay(theme: theme).render(in: buffer.area, into: &buffer)
        }
        return buffer
    }

    func helpOverlay(theme: Theme) -> HelpOverlay {
        HelpOverlay(lines: Self.help, title: "Monitor keys", scroll: helpScroll, theme: theme)
    }

    /// `Monitor · ROOM · "Title"` (or `Monitor · every room`) on the left;
    /// the (selected) room's draft count, level and ring on the right.
    private func renderTitle(into buffer: inout Buffer, theme: Theme) {
        let document = documentTitle.map { " · \"\($0)\"" } ?? ""
        let title = room.map { "Monitor · \($0)\(document)" } ?? "Monitor · every room"
        var titleWidth = columns
        if room != nil || selectedRoom != nil {
            let ring = DraftRing.text(for: draft, theme: theme)
            let whose = room == nil ? selectedRoom.map { "\($0.name): " } ?? "" : ""
            let label = "\(whose)draft \(draft.count)/\(draft.limit) \(draft.level.rawValue) "
            let width = DisplayWidth.of(label) + DisplayWidth.of(ring)
            if width + 2 < columns {
                let x = columns - width - 1
                buffer.write(label, x: x, y: 0, style: theme.muted)
                DraftRing(status: draft, theme: theme)
                    .render(in: Rect(x: x + DisplayWidth.of(label), y: 0, width: DisplayWidth.of(ring) + 1, height: 1),
                            into: &buffer)
                titleWidth = x - 1
            }
        }
        buffer.write(title, x: 0, y: 0, style: theme.strong, maxWidth: titleWidth, ellipsis: theme.glyphs.ellipsis)
    }

    /// One row per member: marker, swinging name, bar and percent from the
    /// presence list, then the tab and the follow state.
    private func renderReaders(in area: Rect, at time: Duration, theme: Theme, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        guard !readers.isEmpty else {
            buffer.write("nobody here yet", x: area.x + 1, y: area.y, style: theme.muted, maxWidth: area.width - 2,
                         ellipsis: theme.glyphs.ellipsis)
            return
        }
        let listWidth = min(Self.presenceWidth, area.width)
        for (index, reader) in readers.readersFirst().prefix(area.height).enumerated() {
            let y = area.y + index
            PresenceList(entries: [PresenceList.Entry(reader)], time: time, theme: theme)
                .render(in: Rect(x: area.x, y: y, width: listWidth, height: 1), into: &buffer)
            guard reader.role.isReading, area.width > listWidth + 2 else { continue }
            let title = selectedRoom?.titleSuffix(reader.section) ?? ""
            var details = "\(reader.role.rawValue) · tab \(reader.section + 1)\(title)"
            if reader.following { details += " · following" }
            if reader.atBottom { details += " · at the bottom" }
            buffer.write(details, x: area.x + listWidth + 2, y: y, style: theme.text,
                         maxWidth: area.maxX - 1 - listWidth - 2 - area.x, ellipsis: theme.glyphs.ellipsis)
        }
    }

    /// One row per room: the selection marker, the name, its readers, the
    /// draft's count and level, and its document's title. The list scrolls
    /// to keep the selected room in sight.
    private func renderRooms(in area: Rect, theme: Theme, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        guard !rooms.isEmpty else {
            buffer.write("no rooms yet", x: area.x + 1, y: area.y, style: theme.muted, maxWidth: area.width - 2,
                         ellipsis: theme.glyphs.ellipsis)
            return
        }
        let first = min(max(selected - area.height + 1, 0), max(rooms.count - area.height, 0))
        let nameWidth = min(max(rooms.map { DisplayWidth.of($0.name) }.max() ?? 0, 4), 24)
        for (offset, watched) in rooms[first..<min(first + area.height, rooms.count)].enumerated() {
            let y = area.y + offset
            let isSelected = first + offset == selected
            let marker = isSelected ? "▸ " : "  "
            buffer.write(marker + watched.name, x: area.x, y: y, style: isSelected ? theme.strong : theme.text,
                         maxWidth: min(nameWidth + 2, area.width - 1), ellipsis: theme.glyphs.ellipsis)
            let x = area.x + nameWidth + 4
            guard x < area.maxX else { continue }
            let document = watched.documentTitle.map { " · \"\($0)\"" } ?? ""
            let draft = watched.draft
            let details = "\(watched.readerCount) · draft \(draft.count)/\(draft.limit) \(draft.level.rawValue)\(document)"
            buffer.write(details, x: x, y: y, style: draft.level >= .limit ? theme.levelLimit : theme.text,
                         maxWidth: area.maxX - 1 - x, ellipsis: theme.glyphs.ellipsis)
        }
    }

    /// The newest events that fit, oldest at the top, each `mm:ss text`.
    private func renderFeed(in area: Rect, theme: Theme, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        let lines = feed.visible(height: area.height)
        let top = area.maxY - lines.count
        for (index, line) in lines.enumerated() {
            let y = top + index
            let stamp = Self.clock(line.time)
            buffer.write(stamp, x: area.x + 1, y: y, style: theme.muted, maxWidth: area.width - 1)
            let x = area.x + 2 + stamp.count
            guard x < area.maxX else { continue }
            buffer.write(line.text, x: x, y: y, style: style(of: line.kind, theme: theme), maxWidth: area.maxX - 1 - x,
                         ellipsis: theme.glyphs.ellipsis)
        }
    }

    /// The colour of a feed line of `kind`.
    public func style(of kind: MonitorFeed.Kind, theme: Theme) -> Style {
        switch kind {
        case .join: theme.accent
        case .leave: theme.muted
        case .limit(.warning): theme.levelWarning
        case .limit(.limit), .limit(.over), .error: theme.levelLimit
        case .limit(.ok): theme.levelNormal
        case .progress, .tab, .follow, .document, .info: theme.text
        }
    }

    /// Elapsed time as `mm:ss` (`h:mm:ss` from an hour on).
    public static func clock(_ time: Duration) -> String {
        let total = max(Int(time.components.seconds), 0)
        func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
        return hours > 0 ? "\(hours):\(pad(minutes)):\(pad(seconds))" : "\(pad(minutes)):\(pad(seconds))"
    }

    private var connectionText: String {
        switch connection {
        case .connecting: "connecting…"
        case .closed: "offline · reconnecting"
        case .joined: source
        }
    }
}
