import NeonCore

extension TextOperation {
    /// Where a position in the text this operation applies to ends up in the
    /// text it produces (ot.js `transformCursor`): text inserted before it
    /// shifts it, deleted text around it pulls it to the deletion's start.
    /// Text inserted exactly at the position lands after it unless
    /// `movesWithInserts`, which the author of the insert wants: their
    /// cursor follows what they type, everyone else's stays put.
    func transform(position: Int, movesWithInserts: Bool) -> Int {
        var old = 0
        var new = 0
        for component in components {
            switch component {
            case .retain(let count):
                if old + count > position { return new + position - old }
                old += count
                new += count
            case .insert(let text):
                guard old < position || movesWithInserts else { return new }
                new += text.unicodeScalars.count
            case .delete(let count):
                if old + count > position { return new }
                old += count
            }
        }
        return new + max(position - old, 0)
    }

    /// Where a cursor lands after this operation as an undo or redo: just
    /// after the last text it inserts, or where it last deletes; nil when it
    /// changes nothing.
    var landing: Int? {
        var new = 0
        var landing: Int?
        for component in components {
            switch component {
            case .retain(let count):
                new += count
            case .insert(let text):
                new += text.unicodeScalars.count
                landing = new
            case .delete:
                landing = new
            }
        }
        return landing
    }
}
