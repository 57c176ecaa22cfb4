import NeonClient

/// What the load generators look for in the server's messages, made once:
/// each is the bytes ``JSONScan`` matches (`"type":"welcome"`, `"id":"`…).
enum BenchWire {
    static let progress = JSONScan.type("progress")
    static let welcome = JSONScan.type("welcome")
    static let document = JSONScan.type("document")
    static let follow = JSONScan.type("follow")
    static let joined = JSONScan.type("joined")
    static let edit = JSONScan.type("edit")
    static let error = JSONScan.type("error")
    static let idKey = JSONScan.key("id", quoted: true)
    static let youKey = JSONScan.key("you", quoted: true)
    static let blockKey = JSONScan.key("block", quoted: false)
    static let offsetKey = JSONScan.key("offset", quoted: false)
    static let keyKey = JSONScan.key("key", quoted: true)
}
