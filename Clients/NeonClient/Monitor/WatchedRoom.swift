import NeonCore

/// One room as the monitor sees it: its members, document, draft counter
/// and each reader's last 10% step. `apply` turns a room message into the
/// feed lines it is worth.
public struct WatchedRoom: Equatable, Sendable {
    public let name: String
    /// Members in join order, the monitor itself left out.
    public internal(set) var presence = Presence(listsNotesScreens: true)
    /// Section titles by index, from the document or the log's tab events.
    public internal(set) var sectionTitles: [Int: String] = [:]
    public internal(set) var documentTitle: String?
    public internal(set) var draft: DraftStatus
    public internal(set) var draftRevision = 0
    /// Each reader's last 10% step (0…10), to turn progress into step events.
    public internal(set) var deciles: [ClientID: Int] = [:]
    /// The room's document, when its text came (a welcome, a `document`):
    /// pointers are named by the words they mark, as tail names them.
    var document: Document?
    /// The room's questions by number (a welcome's, then each `question`).
    public internal(set) var questions: [Int: QuestionInfo] = [:]

    /// A feed line a message is worth.
    public typealias Line = (text: String, kind: MonitorFeed.Kind)

    public init(name: String) {
        self.name = name
        draft = DraftCounter.standard.status(forCount: 0)
    }

    /// A room from an observer-of-every-room's overview.
    init(_ summary: RoomSummary) {
        self.init(name: summary.room)
        presence = Presence(readers: summary.readers, listsNotesScreens: true)
        deciles = Dictionary(readers.map { ($0.id, $0.percent / 10) }, uniquingKeysWith: { _, last in last })
        documentTitle = summary.document?.title
        for (index, title) in (summary.document?.sections ?? []).enumerated() { nameSection(index, title) }
        draft = Self.status(count: summary.draft.count, limit: summary.draft.limit)
        draftRevision = summary.draft.rev
    }

    /// Names a section (a replayed log carries titles on its tab events).
    public mutating func nameSection(_ index: Int, _ title: String) {
        if !title.isEmpty { sectionTitles[index] = title }
    }

    /// The room as a welcome to `me` shows it.
    mutating func welcomed(_ welcome: Welcome) -> Line {
        presence = Presence(readers: welcome.readers.filter { $0.id != welcome.you }, listsNotesScreens: true)
        deciles = Dictionary(readers.map { ($0.id, $0.percent / 10) }, uniquingKeysWith: { _, last in last })
        documentTitle = welcome.document?.title
        sectionTitles = [:]
        learnSections(of: welcome.document)
        draft = Self.status(count: welcome.draft.count, limit: welcome.draft.limit)
        draftRevision = welcome.draft.rev
        questions = Dictionary((welcome.questions ?? []).map { ($0.number, $0) }, uniquingKeysWith: { _, last in last })
        let asked = RoomLine.questionCount(welcome.questions ?? []).map { ", \($0)" } ?? ""
        return ("watching \(welcome.room): \(readerCount)\(asked)", .info)
    }

    /// `1 reader`, `3 readers · 1 watching`: the members who read, and the
    /// observers apart (see `Headcount`).
    var readerCount: String { presence.headcount.readers }

    /// The members, the monitor left out.
    public var readers: [ReaderInfo] { presence.readers }

