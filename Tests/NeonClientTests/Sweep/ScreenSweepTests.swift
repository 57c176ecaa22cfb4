import Foundation
import NeonClient
import NeonCore
import NeonTUI
import Testing

/// The sweep of issue 35: every screen, at every height from 1 to 40 for
/// widths from 1 to 300, through its states, on every sample and fixture
/// document, resized from each size to the next (`SweepChain`). A trap
/// ends the test process, so the sweep's first promise is that it
/// finishes; each frame is then checked for what `SweepReport.check` says.
/// docs/RELIABILITY.md has its counts.
@Suite("Every screen at every size")
struct ScreenSweepTests {
    static let themes: [Theme] = [.neon, .monochromeASCII, .neon256, .monochrome]

    @Test("every screen of the document (reading, presenting online and offline, following, the notes, the draft, the monitor of the room and of every room) draws every size, every resize to the next size and its states, with no trap, no write outside a widget's area and no cut text without an ellipsis",
          arguments: SweepDocuments.all.map(\.name))
    func sweep(name: String) throws {
        let document = try #require(SweepDocuments.all.first { $0.name == name })
        let screens = SweepScreens(document)
        let start = ContinuousClock.now
        var report = SweepReport()
        screens.read.run(themes: Self.themes, &report)
        screens.present(online: true).run(themes: Self.themes, &report)
        screens.present(online: false).run(themes: Self.themes, &report)
        screens.follow.run(themes: Self.themes, &report)
        screens.notes.run(themes: Self.themes, &report)
        screens.draft.run(themes: Self.themes, &report)
        screens.monitor.run(themes: Self.themes, &report)
        screens.monitorEveryRoom.run(themes: Self.themes, &report)
        let seconds = Double((ContinuousClock.now - start).inNanoseconds) / 1e9
        print("sweep \(name): \(report.frames) frames, \(report.events) events, \(report.sizes.count) sizes, "
              + "\(report.screens.count) screens, \(report.states.count) states, \(String(format: "%.1f", seconds)) s")
        #expect(report.sizes.count == SweepSizes.all.count && report.screens.count == 8)
        #expect(report.problems.isEmpty, "\(report.problems.joined(separator: "\n"))")
    }

    @Test("a taller terminal never shows fewer rows of text (the document's, the speaker notes', the draft's) than a shorter one of the same width, the draft panel and the notes open or not")
    func textRowsGrowWithHeight() {
        var shrinking: [String] = []
        for columns in SweepSizes.widths {
            for draftRows in [0, ReaderModel.draftPanelRows] {
                for notes in [false, true] {
                    var before = 0
                    for rows in 1...60 {
                        let g = ScreenGeometry(columns: columns, rows: rows, draftRows: draftRows, showsNotes: notes)
                        let text = g.document.height + g.notes.height + BorderBox.inner(of: g.draft).height
                        if text < before {
                            shrinking.append("\(columns)x\(rows) (draft \(draftRows), notes \(notes)): \(text) rows, \(before) at \(rows - 1)")
                        }
                        before = text
                    }
                }
            }
        }
        #expect(shrinking.isEmpty, "\(shrinking.prefix(20).joined(separator: "\n"))")
    }
}
