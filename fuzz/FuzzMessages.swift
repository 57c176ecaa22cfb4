// A libFuzzer target over the server's message handling: NeonCore's
// WireCodec decoding and the Hub reducer, exactly as the server's router
// drives them, with no transport. Built and run by scripts/fuzz.sh (not
// part of `swift build`: it is compiled together with NeonCore's sources
// and fuzz/FuzzSession.swift under -sanitize=fuzzer,address).
//
// The input is a session: newline-separated frames from three clients,
// line i from client i % 3; an empty line disconnects that client instead.
// Besides "no crash, no hang, no leak" it checks that every message the hub
// answers with encodes to JSON that decodes back to the same message
// (questions asked and answered included: the seeds ask on the example
// document, scripts/fuzz.sh).

private let clients = [ClientID("c1"), ClientID("c2"), ClientID("c3")]

func fuzzMessages(_ data: UnsafePointer<UInt8>, _ size: Int) {
    var hub = Hub(limits: RoomLimits(), maxRooms: 16)
    replaySession(UnsafeBufferPointer(start: data, count: size), clients: clients, into: &hub)
    disconnectAll(clients, from: &hub)
}
