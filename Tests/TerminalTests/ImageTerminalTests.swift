import Foundation
import NeonRender
import NeonTestSupport
import Testing

/// Pictures in real terminals: tmux (no graphics passthrough) shows every
/// reader the same box at two sizes, a late joiner's box as the publisher's;
/// a terminal speaking kitty's protocol (read from a pseudo-terminal) gets
/// the picture sent once, placed in the box and deleted when it leaves.
@Suite("Images in terminals", .serialized, .ownThreads)
struct ImageTerminalTests {
    static let client = ScreenLookTerminalTests.client
    static let capture = HyperlinkTerminalTests.capture

    /// A document with a 160×96 PNG beside it, in a directory of its own.
    func document() throws -> (directory: String, file: String) {
        let directory = NSTemporaryDirectory() + "neonsync-images-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var rgba: [UInt8] = []
        for y in 0..<96 { for x in 0..<160 { rgba += [UInt8(x), UInt8(y), 200, 255] } }
        try Picture(width: 160, height: 96, rgba: rgba).png()!.write(to: URL(fileURLWithPath: directory + "/logo.png"))
        let file = directory + "/pics.md"
        try ("# Pictures\n\nBefore.\n\n![The logo](logo.png)\n\n" + (1...30).map { "Line \($0)." }.joined(separator: "\n\n"))
            .write(toFile: file, atomically: true, encoding: .utf8)
        return (directory, file)
    }

    /// The rows of the image's box on a captured screen.
    func box(_ screen: [String]) -> [String] {
        screen.compactMap { line -> String? in
            guard let start = line.firstIndex(where: { "┌│└".contains($0) && line.contains("┐") || $0 == "┌" || $0 == "└" }) else { return nil }
            return String(line[start...]).components(separatedBy: "┐").first.map { $0 + (line.contains("┐") ? "┐" : "") }
        }
    }

    @Test("every reader sees the picture's box, of its aspect ratio, with the alt text and file name, at 80×24 and at 50×20")
    func boxes() throws {
        let (directory, file) = try document()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ServerProcess()
        let tmux = try Tmux()
        try tmux.start("ada", columns: 80, rows: 24, command: "\(Self.client) present \(file) --room pics --name ada --server \(server.url)")
        let mine = try tmux.waitUntil("ada", "the box with its labels") { screen in
            screen.contains { $0.contains("The logo") } && screen.contains { $0.contains("logo.png") } && screen.contains { $0.contains("1 here") }
        }
        try tmux.start("bob", columns: 50, rows: 20, command: "\(Self.client) join pics --name bob --server \(server.url)")
        let theirs = try tmux.waitUntil("bob", "the box with its labels") { screen in
            screen.contains { $0.contains("The logo") } && screen.contains { $0.contains("logo.png") }
        }
        // 160 pixels are 20 columns at 8 pixels a column; 96 pixels, 6 rows at twice as tall.
        for screen in [mine, theirs] {
            let top = try #require(screen.firstIndex { $0.contains("┌──────────────────┐") }, "\(screen.joined(separator: "\n"))")
            #expect(screen[top + 5].contains("└──────────────────┘"))
            #expect(screen[top + 2].contains("│     The logo     │"))
            #expect(screen[top + 3].contains("│     logo.png     │"))
        }
        #expect(server.stop() == 0)
    }

