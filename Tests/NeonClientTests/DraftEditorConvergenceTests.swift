import NeonClient
import NeonCore
import NeonTestSupport
import Testing

/// A room in miniature: a server `DraftDocument` and several `DraftEditor`s
/// that type, delete, paste, move, undo and redo at random while their
/// messages wait in per-direction FIFO queues delivered in random order.
///
/// Every insert is a unique token `«id|filler»` put where no intact token
/// is cut; each local action records the tokens it broke (a delete, an
/// undo). At the end every token nobody broke must be there once.
private struct DraftEditorRoom {
    enum Downstream {
        case acknowledgement
        case edit(TextOperation, by: ClientID)
    }

    struct Peer {
        let id: ClientID
        var editor: DraftEditor
        var upstream: [(edit: TextOperation, revision: Int)] = []
        var downstream: [Downstream] = []
    }

    static let fillers = ["", "日本", "👨‍👩‍👧‍👦", "e\u{301}", "🇺🇸", "a b", "x\ny"]

    var server = DraftDocument()
    var peers: [Peer]
    var random: SplitMix64
    var tokens: [String] = []
    var broken: Set<Int> = []
    var undos = 0
    var remoteEdits = 0

    init(seed: UInt64, editors: Int) {
        random = SplitMix64(seed: seed)
        let ids = (0..<editors).map { ClientID("p\($0)") }
        peers = ids.map { id in
            var editor = DraftEditor()
            for other in ids where other != id {
                editor.setRemoteCursor(other, at: 0)
            }
            return Peer(id: id, editor: editor)
        }
    }

    mutating func step() throws {
        let busy = peers.indices.flatMap { index in
            (peers[index].upstream.isEmpty ? [] : [(index, true)]) + (peers[index].downstream.isEmpty ? [] : [(index, false)])
        }
        if busy.isEmpty || Int.random(in: 0..<100, using: &random) < 45 {
            try act(at: peers.indices.randomElement(using: &random)!)
        } else {
            let (index, isUpstream) = busy.randomElement(using: &random)!
            try isUpstream ? deliverUpstream(from: index) : deliverDownstream(to: index)
        }
    }

    mutating func drain() throws {
        while let index = peers.indices.first(where: { !peers[$0].upstream.isEmpty || !peers[$0].downstream.isEmpty }) {
            try peers[index].upstream.isEmpty ? deliverDownstream(to: index) : deliverUpstream(from: index)
        }
    }

    private mutating func act(at index: Int) throws {
        var editor = peers[index].editor
        let before = intact(in: editor.text)
        let (cursor, length) = (editor.cursor, editor.text.unicodeScalars.count)
        let inside = before.values.contains { $0.lowerBound < cursor && cursor < $0.upperBound }
        let sent: TextOperation?
        // The scalars of the old text the action may have removed: exact
        // for deletes, the changed stretch widened by a token for undo and
        // redo (a deleted scalar next to an identical one is ambiguous).
        var removed: Range<Int>?
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<30 where !inside:
            let token = "«\(tokens.count)|\(Self.fillers.randomElement(using: &random)!)»"
            tokens.append(token)
            sent = Bool.random(using: &random) ? editor.insert(token) : editor.paste(token)
        case 30..<42:
            sent = editor.deleteBackward()
            removed = editor.cursor..<cursor
        case 42..<48:
            sent = editor.deleteForward()
            removed = cursor..<(cursor + length - editor.text.unicodeScalars.count)
        case 48..<52:
            sent = editor.deleteWordBackward()
            removed = editor.cursor..<cursor
        case 52..<60:
            undos += editor.canUndo ? 1 : 0
            let old = editor.text
            sent = editor.undo()
            removed = Self.changed(from: old, to: editor.text)
        case 60..<64:
            let old = editor.text
            sent = editor.redo()
            removed = Self.changed(from: old, to: editor.text)
        default:
            move(&editor)
            sent = nil
        }
        let after = intact(in: editor.text)
        broken.formUnion(before.keys.filter { after[$0] == nil })
        if let removed {
            broken.formUnion(before.filter { $0.value.overlaps(removed) }.keys)
        }
        peers[index].editor = editor
        if let sent {
            peers[index].upstream.append((sent, editor.revision))
        }
    }

    /// The stretch of `old` between its common prefix and suffix with
    /// `new`, widened by the longest token each side.
    static func changed(from old: String, to new: String) -> Range<Int> {
        let (before, after) = (Array(old.unicodeScalars), Array(new.unicodeScalars))
        let prefix = zip(before, after).prefix { $0 == $1 }.count
        guard prefix < max(before.count, after.count) else { return 0..<0 }
        let suffix = min(zip(before.reversed(), after.reversed()).prefix { $0 == $1 }.count,
                         min(before.count, after.count) - prefix)
        let widen = 20
        return max(prefix - widen, 0)..<(before.count - suffix + widen)
    }

    private mutating func move(_ editor: inout DraftEditor) {
        switch Int.random(in: 0..<8, using: &random) {
        case 0: editor.left()
        case 1: editor.right()
        case 2: editor.wordLeft()
        case 3: editor.wordRight()
        case 4: editor.lineStart()
        case 5: editor.lineEnd()
        case 6: editor.up(width: Int.random(in: 1...12, using: &random))
        default: editor.down(width: Bool.random(using: &random) ? nil : 7)
        }
    }

    private mutating func deliverUpstream(from index: Int) throws {
        let (edit, revision) = peers[index].upstream.removeFirst()
        let (applied, _) = try server.receive(edit, basedOn: revision)
        peers[index].downstream.append(.acknowledgement)
        for other in peers.indices where other != index {
            peers[other].downstream.append(.edit(applied, by: peers[index].id))
        }
    }

    private mutating func deliverDownstream(to index: Int) throws {
        switch peers[index].downstream.removeFirst() {
        case .acknowledgement:
            if let next = try peers[index].editor.acknowledged() {
                peers[index].upstream.append((next, peers[index].editor.revision))
            }
        case .edit(let edit, let author):
            try peers[index].editor.receive(edit, from: author)
            remoteEdits += 1
        }
    }

    /// The intact tokens in `text`, by id, as scalar ranges.
    func intact(in text: String) -> [Int: Range<Int>] {
        let scalars = Array(text.unicodeScalars)
        var found: [Int: Range<Int>] = [:]
        var start = 0
        while let open = scalars[start...].firstIndex(of: "«") {
            start = open + 1
            var end = open + 1
            var id = 0
            while end < scalars.count, let digit = Int(String(scalars[end])) {
                id = id * 10 + digit
                end += 1
            }
            guard end > open + 1, id < tokens.count else { continue }
            let token = Array(tokens[id].unicodeScalars)
            if scalars.count - open >= token.count, Array(scalars[open..<(open + token.count)]) == token {
                found[id] = open..<(open + token.count)
            }
        }
        return found
    }
}

