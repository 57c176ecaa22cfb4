import NeonCore

/// The checks once a run is quiet.
extension DraftSimulation {
    /// Every writer joined with nothing awaiting an ack; a fresh client
    /// joining each node gets the same text as every writer shows and the
    /// store holds; every keystroke is in it as the ledger expects.
    func check() {
        let writers = clients
        for client in writers {
            if client.draft.connection != .joined {
                fail("writer\(client.index) is not joined once quiet (\(client.draft.connection))")
            } else if client.editor.ot.state != .synchronized {
                fail("writer\(client.index) still waits for the server once quiet: \(client.editor.ot.state)")
            }
        }
        var texts: [(who: String, text: String)] = writers.map { ("writer\($0.index)", $0.editor.text) }
        for node in nodes {
            let probe = SimulatedClient(index: clients.count, room: Self.room, servers: [node.index],
                                        keyPrefix: "probe\(node.index)", resume: "resume-probe-\(node.index)-\(seed)",
                                        inReader: false)
            clients.append(probe)
            connect(probe)
            while !probe.draft.synced, step(quiet: true) {}
            guard probe.draft.synced else {
                return fail("a fresh client got no welcome from node\(node.index) once quiet")
            }
            texts.append(("a fresh client of node\(node.index)", probe.editor.text))
        }
        if mode == .node {
            let stored = (try? store.loadRoom(Self.room))?.draftText ?? ""
            texts.append(("the store", stored))
        }
        let reference = texts[0]
        for other in texts.dropFirst() where !other.text.unicodeScalars.elementsEqual(reference.text.unicodeScalars) {
            fail("\(other.who) holds a different draft from \(reference.who): \(Self.difference(reference.text, other.text))")
        }
        report.finalText = reference.text
        report.offlineKeystrokes = ledger.moments[.offline] ?? 0
        for problem in ledger.problems(in: reference.text) { fail(problem) }
    }

    /// Where two texts part, for a failure's sentence.
    static func difference(_ a: String, _ b: String) -> String {
        let x = Array(a.unicodeScalars)
        let y = Array(b.unicodeScalars)
        let common = zip(x, y).prefix { $0 == $1 }.count
        func around(_ s: [Unicode.Scalar]) -> String {
            KeystrokeLedger.names(s[common ..< min(s.count, common + 6)])
        }
        return "\(x.count) and \(y.count) characters, equal for the first \(common); then [\(around(x))] and [\(around(y))]"
    }
}
