import Foundation
import NeonCore
import Testing

/// Inputs scripts/fuzz.sh (target `markdown`) found, replayed through the
/// same path: cmark-gfm and MarkdownReader into a Document, then its Layout
/// at the fuzzed widths, every row checked against Layout's promise that no
/// row but a code row is wider than the width (except one grapheme wider
/// than the room on a row of its own).
@Suite("Markdown the fuzzer found")
struct LayoutFuzzRegressionTests {
    /// PERFORMANCE.md's first table, mutated: a cell with 127 U+FFFD (bytes
    /// 0xFF) in one word, so that its column's minimum is wide and a short
    /// column settled at its natural width left the others too little room.
    static let wideWordTable = """
        IyBBcpaLnIuLnIugICAjIFBlcmZvcm1hbmNlCgpXaGF0IE5lb25TeW5jIHdhcyBtZWFzdXJlZCBkb2luZywgaG93IHRvIHJlcGVh
        dCBlYWNoIG1lYXN1cmVtZW50LCBhbmQgd2hhdApjaGFuZ2VkIGl0LiBCZW5jaG1hcmtzIGFyZSBwcm9ncmFtcyB0aGF0IHByaW50
        IG51bWJlcnMsIG5ldmVyIHRpbWVkIHRlc3RzLgpGaWd1cmVzIGFyZSBmcm9tIHRoZSAyLWNvcmUgZGV2ZWxvcG1lbnQgbWFjaGlu
        ZSwgcmVsZWFzZSBidWlsZHM7IHRoZQptYWNoaW5lIHdhcyBzaGFyZWQgd2l0aCBvdGhlciBidWlsZHMsIHNvIGxhdGVuY2llcyBt
        b3ZlIHdpdGggaXRzIGxvYWQsIGFuZApldmVyeSBKU09OIGxpbmUgYSBiZW5jaG1hcmsgcHJpbnRzIHJlY29yZHMgdGhlIGxvYWQg
        YXZlcmFnZS4gSG93IGZhciBvbmUKaG9zdCBhbmQgYSBjbHVzdGVyIG9mIHRoZW0gZ286IFtDTFVTVEVSLm1kXShDTFVTVEVSLm1k
        KSwgIkNjcGFjaXR5Ii4gV2hhdCBhCnNsb3cgcmVhZGVyIGNvc3RzIHRoZSBvdGhlcnM6IFtSRUxJQUJJTElUWS5tZF0oUkVMSUFC
        SUxJVFkubWQpLCAiU2xvdwpyZWFkZXJzIi4gVGhlIGNvZGUgdGhlc2UgZmlndXJlcyBkZXNjcmliZTogW0FSQ0hJVEVDVFVSRS5t
        ZF0oQVJDSElURUNUVVJFLm1kKS4KCiMjIFRoZSBjb3JlIGFuZCB0aGUgY2xpZW50Cnwgd2hhdCB8IHRhcmdldCB8IG1lYXN1cmVk
        IHwgY29tbWFuZCB8CnwtLS18LS0tfC0tLXwtLS18Cnwgc2Nyb2xsIGV2ZW50cyB0aHJvdWdoIHRoZSBodWIgKyByb29tIHJlZHVj
        ZXIgfCDiiaUgMSwwMDAsMDAwL3MgfCAyLjI0IE0vcyAoYmVzdCBvZiAzIMOXIDMgTSBldmVudHMsIDggbWVtYmVycykgfCBgc3dp
        ZnQgcnVuIC1jIHJlbGVhc2UgbmVvbnN5bmMtYmVuY2gtY29yZSByZWR1Y2VyYCB8CnwgcGFyc2UgYSAxIE1CIE1hcmtkb3duKmRv
        Y3VtZW50ICh3aXRoIHRhYmxlcykgdGhyb3VnaCBjbWFyay1nZm0gfCDigJQgfCAzNy42IG1zIGJlc3QsIDM4LjUgbXMgbWVkaWFu
        OyBjbWFyay1nZm3/////////////////////////////////////////////////////////////////////////////////////
        ////////////////////////////////////////////////////////////////////////////////////ZSMncyBvd24gdHJl
        ZSBvZiB0aGUg
        """

    @Test("a table whose settled column took more than its minimum still fits the width")
    func settledColumnLeavesRoom() throws {
        let bytes = try #require(Data(base64Encoded: Self.wideWordTable, options: .ignoreUnknownCharacters))
        let document = try Document.parse(title: "fuzz", format: .markdown, text: String(decoding: bytes, as: UTF8.self))
        for width in [1, 20, 80, 200] {
            let layout = Layout(document: document, width: width)
            #expect(layout.rowCount > 0)
            for row in 0..<layout.rowCount {
                let line = layout.line(at: row)
                if case .codeBlock = line.kind { continue }
                #expect(line.displayWidth <= width || line.text.count <= 1,
                        "row \(row) is \(line.displayWidth) columns wide at width \(width): \(line.prefix)\(line.text)")
            }
        }
    }
}
