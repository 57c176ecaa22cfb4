import NeonCore

/// The readable form of `neonsync tail`: one sentence per room event, naming
/// members by name and sections by number (from 1, like the tab keys) and
/// title. Pure: `TailProgram` adds the time of day, and the runtime writes the lines.
/// Cursor moves and acks have no line; they are only in `--json`.
public struct TailFeed: Equatable, Sendable {
    private var names: [ClientID: String] = [:]
    private var sectionTitles: [String] = []
    /// The room's document, to quote what a pointer marks.
    private var document: Document?
    /// The room's questions by number, to tell a new one from one answered
    /// or moved.
    private var questions: [Int: QuestionInfo] = [:]

    public init() {}

    /// The line for `message`, or nil when it is not worth a line.
    public mutating func describe(_ message: ServerMessage) -> String? {
        switch message.payload {
        case let .welcome(welcome):
            names = Dictionary(welcome.readers.map { ($0.id, $0.name) }, uniquingKeysWith: { _, last in last })
            questions = Dictionary((welcome.questions ?? []).map { ($0.number, $0) }, uniquingKeysWith: { _, last in last })
            learnSections(of: welcome.document)
            return summary(of: welcome)
        case let .joined(reader):
            names[reader.id] = reader.name
            return RoomLine.joined(reader)
        case let .left(reader):
            names[reader.id] = nil
            return RoomLine.left(reader)
        case let .document(published):
            if published.revises == nil { questions = [:] }
            learnSections(of: published.info)
            let sections = sectionTitles.count == 1 ? "1 section" : "\(sectionTitles.count) sections"
            let kept = published.revises == nil ? "" : "; everyone keeps their place"
            return "\(name(published.by)) published \(WatchedRoom.version(of: published))\"\(published.title)\" (\(published.format.rawValue), \(sections)\(kept))"
        case let .progress(info):
            if let place = info.slidePlace {
                let step = place.steps > 1 ? ", step \(place.step + 1) of \(place.steps)" : ""
                return "\(name(info.id)) slide \(place.slide + 1) of \(place.slides)\(step) \(section(info.section))"
            }
            let bottom = info.atBottom ? ", at the bottom" : ""
            return "\(name(info.id)) \(info.percent)% \(section(info.section))\(bottom)"
        case let .tab(info):
            let verb = info.source == .selected ? "chose" : "scrolled into"
            return "\(name(info.id)) \(verb) tab \(info.section + 1) \(title(info.section))"
        case let .follow(info):
            return info.on ? "\(name(info.id)) follows the presenter" : "\(name(info.id)) stopped following"
        case let .edit(edit):
            let (inserted, deleted) = Self.sizes(of: edit.ops)
            return "draft rev \(edit.rev) by \(name(edit.by)) (+\(inserted) −\(deleted))"
        case let .limit(info):
            return RoomLine.limit(info.level, count: info.count, limit: info.limit, by: name(info.by))
        case let .error(error):
            return "error \(error.code.rawValue): \(error.message)"
        case let .pointer(pointer):
            return RoomLine.pointer(pointer, in: document)
        case let .question(question):
            defer { questions[question.number] = question }
            return RoomLine.question(question, known: questions[question.number], in: document)
        case let .output(output):
            return RoomLine.output(output)
        case let .summon(info):
            return RoomLine.summon(info, names: info.members.map(name))
        case .cursor, .ack, .relay:
            return nil
        case let .overview(overview):
            let rooms = overview.rooms.count == 1 ? "1 room" : "\(overview.rooms.count) rooms"
            return "watching every room: \(rooms)"
        case let .room(envelope):
            guard case let .error(error) = envelope.message.payload else {
                return describe(envelope.message).map { "[\(envelope.room ?? "-")] \($0)" }
            }
            let whom = envelope.to.map { " to \(name($0))" } ?? ""
            return "error\(whom) \(error.code.rawValue): \(error.message)"
        }
    }

    private func summary(of welcome: Welcome) -> String {
        let readers = welcome.readers.filter { $0.role != .observer }
        let who = readers.isEmpty ? "no readers"
            : "readers " + readers.map { "\($0.name) (\($0.role.rawValue) \($0.percent)%)" }.joined(separator: ", ")
        let document = welcome.document.map { "document \"\($0.title)\"" } ?? "no document"
        let draft = welcome.draft
        let asked = RoomLine.questionCount(welcome.questions ?? []).map { "; \($0)" } ?? ""
        return "watching \(welcome.room): \(who); \(document); draft rev \(draft.rev), \(draft.count)/\(draft.limit) \(draft.level.rawValue)\(asked)"
    }

    private mutating func learnSections(of document: DocumentInfo?) {
        guard let document, let parsed = try? Document.parse(title: document.title, format: document.format, text: document.text) else {
            sectionTitles = []
            self.document = nil
            return
        }
        sectionTitles = parsed.sections.map(\.title)
        self.document = parsed
    }

    private func name(_ id: ClientID) -> String { names[id] ?? id.rawValue }

    private func section(_ index: Int) -> String { RoomLine.section(index, titles: sectionTitles) }

    private func title(_ index: Int) -> String {
        sectionTitles.indices.contains(index) ? "\"\(sectionTitles[index])\"" : "(untitled)"
    }

    /// Scalars inserted and deleted by an edit.
    static func sizes(of operation: TextOperation) -> (inserted: Int, deleted: Int) {
        var inserted = 0
        var deleted = 0
        for component in operation.components {
            switch component {
            case .retain: break
            case let .insert(text): inserted += text.unicodeScalars.count
            case let .delete(count): deleted += count
            }
        }
        return (inserted, deleted)
    }
}
