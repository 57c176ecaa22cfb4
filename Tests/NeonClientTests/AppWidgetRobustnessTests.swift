import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

@Suite("NeonSync's own widgets at every size")
struct AppWidgetRobustnessTests {
    static let themes: [Theme] = [.neon, .neon256, .monochrome, .monochromeASCII]

    /// One of each of the client's widgets with wide text, drawn in
    /// `theme`: the tab header, the presence list, the back-to-top button,
    /// the ring past the limit, and an editor with a remote cursor and an
    /// over-limit part.
    static func widgets(_ theme: Theme) throws -> [any Widget] {
        let text = "下書き 👩‍💻 with words\nand a second line 世界"
        let status = try DraftCounter(limit: 10).status(forCount: text.count)
        return [
            TabHeader(titles: ["概要", "👩‍💻 Setup", "使い方"], current: 1, offset: 2, maxTitleWidth: 6,
                      currentTitleOffset: -1, theme: theme),
            PresenceList(entries: [.init(name: "李小龍 👩‍💻", role: .presenter, percent: 99)], time: .seconds(2),
                         theme: theme),
            BackToTopButton(key: "世", theme: theme),
            DraftRing(status: try DraftCounter().status(forCount: 285), pulse: true, theme: theme),
            DraftEditorView(text: text, cursor: 3, remoteCursors: [.init(name: "李小龍", position: 8)], status: status,
                            overLimit: text.index(text.startIndex, offsetBy: 10)..<text.endIndex, pulse: true, theme: theme),
        ]
    }

    @Test("they never draw outside their rectangle and never crash", arguments: themes.indices)
    func staysInside(themeIndex: Int) throws {
        let sentinel = Cell("x", style: Style(fg: .brightMagenta))
        for widget in try Self.widgets(Self.themes[themeIndex]) {
            for width in [0, 1, 2, 3, 5, 8, 12, 80] {
                for height in [0, 1, 2, 3, 5] {
                    var buffer = Buffer(width: width + 4, height: height + 4)
                    buffer.fill(buffer.area, style: sentinel.style, character: "x")
                    let area = Rect(x: 2, y: 2, width: width, height: height)
                    widget.render(in: area, into: &buffer)
                    for y in 0..<buffer.height {
                        for x in 0..<buffer.width where !area.contains(x: x, y: y) {
                            #expect(buffer[x, y] == sentinel, "\(type(of: widget)) at \(width)×\(height) drew at \(x),\(y)")
                        }
                    }
                }
            }
        }
    }

    @Test("monochrome themes draw them without colour", arguments: [2, 3])
    func noColour(themeIndex: Int) throws {
        for widget in try Self.widgets(Self.themes[themeIndex]) {
            #expect(isColorless(render(widget, width: 40, height: 5)), "\(type(of: widget))")
        }
    }
}
