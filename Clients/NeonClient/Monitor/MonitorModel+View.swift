import NeonCore
import NeonTUI

extension MonitorModel {
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

    /// The screen's boxes under the title row, top to bottom: the rooms
    /// (empty for one room), the readers and the events.
    struct Boxes {
        var rooms: Rect
        var readers: Rect
        var events: Rect
    }

    var frame: ScreenFrame { ScreenFrame(columns: columns, rows: rows) }

    var boxes: Boxes {
        let boxes = Stack.vertical([.length(roomsHeight), .length(readersHeight), .fill(1)]).split(frame.body)
        return Boxes(rooms: boxes[0], readers: boxes[1], events: boxes[2])
    }

    /// Rows inside the events box.
    var feedHeight: Int { BorderBox.inner(of: boxes.events).height }

    public func view(at time: Duration, theme: Theme) -> Buffer {
        var buffer = Buffer(width: columns, height: rows, style: theme.background)
        let frame = self.frame
        let boxes = self.boxes
        renderTitle(in: frame.title, theme: theme, into: &buffer)
        if !boxes.rooms.isEmpty {
            BorderBox(title: "Rooms (\(rooms.count))\(roomsHidden(height: BorderBox.inner(of: boxes.rooms).height))", theme: theme)
                .render(in: boxes.rooms, into: &buffer)
            renderRooms(in: BorderBox.inner(of: boxes.rooms), theme: theme, into: &buffer)
        }
        let whose = room == nil ? selectedRoom.map { " · \($0.name)" } ?? "" : ""
        let count = Headcount(readers)
        BorderBox(title: "Readers\(whose) (\(count.reading))\(count.watchingSuffix)", theme: theme).render(in: boxes.readers, into: &buffer)
        renderReaders(in: BorderBox.inner(of: boxes.readers), at: time, theme: theme, into: &buffer)
        let back = feed.scrollBack > 0 ? " · \(feed.scrollBack) newer below" : ""
        BorderBox(title: "Events\(back)", theme: theme).render(in: boxes.events, into: &buffer)
        renderFeed(in: BorderBox.inner(of: boxes.events), theme: theme, into: &buffer)
        let keys = (room == nil ? ["Tab next room"] : []) + ["j/k scroll events", "? help", "q quit"]
        StatusLine(items: keys, right: [connectionText], theme: theme).render(in: frame.status, into: &buffer)
        keyList.render(helpOverlay(theme: theme), into: &buffer)
        return buffer
    }

    /// `Monitor · ROOM · "Title"` (or `Monitor · every room`) on the left;
    /// the (selected) room's draft count, level and ring on the right.
    private func renderTitle(in row: Rect, theme: Theme, into buffer: inout Buffer) {
        let document = documentTitle.map { " · \"\($0)\"" } ?? ""
        let title = room.map { "Monitor · \($0)\(document)" } ?? "Monitor · every room"
        var titleField = row
        if room != nil || selectedRoom != nil {
            let ring = DraftRing.text(for: draft, theme: theme)
            let whose = room == nil ? selectedRoom.map { "\($0.name): " } ?? "" : ""
            let label = "\(whose)draft \(draft.count)/\(draft.limit) \(draft.level.rawValue) "
            let labelWidth = DisplayWidth.of(label)
            let ringWidth = DisplayWidth.of(ring)
            if labelWidth + ringWidth + 2 < row.width {
                let fields = Stack.horizontal([.fill(1), .length(1), .length(labelWidth), .length(ringWidth + 1)]).split(row)
                buffer.write(label, x: fields[2].x, y: row.y, style: theme.muted)
                DraftRing(status: draft, theme: theme).render(in: fields[3], into: &buffer)
                titleField = fields[0]
            }
        }
        buffer.write(theme.chrome(title), x: titleField.x, y: row.y, style: theme.strong, maxWidth: titleField.width,
                     ellipsis: theme.glyphs.ellipsis)
    }

    /// One row per member: marker, swinging name, bar and percent from the
    /// presence list, then the tab and the follow state.
    private func renderReaders(in area: Rect, at time: Duration, theme: Theme, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        guard !readers.isEmpty else {
            renderEmpty("nobody here yet", in: area, theme: theme, into: &buffer)
            return
        }
        for (index, reader) in readers.readersFirst().prefix(area.height).enumerated() {
            let fields = Stack.horizontal([.length(Self.presenceWidth), .length(2), .fill(1), .length(1)]).split(area.row(index))
            PresenceList(entries: [PresenceList.Entry(reader)], time: time, theme: theme).render(in: fields[0], into: &buffer)
            guard reader.role.isReading, !fields[2].isEmpty else { continue }
            let title = selectedRoom?.titleSuffix(reader.section) ?? ""
            var details = "\(reader.role.rawValue) · tab \(reader.section + 1)\(title)"
            if reader.following { details += " · following" }
            if reader.atBottom { details += " · at the bottom" }
            buffer.write(theme.chrome(details), x: fields[2].x, y: fields[2].y, style: theme.text, maxWidth: fields[2].width,
                         ellipsis: theme.glyphs.ellipsis)
        }
    }

