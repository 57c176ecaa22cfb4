import NeonCore
import NeonTestSupport
import Testing

/// A room in miniature for the randomized convergence test: one server
/// `DraftDocument`, several clients with their own text and `OTClient`, and
/// a FIFO queue per client in each direction that delivers at random.
///
/// Every insert is a unique token `«id|filler»`; local inserts never land
/// inside an intact token, and a local delete records every intact token it
/// touches. So at the end each untouched token must appear whole, once.
struct ConvergenceSimulation {
    enum Downstream {
        case acknowledgement
        case edit(TextOperation)
    }

    struct Peer {
        var client: OTClient
        var text: String
        var upstream: [(edit: TextOperation, revision: Int)] = []
        var downstream: [Downstream] = []
    }

    private(set) var server: DraftDocument
    private(set) var peers: [Peer]
    private var random: SplitMix64
    private(set) var tokens: [Int: [Unicode.Scalar]] = [:]
    private(set) var touched: Set<Int> = []
    /// Edits the server had to transform because they arrived late.
    private(set) var lateEdits = 0
    /// Local edits that went into a buffer rather than straight out.
    private(set) var bufferedEdits = 0

    init(seed: UInt64, clients: Int, text: String) {
        random = SplitMix64(seed: seed)
        server = DraftDocument(text: text)
        peers = Array(repeating: Peer(client: OTClient(revision: 0), text: text), count: clients)
    }

    /// Makes a local edit or delivers one queued message, at random.
    mutating func step() throws {
        let busy = peers.indices.flatMap { index in
            (peers[index].upstream.isEmpty ? [] : [(index, true)]) + (peers[index].downstream.isEmpty ? [] : [(index, false)])
        }
        if busy.isEmpty || Int.random(in: 0..<100, using: &random) < 35 {
            try editLocally(at: peers.indices.randomElement(using: &random)!)
        } else {
            let (index, isUpstream) = busy.randomElement(using: &random)!
            try isUpstream ? deliverUpstream(from: index) : deliverDownstream(to: index)
        }
    }

    /// Delivers messages until every queue is empty.
    mutating func drain() throws {
        while let index = peers.indices.first(where: { !peers[$0].upstream.isEmpty || !peers[$0].downstream.isEmpty }) {
            if peers[index].upstream.isEmpty {
                try deliverDownstream(to: index)
            } else {
                try deliverUpstream(from: index)
            }
        }
    }

    private mutating func editLocally(at index: Int) throws {
        let scalars = Array(peers[index].text.unicodeScalars)
        let intact = Self.intactTokens(in: scalars)
        let edit: TextOperation
        if !scalars.isEmpty, Int.random(in: 0..<100, using: &random) < (scalars.count > 200 ? 70 : 40) {
            let start = Int.random(in: 0..<scalars.count, using: &random)
            let end = start + Int.random(in: 1...min(16, scalars.count - start), using: &random)
            for token in intact where token.range.overlaps(start..<end) {
                touched.insert(token.id)
            }
            edit = TextOperation([.retain(start), .delete(end - start), .retain(scalars.count - end)])
        } else {
            let inside = Set(intact.flatMap { ($0.range.lowerBound + 1)..<$0.range.upperBound })
            let spots = (0...scalars.count).filter { !inside.contains($0) }
            let position = spots.randomElement(using: &random)!
            let id = tokens.count
            let token = "«\(id)|\(random.text(maxFragments: 3))»"
            tokens[id] = Array(token.unicodeScalars)
            edit = TextOperation([.retain(position), .insert(token), .retain(scalars.count - position)])
        }
        peers[index].text = try edit.apply(to: peers[index].text)
        if let outgoing = try peers[index].client.applyLocal(edit) {
            peers[index].upstream.append((outgoing, peers[index].client.revision))
        } else {
            bufferedEdits += 1
        }
    }

    private mutating func deliverUpstream(from index: Int) throws {
        let (edit, revision) = peers[index].upstream.removeFirst()
        if revision < server.revision {
            lateEdits += 1
        }
        let applied = try server.receive(edit, basedOn: revision).applied
        for other in peers.indices {
            peers[other].downstream.append(other == index ? .acknowledgement : .edit(applied))
        }
    }

    private mutating func deliverDownstream(to index: Int) throws {
        switch peers[index].downstream.removeFirst() {
        case .acknowledgement:
            if let next = try peers[index].client.serverAck() {
                peers[index].upstream.append((next, peers[index].client.revision))
            }
        case .edit(let edit):
            let local = try peers[index].client.applyServer(edit)
            peers[index].text = try local.apply(to: peers[index].text)
        }
    }

    /// The tokens `«digits|…»` that appear whole in `scalars`, with the
    /// range each covers.
    static func intactTokens(in scalars: [Unicode.Scalar]) -> [(id: Int, range: Range<Int>)] {
        var found: [(id: Int, range: Range<Int>)] = []
        var start: Int?
        for (offset, scalar) in scalars.enumerated() {
            if scalar == "«" {
                start = offset
            } else if scalar == "»", let opening = start {
                start = nil
                let body = scalars[(opening + 1)..<offset]
                guard let bar = body.firstIndex(of: "|") else { continue }
                let digits = String(String.UnicodeScalarView(body[..<bar]))
                if let id = Int(digits), digits.allSatisfy(\.isASCII) {
                    found.append((id, opening..<(offset + 1)))
                }
            }
        }
        return found
    }
}
