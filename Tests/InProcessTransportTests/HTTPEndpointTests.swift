import NeonTransport
import NeonTransportCore
import Testing
import NeonTestSupport

@Suite("Plain HTTP is answered on the WebSocket port", .ownThreads)
struct HTTPEndpointTests {
    @Test("GET /healthz answers 200 ok and an unknown path answers 404")
    func healthzAndNotFound() throws {
        let hub = TestHub()
        let (server, port) = try hub.startServer()
        defer { server.stop() }

        let health = try httpRequest(port: port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(health.status == 200)
        #expect(health.body == "ok")
        #expect(health.head.lowercased().contains("content-type: text/plain; charset=utf-8"))

        let missing = try httpRequest(port: port, "GET /nope HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(missing.status == 404)
        #expect(missing.body == "not found\n")
    }

    @Test("Several requests share one keep-alive connection")
    func keepAlive() throws {
        let hub = TestHub()
        let (server, port) = try hub.startServer()
        defer { server.stop() }
        let socket = try RawSocket(port: port)
        for _ in 0..<3 {
            let health = try httpRequest(port: port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", on: socket)
            #expect(health.status == 200)
            #expect(health.body == "ok")
        }
    }

    @Test("The delegate sees the method, path and query of a request")
    func requestDetails() throws {
        final class Recorder: WebSocketServerDelegate {
            func handle(_ event: ServerEvent, in context: ServiceContext) {}
            func respond(to request: HTTPRequest, in context: ServiceContext) -> HTTPResponse {
                .text("\(request.method) \(request.path) \(request.query)", status: 201)
            }
        }
        let server = WebSocketServer(delegate: Recorder())
        try server.start()
        defer { server.stop() }
        let answer = try httpRequest(port: server.port!, "GET /metrics?format=text HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(answer.status == 201)
        #expect(answer.body == "GET /metrics format=text")
    }

    @Test("A delegate without an HTTP handler answers 404 everywhere")
    func defaultHandler() throws {
        final class Silent: WebSocketServerDelegate {
            func handle(_ event: ServerEvent, in context: ServiceContext) {}
        }
        let server = WebSocketServer(delegate: Silent())
        try server.start()
        defer { server.stop() }
        let answer = try httpRequest(port: server.port!, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(answer.status == 404)
    }
}