    /// What an empty box says, a column in from either side.
    private func renderEmpty(_ text: String, in area: Rect, theme: Theme, into buffer: inout Buffer) {
        let line = Stack.horizontal([.length(1), .fill(1), .length(1)]).split(area.row(0))[1]
        buffer.write(text, x: line.x, y: line.y, style: theme.muted, maxWidth: line.width, ellipsis: theme.glyphs.ellipsis)
    }

    /// One row per room: the selection marker, the name, its readers, the
    /// draft's count and level, and its document's title. The list scrolls
    /// to keep the selected room in sight.
    private func renderRooms(in area: Rect, theme: Theme, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        guard !rooms.isEmpty else {
            renderEmpty("no rooms yet", in: area, theme: theme, into: &buffer)
            return
        }
        let first = roomsShown(height: area.height).lowerBound
        let nameWidth = min(max(rooms.map { DisplayWidth.of($0.name) }.max() ?? 0, 4), 24)
        let inside = Stack.horizontal([.fill(1), .length(1)]).split(area)[0]
        for (offset, watched) in rooms[first..<min(first + area.height, rooms.count)].enumerated() {
            let fields = Stack.horizontal([.length(nameWidth + 2), .length(2), .fill(1)]).split(inside.row(offset))
            let isSelected = first + offset == selected
            let marker = isSelected ? "▸ " : "  "
            buffer.write(theme.chrome(marker) + watched.name, x: fields[0].x, y: fields[0].y, style: isSelected ? theme.strong : theme.text,
                         maxWidth: fields[0].width, ellipsis: theme.glyphs.ellipsis)
            guard !fields[2].isEmpty else { continue }
            let document = watched.documentTitle.map { " · \"\($0)\"" } ?? ""
            let draft = watched.draft
            let details = "\(watched.readerCount) · draft \(draft.count)/\(draft.limit) \(draft.level.rawValue)\(document)"
            buffer.write(theme.chrome(details), x: fields[2].x, y: fields[2].y, style: draft.level >= .limit ? theme.levelLimit : theme.text,
                         maxWidth: fields[2].width, ellipsis: theme.glyphs.ellipsis)
        }
    }

    /// The rooms a list `height` rows tall shows: from the top, scrolled to
    /// keep the selected room in sight.
    func roomsShown(height: Int) -> Range<Int> {
        let first = min(max(selected - height + 1, 0), max(rooms.count - height, 0))
        return first..<min(first + max(height, 0), rooms.count)
    }

    /// What the rooms box's title adds when the list does not show every
    /// room: how many are out of sight above and below (Tab reaches them).
    func roomsHidden(height: Int) -> String {
        let shown = roomsShown(height: height)
        let above = shown.lowerBound, below = rooms.count - shown.upperBound
        switch (above, below) {
        case (0, 0): return ""
        case (0, _): return " · \(below) more below"
        case (_, 0): return " · \(above) more above"
        default: return " · \(above) above, \(below) below"
        }
    }

    /// The newest events that fit, oldest at the top, each `mm:ss text`.
    private func renderFeed(in area: Rect, theme: Theme, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        let lines = feed.visible(height: area.height)
        let shown = Stack.vertical([.fill(1), .length(lines.count)]).split(area)[1]
        for (index, line) in lines.enumerated() {
            let stamp = Self.clock(line.time)
            let fields = Stack.horizontal([.length(1), .length(stamp.count), .length(1), .fill(1), .length(1)]).split(shown.row(index))
            // A time is never cut: where it does not fit, it is left out.
            if fields[1].width >= stamp.count {
                buffer.write(stamp, x: fields[1].x, y: fields[1].y, style: theme.muted)
            }
            guard !fields[3].isEmpty else { continue }
            buffer.write(theme.chrome(line.text), x: fields[3].x, y: fields[3].y, style: style(of: line.kind, theme: theme),
                         maxWidth: fields[3].width, ellipsis: theme.glyphs.ellipsis)
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
