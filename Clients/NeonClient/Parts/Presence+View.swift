import NeonCore
import NeonTUI

extension Presence {
    /// The presence panel: a box titled with the headcount around the
    /// members, readers first, this terminal marked.
    func renderPanel(in area: Rect, at time: Duration, theme: Theme, into buffer: inout Buffer) {
        BorderBox(title: headcount.title, theme: theme).render(in: area, into: &buffer)
        let entries = readers.readersFirst().map { PresenceList.Entry($0, isSelf: $0.id == me) }
        PresenceList(entries: entries, time: time, theme: theme).render(in: BorderBox.inner(of: area), into: &buffer)
    }
}
