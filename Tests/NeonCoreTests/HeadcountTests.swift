import Testing
@testable import NeonCore

@Suite("Headcount")
struct HeadcountTests {
    @Test("observers are counted apart from the presenter and readers, in every wording")
    func counts() {
        let members = [
            ReaderInfo(id: ClientID("a"), name: "ada", role: .presenter),
            ReaderInfo(id: ClientID("o"), name: "olga", role: .observer),
            ReaderInfo(id: ClientID("b"), name: "bob", role: .reader),
        ]
        let count = Headcount(members)
        #expect(count == Headcount(reading: 2, watching: 1))
        #expect(count.here == "2 here · 1 watching")
        #expect(count.readers == "2 readers · 1 watching")
        #expect(count.title == "Readers (2) · 1 watching")
        #expect(Headcount(members.prefix(1)).here == "1 here")
        #expect(Headcount(members.prefix(1)).readers == "1 reader")
        #expect(members.readersFirst().map(\.name) == ["ada", "bob", "olga"])
    }
}