@Suite("Draft editor convergence")
struct DraftEditorConvergenceTests {
    @Test("editors typing, deleting, undoing and redoing over delayed links converge without losing an insert",
          arguments: [UInt64(1), 7, 42, 2026])
    func converge(seed: UInt64) throws {
        var room = DraftEditorRoom(seed: seed, editors: 3)
        for _ in 0..<2000 {
            try room.step()
        }
        try room.drain()
        let text = room.server.text
        for peer in room.peers {
            #expect(peer.editor.text.unicodeScalars.elementsEqual(text.unicodeScalars))
            #expect(peer.editor.revision == room.server.revision)
            let length = text.unicodeScalars.count
            #expect((0...length).contains(peer.editor.cursor))
            #expect(peer.editor.remoteCursors.values.allSatisfy { (0...length).contains($0) })
        }
        let found = room.intact(in: text)
        for id in room.tokens.indices where !room.broken.contains(id) {
            #expect(found[id] != nil, "token \(id) \(room.tokens[id]) was lost")
        }
        let scalars = Array(text.unicodeScalars)
        for (id, range) in found {
            let token = Array(room.tokens[id].unicodeScalars)
            let count = (0...(scalars.count - token.count)).filter { Array(scalars[$0..<($0 + token.count)]) == token }.count
            #expect(count == 1, "token \(id) appears \(count) times")
            #expect(range.count == token.count)
        }
        #expect(room.tokens.count - room.broken.count > 20)
        #expect(room.undos > 50)
        #expect(room.remoteEdits > 400)
    }

    @Test("two editors typing at one spot over a slow link converge, and undo takes back only the undoer's text")
    func twoEditors() throws {
        let ada = ClientID("ada"), bo = ClientID("bo")
        var server = DraftDocument(text: "Hi !")
        var left = DraftEditor(text: "Hi !")
        var right = DraftEditor(text: "Hi !")
        left.left()
        right.left()
        right.setRemoteCursor(ada, at: 3)
        // Both type at position 3 before hearing from each other.
        let leftSent = left.insert("Ada")
        let leftFirst = try #require(leftSent)
        let leftRevision = left.revision
        let rightSent = right.insert("Bo")
        let rightFirst = try #require(rightSent)
        let rightRevision = right.revision
        #expect(right.insert(" here") == nil)
        // The server takes Bo's edit first, then Ada's (based on the old revision).
        let appliedBo = try server.receive(rightFirst, basedOn: rightRevision).applied
        let appliedAda = try server.receive(leftFirst, basedOn: leftRevision).applied
        #expect(server.text == "Hi AdaBo!")
        try left.receive(appliedBo, from: bo)
        #expect(left.text == "Hi AdaBo!")
        #expect(left.cursor == 6)
        let rightNext = try right.acknowledged()
        let rightBuffered = try #require(rightNext)
        let appliedBuffer = try server.receive(rightBuffered, basedOn: right.revision).applied
        try right.receive(appliedAda, from: ada)
        #expect(right.text == "Hi AdaBo here!")
        #expect(right.cursor == 13)
        #expect(right.remoteCursors[ada] == 6)
        _ = try left.acknowledged()
        try left.receive(appliedBuffer, from: bo)
        _ = try right.acknowledged()
        #expect(left.text == server.text && right.text == server.text)
        // Ada undoes her word: Bo's text stays, on every terminal.
        let undoSent = left.undo()
        let undo = try #require(undoSent)
        let appliedUndo = try server.receive(undo, basedOn: left.revision).applied
        try right.receive(appliedUndo, from: ada)
        _ = try left.acknowledged()
        #expect(server.text == "Hi Bo here!")
        #expect(left.text == server.text && right.text == server.text)
        #expect(right.cursor == 10)
        #expect(right.remoteCursors[ada] == 3)
    }
}