    @Test("a kitty terminal gets the picture once, placed over the box's inside, deleted when it scrolls away and on quitting; a malformed picture is a box saying so")
    func kitty() throws {
        let (directory, file) = try document()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ServerProcess()
        let tmux = try Tmux()
        try tmux.start("ada", columns: 80, rows: 24, command: "\(Self.client) present \(file) --room kitty --name ada --server \(server.url)")
        try tmux.waitFor("ada", "1 here", timeout: 30)
        // bob's terminal: 80×24, kitty's protocol named, G jumps to the end.
        let result = try runProgram(URL(fileURLWithPath: "/usr/bin/env"),
                                    ["-u", "TMUX", "NO_COLOR=1", "TERM=xterm-256color", "PTY_KEYS=G", "PTY_THEN=a=d,d=i,i=1", "python3", Self.capture.path, "80", "24", "a=p,i=1", "--",
                                     Self.client, "join", "kitty", "--name", "bob", "--server", server.url, "--graphics", "kitty"])
        let out = result.out
        let transmits = out.components(separatedBy: "\u{1B}_Ga=t,f=32,s=160,v=96,i=1,q=2,").count - 1
        #expect(transmits == 1, "sent once: \(out.prefix(400).debugDescription)")
        #expect(result.status == 0, "the picture deleted after G")
        let placed = try #require(out.range(of: "\u{1B}_Ga=p,i=1,p=1,x=0,y=0,w=160,h=96,c=18,r=4,C=1,q=2\u{1B}\\"), "placed in the box's inside")
        let deleted = try #require(out.range(of: "\u{1B}_Ga=d,d=i,i=1,p=1,q=2\u{1B}\\"), "deleted once scrolled away")
        #expect(placed.upperBound <= deleted.lowerBound)
        #expect(out.contains("\u{1B}_Ga=d,d=a,q=2\u{1B}\\\u{1B}[0m\u{1B}[?2004l"), "every picture taken away as the terminal is restored")

        // A picture file that is not one is a box saying so; the document opens.
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 9, 9]).write(to: URL(fileURLWithPath: directory + "/logo.png"))
        try tmux.start("bad", columns: 120, rows: 20, command: "\(Self.client) read \(file) --room bad --server \(server.url)")
        let bad = try tmux.waitUntil("bad", "the box with the reason") { screen in
            screen.contains { $0.contains("│ logo.png · unreadable PNG │") } && screen.contains { $0.contains("1 here") }
        }
        #expect(bad.contains { $0.contains("│         The logo          │") }, "\(bad.joined(separator: "\n"))")
        #expect((try? tmux.exitStatus("bad")) == nil, "still reading")
        #expect(server.stop() == 0)
    }

    /// This repository's README: it shows docs/images/tour-code.svg.
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md").path

    @Test("read README.md (it embeds an SVG) opens, and its reader and a reader who joins see the SVG's box with its alt text and why")
    func readme() throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let alt = "│ samples/code.md in neonsync, highlighted │"
        let reason = "│      tour-code.svg · SVG not shown       │"
        try tmux.start("ada", columns: 100, rows: 30, command: "\(Self.client) read \(Self.readme) --room readme --name ada --server \(server.url)")
        try tmux.waitFor("ada", "1 here", timeout: 30)
        try tmux.start("bob", columns: 80, rows: 24, command: "\(Self.client) join readme --name bob --server \(server.url)")
        try tmux.waitFor("ada", "2 here")
        for name in ["ada", "bob"] {
            // Each finds the picture by its alt text.
            try tmux.sendKeys(name, "/")
            try tmux.sendLiteral(name, "in neonsync, highlighted")
            try tmux.sendKeys(name, "Enter")
            let screen = try tmux.waitUntil(name, "the SVG's box") { screen in
                screen.contains { $0.contains(alt) } && screen.contains { $0.contains(reason) }
            }
            let top = try #require(screen.firstIndex { $0.contains(alt) })
            #expect(screen[top - 1].contains("┌──────────────────────────────────────────┐"), "\(name): \(screen.joined(separator: "\n"))")
            #expect(screen[top + 2].contains("└──────────────────────────────────────────┘"))
        }
        #expect((try? tmux.exitStatus("ada")) == nil, "the document was not refused")
        #expect(server.stop() == 0)
    }
    /// The first picture box on a screen: its columns and rows, borders included.
    func boxSize(_ screen: [String]) -> (columns: Int, rows: Int)? {
        guard let top = screen.firstIndex(where: { $0.contains("┌") && $0.contains("┐") }),
              let start = screen[top].firstIndex(of: "┌"), let end = screen[top][start...].firstIndex(of: "┐") else { return nil }
        let column = screen[top].distance(from: screen[top].startIndex, to: start)
        let rows = screen[top...].prefix { line in
            line.count > column && "┌│└".contains(line[line.index(line.startIndex, offsetBy: column)])
        }.count
        return (screen[top].distance(from: start, to: end) + 1, rows)
    }

    @Test("samples/deck.md's room.png keeps its shape in slides as when read: 45×11 read and presented at 120×40; a follower at 60×20 sees it shrunk to fit at the same shape, 28×7, its alt text whole")
    func slidesKeepTheShape() throws {
        let deck = SlideTerminalTests.deck
        let server = try ServerProcess()
        let tmux = try Tmux()
        try tmux.start("pat", columns: 120, rows: 40, command: "\(Self.client) present \(deck) --room deck --name pat --server \(server.url)")
        try tmux.waitFor("pat", "Slide 1 of 6")
        try tmux.start("fay", columns: 60, rows: 20, command: "\(Self.client) follow deck --name fay --server \(server.url)")
        try tmux.start("rea", columns: 120, rows: 40, command: "\(Self.client) read \(deck) --room reading --name rea --server \(server.url)")
        try tmux.waitFor("pat", "2 here")
        try tmux.sendKeys("pat", "5", "Enter")
        let alt = "a diagram of the room"
        let presented = try tmux.waitUntil("pat", "slide 5 with its picture") { screen in
            screen.contains { $0.contains("Slide 5 of 6") } && screen.contains { $0.contains(alt) }
        }
        let followed = try tmux.waitUntil("fay", "slide 5 with its picture") { screen in
            screen.contains { $0.contains("Slide 5 of 6") } && screen.contains { $0.contains(alt) }
        }
        try tmux.waitFor("rea", "1 here")
        try tmux.sendKeys("rea", "/")
        try tmux.sendLiteral("rea", "diagram of the room")
        try tmux.sendKeys("rea", "Enter")
        let read = try tmux.waitUntil("rea", "the picture on screen") { screen in screen.contains { $0.contains("│" + String(repeating: " ", count: 11) + alt) } }
        let readBox = try #require(boxSize(read), "\(read.joined(separator: "\n"))")
        let presentedBox = try #require(boxSize(presented), "\(presented.joined(separator: "\n"))")
        let followedBox = try #require(boxSize(followed), "\(followed.joined(separator: "\n"))")
        #expect(readBox.columns == 45 && readBox.rows == 11, "read: \(readBox)")
        #expect(presentedBox.columns == 45 && presentedBox.rows == 11, "presented: \(presentedBox)")
        #expect(followedBox.columns == 28 && followedBox.rows == 7, "followed: \(followedBox)\n\(followed.joined(separator: "\n"))")
        #expect(followed.contains { $0.contains("│  " + alt) })
        #expect(server.stop() == 0)
    }
}
