import NeonClient
import NeonClientTestSupport
import NeonCore
import Testing

@Suite("tail's readable lines")
struct TailFeedTests {
    let ada = ClientID("c1")
    let bob = ClientID("c2")

    func welcomed() throws -> TailFeed {
        var feed = TailFeed()
        let readers = [ReaderInfo(id: ada, name: "ada", role: .reader, percent: 40),
                       ReaderInfo(id: ClientID("c9"), name: "watcher", role: .observer)]
        let document = DocumentInfo(title: "Guide", format: .markdown, text: "# Intro\nhi\n\n# Usage\nmore\n")
        let welcome = Welcome(you: ClientID("c9"), room: "talk", document: document, readers: readers, presenter: nil,
                              draft: DraftInfo(text: "", rev: 3, status: try DraftCounter().status(forCount: 12)))
        #expect(feed.describe(ServerMessage(seq: 2, .welcome(welcome)))
                == "watching talk: readers ada (reader 40%); document \"Guide\"; draft rev 3, 12/280 ok")
        return feed
    }

    @Test("names come from the welcome and joins; sections are numbered from 1 with their titles")
    func namesAndSections() throws {
        var feed = try welcomed()
        #expect(feed.describe(ServerMessage(seq: 3, .joined(ReaderInfo(id: bob, name: "bob", role: .presenter)))) == "bob joined as presenter")
        let anchor = Anchor(block: 2, offset: 0)
        #expect(feed.describe(ServerMessage(seq: 4, .progress(ProgressInfo(id: ada, progress: 1, percent: 100, atBottom: true, section: 1, anchor: anchor))))
                == "ada 100% §2 \"Usage\", at the bottom")
        #expect(feed.describe(ServerMessage(seq: 5, .tab(TabInfo(id: bob, section: 0, source: .selected)))) == "bob chose tab 1 \"Intro\"")
        #expect(feed.describe(ServerMessage(seq: 6, .follow(FollowInfo(id: ada, on: false)))) == "ada stopped following")
        #expect(feed.describe(ServerMessage(seq: 7, .left(ReaderInfo(id: bob, name: "bob", role: .presenter, percent: 55)))) == "bob left at 55%")
        #expect(feed.describe(ServerMessage(seq: 8, .tab(TabInfo(id: bob, section: 7, source: .scrolled)))) == "c2 scrolled into tab 8 (untitled)")
    }

    @Test("document versions: the first as before, a next version with its number and that everyone keeps their place")
    func versionLines() throws {
        var feed = try welcomed()
        let next = DocumentInfo(title: "Guide", format: .markdown, text: "# Intro\nhi\n\n# Usage\nmore\n\n# New\nx\n", version: 2)
        #expect(feed.describe(ServerMessage(seq: 3, .document(DocumentPublished(next, by: ada, revises: 1))))
                == "ada published version 2 of \"Guide\" (markdown, 3 sections; everyone keeps their place)")
        let first = DocumentInfo(title: "Other", format: .text, text: "x", version: 1)
        #expect(feed.describe(ServerMessage(seq: 4, .document(DocumentPublished(first, by: ada)))) == "ada published \"Other\" (text, 1 section)")
    }

    @Test("pointers: who points at which words in which section, and who cleared theirs")
    func pointerLines() throws {
        var feed = try welcomed()
        let lead = PointerInfo(id: bob, name: "bob", lead: true, anchor: Anchor(block: 3, offset: 0), length: 4)
        #expect(feed.describe(ServerMessage(seq: 3, .pointer(lead))) == "bob points at \"more\" in §2 \"Usage\"")
        #expect(feed.describe(ServerMessage(seq: 4, .pointer(PointerInfo(id: bob, name: "bob", lead: true))))
                == "bob cleared the presenter's pointer")
        #expect(feed.describe(ServerMessage(seq: 5, .pointer(PointerInfo(id: ada, name: "ada", lead: false))))
                == "ada cleared their pointer")
    }

    @Test("edits show what they inserted and deleted; limits show level, count and limit; cursors and acks have no line")
    func draftLines() throws {
        var feed = try welcomed()
        let ops = try TextOperation(validating: [.retain(2), .insert("héllo"), .delete(3), .retain(7)])
        #expect(feed.describe(ServerMessage(seq: 3, .edit(EditInfo(rev: 4, ops: ops, by: ada)))) == "draft rev 4 by ada (+5 −3)")
        #expect(feed.describe(ServerMessage(seq: 4, .limit(LimitInfo(status: try DraftCounter().status(forCount: 260), by: ada))))
                == "limit warning 260/280 by ada")
        #expect(feed.describe(ServerMessage(seq: 5, .cursor(CursorInfo(id: ada, position: 1, rev: 4)))) == nil)
        #expect(feed.describe(ServerMessage(seq: 5, .ack(rev: 4))) == nil)
    }
}
