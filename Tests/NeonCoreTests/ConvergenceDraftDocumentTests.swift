import NeonCore
import Testing

@Suite struct ConvergenceDraftDocumentTests {
    private func insert(_ text: String, at position: Int, into length: Int) -> TextOperation {
        TextOperation([.retain(position), .insert(text), .retain(length - position)])
    }

    @Test("A fresh draft is empty at revision 0")
    func freshDraft() {
        let draft = DraftDocument()
        #expect(draft.text == "")
        #expect(draft.revision == 0)
        #expect(draft.length == 0)
        #expect(draft.oldestRevision == 0)
        #expect(draft.historyLimit == DraftDocument.defaultHistoryLimit)
    }

    @Test("An edit based on the current revision is applied as sent")
    func currentEdit() throws {
        var draft = DraftDocument(text: "hi")
        let edit = insert(" there", at: 2, into: 2)
        let result = try draft.receive(edit, basedOn: 0)
        #expect(result.applied == edit)
        #expect(result.revision == 1)
        #expect(draft.text == "hi there")
        #expect(draft.length == 8)
        #expect(draft.revision == 1)
    }

    @Test("The draft's length counts Unicode scalars, like edits do")
    func lengthInScalars() throws {
        var draft = DraftDocument(text: "👨‍👩‍👧‍👦")
        #expect(draft.length == 7)
        _ = try draft.receive(TextOperation([.retain(7), .insert("中文")]), basedOn: 0)
        #expect(draft.length == 9)
    }

    @Test("A late edit is transformed past the edits it missed")
    func lateEdit() throws {
        var draft = DraftDocument(text: "abc")
        _ = try draft.receive(TextOperation([.delete(1), .retain(2)]), basedOn: 0)
        _ = try draft.receive(TextOperation([.retain(2), .insert("!")]), basedOn: 1)
        let result = try draft.receive(insert("X", at: 2, into: 3), basedOn: 0)
        #expect(result.applied == TextOperation([.retain(1), .insert("X"), .retain(2)]))
        #expect(result.revision == 3)
        #expect(draft.text == "bXc!")
    }

    @Test("Of two inserts at one spot, the later-sequenced edit lands first")
    func insertTies() throws {
        var draft = DraftDocument()
        _ = try draft.receive(TextOperation([.insert("A")]), basedOn: 0)
        _ = try draft.receive(TextOperation([.insert("B")]), basedOn: 0)
        #expect(draft.text == "BA")
    }

    @Test("An edit based on a future revision is rejected with both revisions named")
    func futureRevision() {
        var draft = DraftDocument(text: "", revision: 9)
        let before = draft
        #expect(throws: DraftError.revisionNotYetReached(12, current: 9)) {
            try draft.receive(TextOperation([.insert("x")]), basedOn: 12)
        }
        #expect(DraftError.revisionNotYetReached(12, current: 9).description == "revision 12 does not exist yet (the draft is at 9)")
        #expect(draft == before)
    }

    @Test("An edit older than the kept history is rejected as too old and nothing changes")
    func tooOld() throws {
        var draft = DraftDocument(historyLimit: 2)
        for revision in 0..<3 {
            _ = try draft.receive(insert("x", at: 0, into: revision), basedOn: revision)
        }
        #expect(draft.oldestRevision == 1)
        let before = draft
        #expect(throws: DraftError.revisionTooOld(0, oldest: 1)) {
            try draft.receive(TextOperation([.insert("y")]), basedOn: 0)
        }
        #expect(draft == before)
        #expect(
            DraftError.revisionTooOld(0, oldest: 1).description
                == "your edit is based on revision 0 which is too old (the oldest the server can merge is 1); resync"
        )
        let merged = try draft.receive(insert("y", at: 0, into: 1), basedOn: 1)
        #expect(merged.revision == 4)
        #expect(draft.text == "yxxx")
    }

    @Test("An edit that does not fit its base revision is rejected and nothing changes")
    func mismatchedEdit() throws {
        var draft = DraftDocument(text: "abc")
        _ = try draft.receive(insert("d", at: 3, into: 3), basedOn: 0)
        let before = draft
        for base in [0, 1] {
            #expect(throws: DraftError.mismatchedEdit(.lengthMismatch(expected: 5, actual: 3 + base))) {
                try draft.receive(TextOperation([.retain(5)]), basedOn: base)
            }
        }
        #expect(draft == before)
        #expect(
            DraftError.mismatchedEdit(.lengthMismatch(expected: 5, actual: 3)).description
                == "the edit expects a draft of 5 characters but it has 3 — resync and retry"
        )
    }

    @Test("Documents compare texts by scalars, not canonical equivalence")
    func scalarEquality() {
        #expect(DraftDocument(text: "é") != DraftDocument(text: "e\u{301}"))
        #expect(DraftDocument(text: "é") == DraftDocument(text: "é"))
    }
}
