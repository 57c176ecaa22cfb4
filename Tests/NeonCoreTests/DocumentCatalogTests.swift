import Testing
@testable import NeonCore

@Suite("Catalog documents")
struct DocumentCatalogTests {
    private func parse(_ text: String) throws(NeonError) -> Document {
        try Document.parse(title: "animals.json", format: .catalog, text: text)
    }

    private func message(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("each type is a section opened by a heading, each entry a card with its headline")
    func valid() throws {
        let json = """
        [
          {"type": "Birds", "body": [
            {"id": "1", "name": "Kakapo", "headline": "A flightless parrot.", "gallery": ["a.jpg"], "fact": []},
            {"name": "Kea"}
          ]},
          {"type": "Fish", "body": []}
        ]
        """
        let document = try parse(json)
        #expect(document.format == .catalog)
        #expect(document.sections == [Section(title: "Birds", firstBlock: 0), Section(title: "Fish", firstBlock: 3)])
        #expect(document.blocks == [
            Block(kind: .heading(level: 1), text: "Birds", section: 0),
            Block(kind: .card(name: "Kakapo"), text: "A flightless parrot.", section: 0),
            Block(kind: .card(name: "Kea"), text: "", section: 0),
            Block(kind: .heading(level: 1), text: "Fish", section: 1),
        ])
    }

    @Test("names and headlines are made single-line and safe to draw")
    func singleLine() throws {
        let document = try parse(#"[{"type": "A\tB", "body": [{"name": "Big\n Cat\u001b", "headline": "  one\r\ntwo  "}]}]"#)
        #expect(document.sections[0].title == "A B")
        #expect(document.blocks[1] == Block(kind: .card(name: "Big Cat\u{FFFD}"), text: "one two", section: 0))
    }

    @Test("escapes, including surrogate pairs, decode")
    func escapes() throws {
        let document = try parse(#"[{"type": "\u6f22\ud83d\udc4d \"q\" \/", "body": []}]"#)
        #expect(document.sections[0].title == "漢👍 \"q\" /")
    }

    @Test("an empty catalog text or an empty array gives an empty document")
    func empty() throws {
        for text in ["", "  \n", "[]"] {
            let document = try parse(text)
            #expect(document.blocks.isEmpty)
            #expect(document.sections == [Section(title: "animals.json", firstBlock: 0)])
        }
    }

    @Test("text that is not JSON is refused with the line and column of the problem")
    func notJSON() {
        #expect(message("hello") == "catalog is not valid JSON at line 1, column 1: expected a value, found 'h'")
        #expect(message("[\n  {\"type\": \"A\", \"body\": []},\n]") == "catalog is not valid JSON at line 3, column 1: expected a value, found ']'")
        #expect(message("[{\"type\": \"A\" \"body\": []}]") == "catalog is not valid JSON at line 1, column 15: expected ',' or '}' after the value of \"type\", found '\"'")
        #expect(message("[1, 2") == "catalog is not valid JSON at line 1, column 6: expected ',' or ']' after an array element, found the end of the text")
        #expect(message("[\"open") == "catalog is not valid JSON at line 1, column 7: the string is not closed with '\"', found the end of the text")
        #expect(message("[] []") == "catalog is not valid JSON at line 1, column 4: expected the end of the text after the catalog's array, found '['")
        #expect(message("[01]") == "catalog is not valid JSON at line 1, column 3: expected ',' or ']' after an array element, found '1'")
        #expect(message("[\"\\x\"]")?.contains("unknown escape '\\x'") == true)
        #expect(message("[\"\\ud800\"]")?.contains("low surrogate") == true)
        #expect(message("[tru]")?.contains("expected true") == true)
        #expect(message("[\"a\nb\"]") == "catalog is not valid JSON at line 1, column 4: a control character inside a string must be escaped, e.g. as \\n, found U+000A")
    }

    @Test("deep nesting is refused instead of exhausting the stack")
    func deepNesting() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(message(deep)?.contains("nested more than 64 levels deep") == true)
    }

    @Test("a catalog of the wrong shape is refused with a message naming the problem")
    func wrongShape() {
        #expect(message(#"{"type": "Birds"}"#)?.hasPrefix("a catalog must be a JSON array of types") == true)
        #expect(message(#"{"type": "Birds"}"#)?.hasSuffix("but the text is an object") == true)
        #expect(message(#"["Birds"]"#) == "catalog item 1 is a string, not an object with \"type\" and \"body\"")
        #expect(message(#"[{"body": []}]"#) == "catalog item 1 has no \"type\" string")
        #expect(message(#"[{"type": 5, "body": []}]"#) == "catalog item 1 has a number as \"type\"; it must be a string")
        #expect(message(#"[{"type": "Birds"}]"#) == "catalog type \"Birds\" (item 1) has no \"body\" array of entries")
        #expect(message(#"[{"type": "Birds", "body": {}}]"#) == "catalog type \"Birds\" (item 1) has an object as \"body\"; it must be an array of entries")
        #expect(message(#"[{"type": "Birds", "body": [null]}]"#) == "catalog entry 1 of type \"Birds\" is null, not an object with \"name\" and \"headline\"")
    }

    @Test("a missing or mistyped field names the entry, the type and the field")
    func badEntries() {
        let entries = #"{"name": "A", "headline": "a"}, {"name": "B"}"#
        #expect(message(#"[{"type": "Birds", "body": [\#(entries), {"headline": "no name"}]}]"#)
                == "catalog entry 3 of type \"Birds\" has no \"name\" string")
        #expect(message(#"[{"type": "Birds", "body": [{"name": 7}]}]"#)
                == "catalog entry 1 of type \"Birds\" has a number as \"name\"; it must be a string")
        #expect(message(#"[{"type": "Birds", "body": [{"name": "A", "headline": true}]}]"#)
                == "catalog entry 1 of type \"Birds\" has a boolean as \"headline\"; it must be a string")
        #expect(message(#"[{"type": "Birds", "body": [{"name": "A", "headline": ["x"]}]}]"#)
                == "catalog entry 1 of type \"Birds\" has an array as \"headline\"; it must be a string")
    }
}
