import NeonCore
import NeonTUI

extension DraftEditorView {
    /// The footer row: the others' names on the left, each initial in the
    /// colour of their cursor, and on the right the count against the limit
    /// (`291/280`, at every level, red from the limit) and the `DraftRing`
    /// (which hides from limit + 10, leaving its negative number). During the
    /// pulse the ring takes a reversed cell on either side, a three-cell
    /// badge, as if it had grown for a moment.
    func drawFooter(in row: Rect, into buffer: inout Buffer) {
        buffer.fill(row, style: theme.background)
        let ringText = DraftRing.text(for: status, theme: theme)
        let enlarged = pulse && status.ringVisible
        let ringWidth = enlarged ? max(DisplayWidth.of(ringText) + 1, 3) : DisplayWidth.of(ringText)
        let ringX = max(row.maxX - ringWidth, row.x)
        let ringStart = enlarged ? ringX + 1 : ringX
        let ringArea = Rect(x: ringStart, y: row.y, width: row.maxX - ringStart, height: 1)
        DraftRing(status: status, pulse: pulse, theme: theme).render(in: ringArea, into: &buffer)
        if enlarged {
            let badge = buffer[ringStart, row.y].style
            buffer.set(" ", x: ringX, y: row.y, style: badge)
            buffer.set(" ", x: ringX + 2, y: row.y, style: badge)
        }
        let count = "\(status.count)/\(status.limit)"
        var namesEnd = ringX - 1
        let countX = ringX - 1 - count.count
        if countX >= row.x {
            buffer.write(count, x: countX, y: row.y, style: status.level >= .limit ? theme.levelLimit : theme.muted)
            namesEnd = countX - 1
        }
        drawNames(in: Rect(x: row.x, y: row.y, width: namesEnd - row.x, height: 1), into: &buffer)
    }

    /// The names of the others, as many as fit whole.
    private func drawNames(in area: Rect, into buffer: inout Buffer) {
        var x = area.x
        for remote in remoteCursors {
            let width = DisplayWidth.of(remote.name)
            guard width > 0 else { continue }
            guard x + width <= area.maxX else { break }
            buffer.set(remote.initial, x: x, y: area.y, style: theme.background.patched(with: remote.style(in: theme)))
            buffer.write(remote.name.dropFirst(), x: x + DisplayWidth.of(remote.initial), y: area.y, style: theme.muted)
            x += width + 1
        }
    }
}
