import NeonCore

extension MonitorModel {
    /// Applies a room message: the live monitor gets these from the server,
    /// a replay from `LogReplay`. Every change worth seeing adds a feed line.
    public mutating func receive(_ message: ServerMessage, at time: Duration) -> [ClientCommand] {
        switch message.payload {
        case let .welcome(welcome):
            welcomed(welcome, at: time)
        case let .joined(reader):
            guard reader.id != me else { break }
            readers.removeAll { $0.id == reader.id }
            readers.append(reader)
            deciles[reader.id] = reader.percent / 10
            feed.append("\(reader.name) joined as \(reader.role.rawValue)", kind: .join, at: time)
        case let .left(reader):
            readers.removeAll { $0.id == reader.id }
            deciles[reader.id] = nil
            let text = reader.role == .observer ? "\(reader.name) left" : "\(reader.name) left at \(reader.percent)%"
            feed.append(text, kind: .leave, at: time)
        case let .document(published):
            documentTitle = published.title
            learnSections(of: published.info)
            feed.append("\(name(published.by)) published \"\(published.title)\"", kind: .document, at: time)
        case let .progress(info):
            progressed(info, at: time)
        case let .tab(info):
            update(info.id) { $0.section = info.section }
            let verb = info.source == .selected ? "chose" : "scrolled into"
            feed.append("\(name(info.id)) \(verb) tab \(info.section + 1)\(titleSuffix(info.section))", kind: .tab, at: time)
        case let .follow(info):
            update(info.id) { $0.following = info.on }
            feed.append(info.on ? "\(name(info.id)) follows the presenter" : "\(name(info.id)) stopped following",
                        kind: .follow, at: time)
        case let .edit(edit):
            draftRevision = edit.rev
        case let .limit(info):
            draft = Self.status(count: info.count, limit: info.limit)
            feed.append("limit \(info.level.rawValue) \(info.count)/\(info.limit) by \(name(info.by))",
                        kind: .limit(info.level), at: time)
        case let .error(error):
            feed.append("error \(error.code.rawValue): \(error.message)", kind: .error, at: time)
        case .cursor, .ack:
            break
        }
        return []
    }

    /// A reader's name, or their id when they are not known.
    func name(_ id: ClientID) -> String {
        readers.first { $0.id == id }?.name ?? id.rawValue
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

    private mutating func welcomed(_ welcome: Welcome, at time: Duration) {
        connection = .joined
        me = welcome.you
        readers = welcome.readers.filter { $0.id != welcome.you }
        deciles = Dictionary(readers.map { ($0.id, $0.percent / 10) }, uniquingKeysWith: { _, last in last })
        documentTitle = welcome.document?.title
        sectionTitles = [:]
        learnSections(of: welcome.document)
        draft = Self.status(count: welcome.draft.count, limit: welcome.draft.limit)
        draftRevision = welcome.draft.rev
        let who = readers.filter { $0.role != .observer }.count
        feed.append("watching \(welcome.room): \(who == 1 ? "1 reader" : "\(who) readers")", kind: .info, at: time)
    }

    /// A progress message moves the reader's bar; crossing a 10% step (either
    /// way) adds a feed line, like the server log's `progress` event.
    private mutating func progressed(_ info: ProgressInfo, at time: Duration) {
        update(info.id) {
            $0.percent = info.percent
            $0.atBottom = info.atBottom
            $0.section = info.section
        }
        let decile = info.percent / 10
        guard deciles[info.id] != decile else { return }
        deciles[info.id] = decile
        let bottom = info.atBottom ? ", at the bottom" : ""
        feed.append("\(name(info.id)) \(decile * 10)% step (\(info.percent)%, tab \(info.section + 1))\(bottom)",
                    kind: .progress, at: time)
    }

    private mutating func update(_ id: ClientID, _ change: (inout ReaderInfo) -> Void) {
        guard let index = readers.firstIndex(where: { $0.id == id }) else { return }
        change(&readers[index])
    }

    private mutating func learnSections(of document: DocumentInfo?) {
        guard let document, !document.text.isEmpty,
              let parsed = try? Document.parse(title: document.title, format: document.format, text: document.text) else { return }
        sectionTitles = Dictionary(parsed.sections.enumerated().map { ($0.offset, $0.element.title) },
                                   uniquingKeysWith: { first, _ in first })
    }
}
