import NeonCore

/// `neonsync replay LOGFILE --summary`: per room, how far each reader got,
/// the reading time spent in each section, and the draft's limit events.
public struct ReplaySummary: Sendable {
    /// One room's story.
    public struct Room: Sendable {
        public var name: String
        /// Reader name → the furthest percent they reached, in join order.
        public var furthest: [(name: String, percent: Int)] { order.map { ($0, percents[$0] ?? 0) } }
        /// Section index → milliseconds readers spent there (summed over readers).
        public var sectionTime: [Int: Int64] = [:]
        public var sectionTitles: [Int: String] = [:]
        /// `HH:MM:SS.mmm level count/limit by name`, in order.
        public var limitEvents: [String] = []
        var order: [String] = []
        var percents: [String: Int] = [:]
    }

    public private(set) var rooms: [Room] = []

    /// Walks the log once. A reader is in section 0 from their join and in
    /// the section of their latest tab or progress record after that, until
    /// they leave or the log ends.
    public init(entries: [ServerLogEntry]) {
        var byName: [String: Int] = [:]
        var names: [String: String] = [:]
        var places: [String: (room: Int, section: Int, since: Int64)] = [:]
        func close(_ client: String, at time: Int64) {
            guard let place = places.removeValue(forKey: client) else { return }
            rooms[place.room].sectionTime[place.section, default: 0] += max(time - place.since, 0)
        }
        var last: Int64 = 0
        for entry in entries {
            guard let time = entry.milliseconds else { continue }
            last = max(last, time)
            guard let roomName = entry.room, let client = entry.client else { continue }
            let index = byName[roomName] ?? {
                rooms.append(Room(name: roomName))
                byName[roomName] = rooms.count - 1
                return rooms.count - 1
            }()
            let key = "\(roomName)/\(client)"
            switch entry.event {
            case "join":
                guard let name = entry.name, entry.role != .observer else { break }
                names[key] = name
                if rooms[index].percents[name] == nil {
                    rooms[index].order.append(name)
                    rooms[index].percents[name] = 0
                }
                places[key] = (index, 0, time)
            case "leave":
                reached(max(entry.percent ?? 0, entry.furthest ?? 0), by: names[key], in: index)
                close(key, at: time)
            case "progress", "tab":
                reached(entry.percent, by: names[key], in: index)
                if let title = entry.title, let section = entry.section, !title.isEmpty {
                    rooms[index].sectionTitles[section] = title
                }
                if let section = entry.section, let place = places[key], place.section != section {
                    close(key, at: time)
                    places[key] = (index, section, time)
                }
            case "limit":
                guard let level = entry.draftLevel, let count = entry.count, let limit = entry.limit else { break }
                let who = names[key] ?? client
                rooms[index].limitEvents.append("\(entry.timeOfDay) \(level.rawValue) \(count)/\(limit) by \(who)")
            default:
                break
            }
        }
        for key in places.keys { close(key, at: last) }
    }

    private mutating func reached(_ percent: Int?, by name: String?, in room: Int) {
        guard let percent, let name, rooms[room].percents[name] != nil else { return }
        rooms[room].percents[name] = max(rooms[room].percents[name] ?? 0, percent)
    }

    /// The summary as printed: one block per room.
    public var text: String {
        guard !rooms.isEmpty else { return "no room events in this log\n" }
        var out = ""
        for room in rooms {
            out += "room \(room.name)\n"
            out += "  readers (furthest read):\n"
            if room.order.isEmpty { out += "    none\n" }
            let width = room.order.map(DisplayWidth.of).max() ?? 0
            for (name, percent) in room.furthest {
                out += "    \(name)\(String(repeating: " ", count: width - DisplayWidth.of(name)))  \(percent)%\n"
            }
            out += "  time per section (reader time):\n"
            if room.sectionTime.isEmpty { out += "    none\n" }
            for (section, ms) in room.sectionTime.sorted(by: { $0.key < $1.key }) {
                let title = room.sectionTitles[section].map { " \"\($0)\"" } ?? ""
                out += "    tab \(section + 1)\(title): \(Self.seconds(ms))\n"
            }
            out += "  limit events:\n"
            if room.limitEvents.isEmpty { out += "    none\n" }
            for event in room.limitEvents { out += "    \(event)\n" }
        }
        return out
    }

    /// Milliseconds as seconds with one decimal: `12.3 s`.
    static func seconds(_ ms: Int64) -> String { "\(ms / 1000).\(ms % 1000 / 100) s" }
}