    /// Applies one of the room's messages; `me` is the monitor's own id.
    mutating func apply(_ payload: ServerMessage.Payload, me: ClientID?) -> Line? {
        switch payload {
        case let .joined(reader):
            guard reader.id != me else { return nil }
            presence.joined(reader)
            deciles[reader.id] = reader.percent / 10
            return (RoomLine.joined(reader), .join)
        case let .left(reader):
            presence.left(reader.id)
            deciles[reader.id] = nil
            return (RoomLine.left(reader), .leave)
        case let .document(published):
            if published.revises == nil { questions = [:] }
            documentTitle = published.title
            learnSections(of: published.info)
            return ("\(name(published.by)) published \(Self.version(of: published))\"\(published.title)\"", .document)
        case let .progress(info):
            return progressed(info)
        case let .tab(info):
            presence.update(info.id) { $0.section = info.section }
            let verb = info.source == .selected ? "chose" : "scrolled into"
            return ("\(name(info.id)) \(verb) tab \(info.section + 1)\(titleSuffix(info.section))", .tab)
        case let .follow(info):
            presence.update(info.id) { $0.following = info.on }
            return (info.on ? "\(name(info.id)) follows the presenter" : "\(name(info.id)) stopped following", .follow)
        case let .edit(edit):
            draftRevision = edit.rev
            return nil
        case let .limit(info):
            draft = Self.status(count: info.count, limit: info.limit)
            return (RoomLine.limit(info.level, count: info.count, limit: info.limit, by: name(info.by)), .limit(info.level))
        case let .error(error):
            return ("error \(error.code.rawValue): \(error.message)", .error)
        case let .pointer(pointer):
            return (RoomLine.pointer(pointer, in: document), .follow)
        case let .question(question):
            defer { questions[question.number] = question }
            return (RoomLine.question(question, known: questions[question.number], in: document), .follow)
        case let .output(output):
            return RoomLine.output(output).map { ($0, .follow) }
        case let .summon(info):
            for id in info.members { presence.update(id) { $0.following = true } }
            return (RoomLine.summon(info, names: info.members.map(name)), .follow)
        case .welcome, .cursor, .ack, .overview, .room, .relay:
            return nil
        }
    }

    /// `version 3 of ` for a document's next version (or a later document),
    /// nothing for a room's first document.
    static func version(of published: DocumentPublished) -> String {
        guard let version = published.version, version > 1 || published.revises != nil else { return "" }
        return "version \(version) of "
    }

    /// A reader's name, or their id when they are not known.
    func name(_ id: ClientID) -> String {
        presence.name(of: id)
    }

    /// ` "Title"` for a section with a known title, else nothing.
    func titleSuffix(_ section: Int) -> String {
        sectionTitles[section].map { " \"\($0)\"" } ?? ""
    }

    /// The draft's status for a count the server reported against `limit`
    /// (levels follow from the two, docs/PROTOCOL.md).
    static func status(count: Int, limit: Int) -> DraftStatus {
        ((try? DraftCounter(limit: limit)) ?? .standard).status(forCount: count)
    }

    /// A progress message moves the reader's bar; crossing a 10% step (either
    /// way) is worth a line, like the server log's `progress` event.
    private mutating func progressed(_ info: ProgressInfo) -> Line? {
        let before = presence.member(info.id)?.slidePlace
        presence.update(info.id) {
            $0.percent = info.percent
            $0.atBottom = info.atBottom
            $0.section = info.section
            $0.slidePlace = info.slidePlace
        }
        if let place = info.slidePlace {
            deciles[info.id] = info.percent / 10
            guard place != before else { return nil }
            let step = place.steps > 1 ? ", step \(place.step + 1) of \(place.steps)" : ""
            return ("\(name(info.id)) slide \(place.slide + 1) of \(place.slides)\(step)", .progress)
        }
        let decile = info.percent / 10
        guard deciles[info.id] != decile else { return nil }
        deciles[info.id] = decile
        let bottom = info.atBottom ? ", at the bottom" : ""
        return ("\(name(info.id)) \(decile * 10)% step (\(info.percent)%, tab \(info.section + 1))\(bottom)", .progress)
    }

    private mutating func learnSections(of info: DocumentInfo?) {
        guard let info, !info.text.isEmpty,
              let parsed = try? Document.parse(title: info.title, format: info.format, text: info.text) else {
            document = nil
            return
        }
        document = parsed
        sectionTitles = Dictionary(parsed.sections.enumerated().map { ($0.offset, $0.element.title) },
                                   uniquingKeysWith: { first, _ in first })
    }
}
