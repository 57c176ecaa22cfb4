import Foundation
import NeonCore

/// A document the sweep draws every screen of: its file's name and what a
/// presenter's terminal reads from it.
struct SweepDocument: Sendable {
    let name: String
    let file: DocumentInfo

    /// The text the room gets (speaker notes taken out).
    var published: DocumentInfo {
        guard file.format == .markdown else { return file }
        var info = file
        info.text = PresenterSource(markdown: file.text).published
        return info
    }
}

/// Every sample document (samples/) and every fixture document
/// (Tests/Fixtures/documents/): decks with columns, pauses and empty
/// slides, tables, pictures, code, CJK and emoji, an empty file, plain text
/// and a catalog.
enum SweepDocuments {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let all: [SweepDocument] = {
        let folders = ["samples", "Tests/Fixtures/documents"]
        var documents: [SweepDocument] = []
        for folder in folders {
            let directory = root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.sorted() {
                guard let format = format(of: name),
                      let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) else { continue }
                var info = DocumentInfo(title: name, format: format, text: text)
                info.images = pictures(of: info, in: directory)
                documents.append(SweepDocument(name: "\(folder)/\(name)", file: info))
            }
        }
        return documents
    }()

    private static func format(of name: String) -> DocumentFormat? {
        switch (name as NSString).pathExtension {
        case "md": .markdown
        case "txt": .text
        case "json": .catalog
        default: nil
        }
    }

    /// The PNG pictures a Markdown document names that exist beside it, as
    /// a publishing terminal sends them.
    private static func pictures(of info: DocumentInfo, in directory: URL) -> [DocumentImage] {
        guard info.format == .markdown else { return [] }
        var images: [DocumentImage] = []
        var rest = Substring(info.text)
        while let open = rest.range(of: "]("), let close = rest[open.upperBound...].firstIndex(of: ")") {
            let name = String(rest[open.upperBound..<close])
            rest = rest[close...]
            guard name.hasSuffix(".png"),
                  let data = try? Data(contentsOf: directory.appendingPathComponent(name)), data.count > 24 else { continue }
            let bytes = [UInt8](data)
            func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
            images.append(DocumentImage(name: name, format: "png", width: word(16), height: word(20),
                                        data: data.base64EncodedString()))
        }
        return images
    }
}
