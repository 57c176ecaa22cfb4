import NeonCore
@testable import NeonServer
import NeonServerTestSupport
import Testing

@Suite("The welcome announces the server's limits", .ownThreads)
struct WelcomeLimitsTests {
    @Test("every welcome carries --max-message, --max-document and --max-draft as the server runs with them")
    func announced() throws {
        var limits = RoomLimits()
        limits.maxDocumentBytes = 1024
        limits.maxDraftScalars = 500
        let server = try InProcessServer(.init(transport: .init(maxMessageSize: 4096), limits: limits))
        let (_, welcome) = try server.join("r", as: "ada")
        #expect(welcome.limits == ServerLimits(message: 4096, document: 1024, draft: 500))
        let json = String(decoding: WireCodec().encode(ServerMessage(seq: 1, .welcome(welcome))), as: UTF8.self)
        #expect(json.contains(#""limits":{"#) && json.contains(#""message":4096"#) && json.contains(#""draft":500"#), "\(json)")
    }
}
