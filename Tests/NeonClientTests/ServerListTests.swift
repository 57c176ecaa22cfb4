import NeonCore
import NeonClient
import NeonTransport
import Testing

/// `--server URL1,URL2,…`: parsing and the failover order (neonsync-bench's
/// spread over a list is in NeonLoadTests).
@Suite("server lists")
struct ServerListTests {
    func parse(_ text: String) throws(NeonError) -> ServerList<WebSocketURL> {
        try ServerList.parse(text) { entry in try WebSocketURL(parsing: entry) }
    }

    func problem(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("one URL is a list of one that never moves, and a bad one keeps today's sentence")
    func single() throws {
        var list = try parse("ws://127.0.0.1:7681/")
        #expect(list.all == [WebSocketURL(host: "127.0.0.1", port: 7681)])
        #expect(!list.isFailover)
        list.advance()
        list.advance()
        #expect(list.current == WebSocketURL(host: "127.0.0.1", port: 7681))
        #expect(problem("http://host/") == #"--server http://host/: invalid WebSocket URL "http://host/": it must start with ws://, wss:// or unix:"#)
        #expect(problem("") == #"--server : invalid WebSocket URL "": it must start with ws://, wss:// or unix:"#)
    }

    @Test("a comma-separated list keeps its order, with ws:// and wss:// entries checked one by one")
    func list() throws {
        let list = try parse("ws://a.example:7681/,wss://b.example/sync,ws://[::1]:9000/")
        #expect(list.all == [WebSocketURL(host: "a.example", port: 7681),
                             WebSocketURL(isSecure: true, host: "b.example", port: 443, path: "/sync"),
                             WebSocketURL(host: "::1", port: 9000)])
        #expect(list.count == 3 && list.isFailover)
        #expect(list.current == list.all[0])
    }

    @Test("a failover list may mix unix:PATH entries with ws:// ones")
    func unixEntries() throws {
        let list = try parse("ws://a:1/,unix:/run/neonsync.sock,unix:relative.sock")
        #expect(list.all == [WebSocketURL(host: "a", port: 1), WebSocketURL(unixSocket: "/run/neonsync.sock"),
                             WebSocketURL(unixSocket: "relative.sock")])
        #expect(problem("ws://a:1/,unix:")?.contains(#"entry 2 of 2 is not a server URL: invalid WebSocket URL "unix:": the socket path is missing"#) == true)
    }

    @Test("a bad entry of a list is named by its place, with the parser's reason and what to write")
    func badEntry() {
        #expect(problem("ws://a:1/,http://b/") ==
            #"--server ws://a:1/,http://b/: entry 2 of 2 is not a server URL: invalid WebSocket URL "http://b/": it must start with ws://, wss:// or unix:; write each entry as ws://HOST:PORT/, wss://HOST:PORT/ or unix:PATH, separated by commas without spaces, e.g. --server ws://sync-a.example:7681/,ws://sync-b.example:7681/"#)
        #expect(problem("ws://a:99999/,ws://b/")?.contains(#"entry 1 of 2 is not a server URL: invalid WebSocket URL "ws://a:99999/": the port must be a number from 1 to 65535"#) == true)
        #expect(problem("ws://a/, ws://b/")?.contains(#"entry 2 of 2 is not a server URL: invalid WebSocket URL " ws://b/""#) == true)
    }

    @Test("empty entries (a doubled, leading or trailing comma) are refused with the fix")
    func emptyEntries() {
        let fix = "is empty; separate the server URLs with single commas and no comma at either end, e.g. --server ws://sync-a.example:7681/,ws://sync-b.example:7681/"
        #expect(problem("ws://a/,,ws://b/") == "--server ws://a/,,ws://b/: entry 2 of 3 \(fix)")
        #expect(problem("ws://a/,") == "--server ws://a/,: entry 2 of 2 \(fix)")
        #expect(problem(",ws://a/") == "--server ,ws://a/: entry 1 of 2 \(fix)")
        #expect(problem(",") == "--server ,: entry 1 of 2 \(fix)")
    }

    @Test("advance moves to the next server after each loss and wraps around after the last")
    func rotation() {
        var list = ServerList("A", ["B", "C"])
        var tried: [String] = [list.current]
        for _ in 0..<6 {
            #expect(list.next == list.all[(list.index + 1) % 3])
            list.advance()
            tried.append(list.current)
        }
        #expect(tried == ["A", "B", "C", "A", "B", "C", "A"])
    }
}
