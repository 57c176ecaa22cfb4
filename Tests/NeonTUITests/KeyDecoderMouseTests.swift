import NeonTUI
import Testing

@Suite("KeyDecoder, mouse and paste")
struct KeyDecoderMouseTests {
    @Test("SGR mouse reports decode with 0-based coordinates", arguments: [
        ("\u{1B}[<0;10;5M", MouseEvent(.press(.left), x: 9, y: 4)),
        ("\u{1B}[<0;10;5m", MouseEvent(.release(.left), x: 9, y: 4)),
        ("\u{1B}[<2;1;1M", MouseEvent(.press(.right), x: 0, y: 0)),
        ("\u{1B}[<1;200;60M", MouseEvent(.press(.middle), x: 199, y: 59)),
        ("\u{1B}[<64;7;3M", MouseEvent(.wheelUp, x: 6, y: 2)),
        ("\u{1B}[<65;7;3M", MouseEvent(.wheelDown, x: 6, y: 2)),
        ("\u{1B}[<32;3;4M", MouseEvent(.drag(.left), x: 2, y: 3)),
        ("\u{1B}[<35;3;4M", MouseEvent(.move, x: 2, y: 3)),
        ("\u{1B}[<16;1;1M", MouseEvent(.press(.left), x: 0, y: 0)),
        ("\u{1B}[<80;5;5M", MouseEvent(.wheelUp, x: 4, y: 4)),
    ])
    func mouse(input: String, event: MouseEvent) {
        #expect(decode(input) == [.mouse(event)])
    }

    @Test("a mouse report split across feeds decodes once complete")
    func splitMouse() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[<0;1".utf8)) == [])
        #expect(decoder.feed(Array("2;3".utf8)) == [])
        #expect(decoder.feed(Array("4Mq".utf8)) == [.mouse(MouseEvent(.press(.left), x: 11, y: 33)), .key(.character("q"))])
    }

    @Test("a bracketed paste is one event, escape sequences and newlines inside it kept")
    func paste() {
        #expect(decode("\u{1B}[200~hello 世界\n\u{1B}[A\u{1B}[201~x")
            == [.paste("hello 世界\n\u{1B}[A"), .key(.character("x"))])
        #expect(decode("\u{1B}[200~\u{1B}[201~") == [.paste("")])
    }

    @Test("a paste split anywhere, even inside its end marker, arrives whole")
    func splitPaste() {
        let input = Array("a\u{1B}[200~line one\nline 二\u{1B}[201~b".utf8)
        for cut in 1..<input.count {
            for second in cut..<input.count {
                var decoder = KeyDecoder()
                let events = decoder.feed(input[..<cut]) + decoder.feed(input[cut..<second]) + decoder.feed(input[second...])
                #expect(events == [.key(.character("a")), .paste("line one\nline 二"), .key(.character("b"))],
                        "cut at \(cut) and \(second)")
            }
        }
    }

    @Test("flush leaves an open paste alone")
    func flushDuringPaste() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[200~abc\u{1B}".utf8)) == [])
        #expect(!decoder.hasPending)
        #expect(decoder.flush() == [])
        #expect(decoder.feed(Array("[201~".utf8)) == [.paste("abc")])
    }

    @Test("a lone ESC inside a paste is pasted text, not the end")
    func escapeInsidePaste() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[200~a\u{1B}b\u{1B}[20".utf8)) == [])
        #expect(decoder.feed(Array("2~c\u{1B}[201~".utf8)) == [.paste("a\u{1B}b\u{1B}[202~c")])
    }
}
