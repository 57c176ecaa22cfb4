import NeonTUI
import Testing

/// Decodes `input` fed in one piece.
func decode(_ input: String) -> [InputEvent] {
    var decoder = KeyDecoder()
    return decoder.feed(Array(input.utf8))
}

@Suite("KeyDecoder, keys")
struct KeyDecoderTests {
    @Test("printable text decodes to characters, multi-byte and multi-scalar clusters whole")
    func text() {
        #expect(decode("aZ ~") == "aZ ~".map { .key(.character($0)) })
        #expect(decode("世界") == [.key(.character("世")), .key(.character("界"))])
        #expect(decode("👩‍💻é🇯🇵") == [.key(.character("👩‍💻")), .key(.character("é")), .key(.character("🇯🇵"))])
    }

    @Test("control bytes decode to editing keys and Ctrl-letters", arguments: [
        ([0x0D], Key.enter), ([0x0A], .enter), ([0x09], .tab), ([0x7F], .backspace), ([0x08], .backspace),
        ([0x03], .ctrl("c")), ([0x0C], .ctrl("l")), ([0x01], .ctrl("a")), ([0x1A], .ctrl("z")),
    ] as [([UInt8], Key)])
    func controls(bytes: [UInt8], key: Key) {
        var decoder = KeyDecoder()
        #expect(decoder.feed(bytes) == [.key(key)])
    }

    @Test("escape sequences decode to navigation keys", arguments: [
        ("\u{1B}[A", Key.up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
        ("\u{1B}OA", .up), ("\u{1B}OD", .left), ("\u{1B}[1;5C", .right), ("\u{1B}[Z", .backTab),
        ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}[1~", .home), ("\u{1B}[4~", .end),
        ("\u{1B}[7~", .home), ("\u{1B}[8~", .end), ("\u{1B}OH", .home), ("\u{1B}OF", .end),
        ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown), ("\u{1B}[3~", .delete), ("\u{1B}[2~", .insert),
        ("\u{1B}OM", .enter),
    ])
    func sequences(input: String, key: Key) {
        #expect(decode(input) == [.key(key)])
    }

    @Test("Alt and a character arrive as ESC and the character")
    func alt() {
        #expect(decode("\u{1B}x\u{1B}.") == [.key(.alt("x")), .key(.alt("."))])
    }

    @Test("a lone ESC waits for flush, which reports Escape")
    func loneEscape() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.hasPending)
        #expect(decoder.flush() == [.key(.escape)])
        #expect(!decoder.hasPending)
        #expect(decoder.flush() == [])
        #expect(decoder.feed(Array("q".utf8)) == [.key(.character("q"))])
    }

    @Test("ESC before another ESC or a control byte is an Escape of its own")
    func escapeBeforeControl() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B, 0x1B]) == [.key(.escape)])
        #expect(decoder.flush() == [.key(.escape)])
        #expect(decoder.feed([0x1B, 0x0D]) == [.key(.escape), .key(.enter)])
    }

    @Test("ESC [ and ESC O left hanging flush as Alt-[ and Alt-O")
    func hangingIntroducers() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[".utf8)) == [])
        #expect(decoder.flush() == [.key(.alt("["))])
        #expect(decoder.feed(Array("\u{1B}O".utf8)) == [])
        #expect(decoder.flush() == [.key(.alt("O"))])
        #expect(decoder.feed(Array("\u{1B}[12;".utf8)) == [])
        #expect(decoder.flush() == [])
        #expect(decoder.feed(Array("A".utf8)) == [.key(.character("A"))])
    }

    @Test("sequences and characters split across feeds decode once complete")
    func split() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.feed(Array("[".utf8)) == [])
        #expect(decoder.feed(Array("5".utf8)) == [])
        #expect(decoder.feed(Array("~x".utf8)) == [.key(.pageUp), .key(.character("x"))])
        let bytes = Array("世".utf8)
        #expect(decoder.feed(bytes[0..<2]) == [])
        #expect(decoder.hasPending)
        #expect(decoder.feed(bytes[2...]) == [.key(.character("世"))])
    }

    @Test("feeding byte by byte gives the same events as feeding at once")
    func byteByByte() {
        let input = "ab\u{1B}[A世\u{1B}[<0;3;4M\u{1B}[200~p\u{1B}[Aste\u{1B}[201~\u{1B}[6~\u{03}\u{1B}[Z"
        var decoder = KeyDecoder()
        let events = Array(input.utf8).flatMap { decoder.feed([$0]) }
        #expect(events == decode(input))
        #expect(events.count == 9)
    }

    @Test("unknown sequences are dropped and decoding goes on", arguments: [
        "\u{1B}[16~a", "\u{1B}[?1;2ca", "\u{1B}OXa", "\u{1B}[99Xa", "\u{1B}[<66;1;1Ma", "\u{1B}[<1;2Ma",
    ])
    func unknown(input: String) {
        #expect(decode(input) == [.key(.character("a"))])
    }

    @Test("function keys decode from SS3 and CSI-tilde sequences, modifiers dropped", arguments: [
        ("\u{1B}OP", 1), ("\u{1B}OS", 4), ("\u{1B}[11~", 1), ("\u{1B}[15~", 5), ("\u{1B}[17~", 6),
        ("\u{1B}[21~", 10), ("\u{1B}[24~", 12), ("\u{1B}[1;5P", 1),
    ])
    func functionKeys(input: String, number: Int) {
        #expect(decode(input + "a") == [.key(.function(number)), .key(.character("a"))])
    }

    @Test("malformed input is dropped without losing what follows")
    func malformed() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0xFF, 0x61]) == [.key(.character("a"))])
        #expect(decoder.feed([0xC3, 0x28]) == [.key(.character("("))])
        #expect(decoder.feed([0x1B, 0x5B, 0x31, 0x32, 0x01]) == [.key(.ctrl("a"))])
        #expect(decoder.feed([0xC2, 0x85, 0x62]) == [.key(.character("b"))])
        #expect(decoder.feed([0x00, 0x1C, 0x63]) == [.key(.character("c"))])
        let long = [0x1B, 0x5B] + [UInt8](repeating: 0x31, count: 100) + [0x7E, 0x64]
        #expect(decoder.feed(long).last == .key(.character("d")))
        #expect(!decoder.hasPending)
    }

    @Test("an incomplete character at flush is dropped")
    func incompleteAtFlush() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0xE4, 0xB8]) == [])
        #expect(decoder.flush() == [])
        #expect(decoder.feed([0x61]) == [.key(.character("a"))])
    }
}
