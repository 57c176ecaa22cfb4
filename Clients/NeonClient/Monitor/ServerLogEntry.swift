import Foundation
import NeonCore

/// One line of a `neonsyncd` JSON log, read through NeonCore's
/// `LoggedLine` (which types each field by the event's `LogEvent`
/// definition), with the fields the monitor and the replay summary use.
public struct ServerLogEntry: Equatable, Sendable {
    public var ts: String
    public var event: String
    public var room: String?
    public var client: String?
    public var name: String?
    public var role: Role?
    public var title: String?
    public var format: DocumentFormat?
    public var percent: Int?
    /// A `leave` line's furthest percent.
    public var furthest: Int?
    public var atBottom: Bool?
    public var section: Int?
    public var source: TabSource?
    public var on: Bool?
    public var draftLevel: LimitLevel?
    public var count: Int?
    public var limit: Int?
    public var code: String?
    public var message: String?
    /// A document's version, and the version a new version follows.
    public var version: Int?
    public var revises: Int?
    /// A `slide` line's place in the deck.
    public var slidePlace: SlidePlace?
    /// A `question` line's question (its text only with `--log-content`).
    public var question: QuestionInfo?

    public init(_ line: LoggedLine) {
        ts = line.ts
        event = line.event
        room = line.room
        client = line.client
        name = line.string("name")
        role = line.string("role").flatMap(Role.init(rawValue:))
        title = line.string("title")
        format = line.string("format").flatMap(DocumentFormat.init(rawValue:))
        percent = line.int("percent")
        furthest = line.int("furthest")
        atBottom = line.bool("atBottom")
        section = line.int("section")
        source = line.string("source").flatMap(TabSource.init(rawValue:))
        on = line.bool("on")
        draftLevel = line.string("draftLevel").flatMap(LimitLevel.init(rawValue:))
        count = line.int("count")
        limit = line.int("limit")
        code = line.string("code")
        message = line.string("message")
        version = line.int("version")
        revises = line.int("revises")
        if line.event == LogEvent.slide.name, let slide = line.int("slide"), let slides = line.int("slides"),
           let step = line.int("step"), let steps = line.int("steps") {
            slidePlace = SlidePlace(slide: slide, slides: slides, step: step, steps: steps)
        }
        if line.event == LogEvent.question.name, let number = line.int("number"), let name, let block = line.int("block"),
           let offset = line.int("offset"), let length = line.int("length"), let answered = line.bool("answered") {
            question = QuestionInfo(number: number, by: ClientID(line.client ?? "?"), name: name,
                                    text: line.string("text") ?? "(text not logged)", anchor: Anchor(block: block, offset: offset),
                                    length: length, answered: answered, answeredBy: line.string("answeredBy"))
        }
    }

    /// Milliseconds since 1970 of `ts`, nil when it is not RFC 3339 UTC
    /// (`2026-11-29T23:14:20.041Z`).
    public var milliseconds: Int64? { Self.milliseconds(of: ts) }

    /// The time of day of `ts`, `HH:MM:SS.mmm`.
    public var timeOfDay: String {
        guard let t = ts.firstIndex(of: "T") else { return ts }
        return String(ts[ts.index(after: t)...].prefix { $0 != "Z" })
    }

    /// Reads every line of a log; a line that is not a log record is an
    /// error naming the file and the line.
    public static func parse(_ text: String, file: String) throws(NeonError) -> [ServerLogEntry] {
        var entries: [ServerLogEntry] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            guard let logged = LoggedLine(json: trimmed), case let entry = ServerLogEntry(logged),
                  entry.milliseconds != nil else {
                throw NeonError.usage("\(file) line \(index + 1) is not a neonsyncd log record (one JSON object with ts, level and event; see docs/LOGS.md)")
            }
            entries.append(entry)
        }
        return entries
    }

    static func milliseconds(of ts: String) -> Int64? {
        let digits = ts.split(whereSeparator: { "-T:.Z".contains($0) }).map { Int64($0) }
        guard ts.hasSuffix("Z"), digits.count == 7, digits.allSatisfy({ $0 != nil }) else { return nil }
        let v = digits.map { $0! }
        let (year, month, day) = (v[0], v[1], v[2])
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
        return ((days * 24 + v[3]) * 60 + v[4]) * 60_000 + v[5] * 1000 + v[6]
    }
}

