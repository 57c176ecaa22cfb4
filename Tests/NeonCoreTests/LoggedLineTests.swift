import Testing
@testable import NeonCore

@Suite("Log lines read back through LogEvent")
struct LoggedLineTests {
    @Test("fields are typed by the event's definition; a field of another type or an unknown one reads as absent")
    func typed() throws {
        let line = try #require(LoggedLine(json: #"{"ts":"2026-11-29T21:41:54.046Z","level":"info","event":"leave","room":"r","client":"c1-2","name":"ada","role":"reader","percent":"40","members":2,"extra":1}"#))
        #expect(line.event == "leave" && line.level == .info && line.room == "r" && line.client == "c1-2")
        #expect(line.string("name") == "ada" && line.int("members") == 2)
        #expect(line.int("percent") == nil, "a string where the definition says int")
        #expect(line.values["extra"] == nil)
        #expect(line.definition == .leave)
    }

    @Test("booleans are not integers, an unknown event keeps only the common fields, a non-record is nil")
    func edges() throws {
        let follow = try #require(LoggedLine(json: #"{"ts":"2026-11-29T21:41:54.046Z","level":"info","event":"follow","room":"r","client":"c1","on":1}"#))
        #expect(follow.bool("on") == nil)
        let unknown = try #require(LoggedLine(json: #"{"ts":"2026-11-29T21:41:54.046Z","level":"warn","event":"teleport","to":"mars"}"#))
        #expect(unknown.definition == nil && unknown.values.isEmpty)
        #expect(LoggedLine(json: "not json") == nil)
        #expect(LoggedLine(json: #"{"ts":"x","level":"loud","event":"stop"}"#) == nil)
    }

    @Test("every event's name is unique and every record the reducer writes is of a defined event")
    func definitions() {
        #expect(Set(LogEvent.all.map(\.name)).count == LogEvent.all.count)
        var hub = Hub()
        let out = hub.apply(.received(ClientID("c1-1"), .hello(room: "r", name: "ada", role: .reader)), at: .zero)
        let records = out.compactMap { if case let .log(record) = $0 { record } else { nil } }
        #expect(!records.isEmpty && records.allSatisfy { LogEvent.named($0.event) != nil })
    }
}
