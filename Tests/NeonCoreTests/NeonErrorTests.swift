import NeonCore
import Testing

@Suite("NeonError, the one shape of an error a person reads")
struct NeonErrorTests {
    @Test("places go before the sentence, outermost first; advice after it; the status rides along")
    func shape() {
        let error = NeonError.usage("entry 2 of 2 is empty")
            .at("--server ws://a/,")
            .advising("separate the URLs with single commas")
        #expect(error.description == "--server ws://a/,: entry 2 of 2 is empty; separate the URLs with single commas")
        #expect(error.places == ["--server ws://a/,"])
        #expect(error.exitStatus == 2)
        let outer = error.at("neonsync bench")
        #expect(outer.places == ["neonsync bench", "--server ws://a/,"])
        #expect(outer.description.hasPrefix("neonsync bench: --server ws://a/,: entry 2 of 2 is empty;"))
    }

    @Test("another error becomes its sentence; a NeonError stays whole, status and places included")
    func bridging() {
        let wire = ProtocolError(.invalidRoom, "the room name is empty")
        #expect(NeonError(wire).sentence == wire.description)
        #expect(NeonError(wire).exitStatus == 1)
        let whole = NeonError("x", exitStatus: 3).at("--token-file t")
        #expect(NeonError(whole as any Error) == whole)
        #expect(NeonError(whole).exiting(with: 2).exitStatus == 2)
        #expect(NeonError(whole).exiting(with: 2).description == "--token-file t: x")
    }

    @Test("advice given twice is said in the order it was given")
    func advice() {
        let error = NeonError("cannot reach Redis").advising("start redis-server").advising("or check --redis")
        #expect(error.description == "cannot reach Redis; start redis-server; or check --redis")
    }
}
