import NeonCore
import Testing

@Suite("YAML through libyaml: front matter, comment commands, the config file")
struct YAMLTests {
    @Test("libyaml reads quoting, block scalars, flow and block lists and mappings, each with its line")
    func tree() throws {
        let yaml = try #require(try YAMLNode.parse("""
            title: "a: quoted # not a comment"
            single: 'it''s'
            authors: [Ada, "Bob, Jr."]
            list:
              - one
              - two
            kept: |
              first
              second
            folded: >
              one
              line
            nested: {a: 1}
            """))
        let entries = try #require(yaml.entries)
        #expect(entries.map { $0.key.text } == ["title", "single", "authors", "list", "kept", "folded", "nested"])
        #expect(entries.map(\.value.line) == [1, 2, 3, 5, 7, 10, 13])
        #expect(entries[0].value.text == "a: quoted # not a comment")
        #expect(entries[1].value.text == "it's")
        #expect(entries[2].value.words == ["Ada", "Bob, Jr."])
        #expect(entries[3].value.words == ["one", "two"])
        #expect(entries[4].value.text == "first\nsecond\n")
        #expect(entries[5].value.text == "one line\n")
        #expect(entries[6].value.words == ["a: 1"])
    }

    @Test("what is not YAML is refused with libyaml's problem and the line it is on; an empty text is no document")
    func refused() throws {
        #expect(try YAMLNode.parse("") == nil)
        #expect(throws: YAMLError.self) { try YAMLNode.parse("a: [1, 2\nb: 3\n") }
        do {
            _ = try YAMLNode.parse("a: 1\nb: \"open\nc: 2\n  - x: [\n")
            Issue.record("an unclosed quote is refused")
        } catch {
            #expect(error.line >= 2 && !error.problem.isEmpty, "\(error)")
        }
    }

    @Test("aliases stand for their anchor's value, but a billion laughs is refused, as is nesting past the limit")
    func limits() throws {
        let aliased = try #require(try YAMLNode.parse("a: &x [1, 2]\nb: *x\n"))
        #expect(aliased.entries?.last?.value.words == ["1", "2"])
        var laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for (name, previous) in zip("bcdefgh", "abcdefg") {
            laughs += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]\n"
        }
        #expect(throws: YAMLError.self) { try YAMLNode.parse(laughs) }
        let deep = String(repeating: "[", count: YAMLNode.maximumDepth + 1) + String(repeating: "]", count: YAMLNode.maximumDepth + 1)
        #expect(throws: YAMLError(line: 1, problem: "nested deeper than \(YAMLNode.maximumDepth) levels")) { try YAMLNode.parse(deep) }
    }

    @Test("presenterm's front matter through libyaml: authors as a flow list, a quoted title with a colon, a block-scalar subtitle")
    func frontMatter() throws {
        let source = PresenterSource(markdown: """
            ---
            title: "Ratios: a talk"   # a comment, not the title
            sub_title: >
              Two lines
              folded
            authors: [Ada, 'Bob']
            ---

            Body.
            """)
        #expect(source.published.hasPrefix("# Ratios: a talk\n\n**Two lines folded**\n\n*Ada, Bob*\n"), "\(source.published)")
        #expect(PresenterSource(markdown: "---\ntitle: [unclosed\n---\n\nBody.\n").published == "---\ntitle: [unclosed\n---\n\nBody.\n",
                "front matter that is not YAML is shown as written")
    }

    @Test("comment commands' YAML: a quoted note keeps its colon, a block scalar its lines, a flow list is a column layout; a note that is not YAML is its text")
    func commentCommands() {
        #expect(CommentCommand(html: "<!-- speaker_note: 'Slow down: breathe' -->") == .speakerNote("Slow down: breathe"))
        #expect(CommentCommand(html: "<!--\nspeaker_note: |\n  one\n  two\n-->") == .speakerNote("one\ntwo"))
        #expect(CommentCommand(html: "<!-- speaker_note: Don't: forget -->") == .speakerNote("Don't: forget"))
        #expect(CommentCommand(html: "<!-- column_layout: [ 1,\n 3 ] -->") == .columnLayout([1, 3]))
        #expect(CommentCommand(html: "<!-- column_layout: 3 -->") == .ignored("column_layout"))
        #expect(CommentCommand(html: "<!-- new_lines: '2' -->") == .newLines(2))
    }
}
