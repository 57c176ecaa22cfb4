import NeonCore

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

/// The document a load generator publishes: `sections` sections of three
/// paragraphs, each `paragraph(p, section)`; and its number of blocks.
func benchDocument(title: String, sections: Int, paragraph: (Int, Int) -> String) -> (info: DocumentInfo, blocks: Int) {
    var text = ""
    for section in 1...sections {
        text += "# Section \(section)\n\n"
        for index in 1...3 { text += paragraph(index, section) + "\n\n" }
    }
    let info = DocumentInfo(title: title, format: .markdown, text: text)
    return (info, (try? Document.parse(title: info.title, format: info.format, text: info.text))?.blocks.count ?? 1)
}
