import NeonCore
import NeonTUI
import Testing

@Suite("Every widget at every size")
struct WidgetRobustnessTests {
    static let themes: [Theme] = [.neon, .neon256, .monochrome, .monochromeASCII]
    static let widths = [0, 1, 2, 3, 5, 8, 12, 80, 200]
    static let heights = [0, 1, 2, 3, 5]

    /// One of each widget with wide text, drawn in `theme`.
    static func widgets(_ theme: Theme) throws -> [any Widget] {
        let document = try Document.parse(title: "世界", format: .markdown,
                                           text: "# 見出し 👩‍💻\n\n本文のテキスト with words\n\n- 項目\n\n```\ncode 世界\n```")
        let model = try ProgressModel(value: 0.42, label: "読み込み 👩‍💻", currentValueLabel: "42 of 100 項目")
        let gutter = DocumentView.Gutter(side: .left, width: 2, markers: [0: .init("世", style: theme.accent)])
        var widgets: [any Widget] = [
            BorderBox(title: "タイトル 👩‍💻", titleOffset: -3, theme: theme),
            Spinner(frame: 7, label: "接続中", theme: theme),
            SwingTextView(text: "長い名前 👩‍💻 swings", offset: -3, style: theme.text),
            DocumentView(layout: Layout(document: document, width: 7), top: 0, query: "世界", gutter: gutter,
                         theme: theme),
            StatusLine(left: "読書会", right: "👩‍💻 42%", theme: theme),
            HelpOverlay(lines: [.init(key: "世", action: "界 👩‍💻")], title: "キー", theme: theme),
        ]
        for style in ProgressStyle.allCases {
            widgets.append(ProgressBar(model, style: style, tint: .red, frame: -3, theme: theme))
        }
        return widgets
    }

    @Test("widgets never draw outside their rectangle and never crash", arguments: themes.indices)
    func staysInside(themeIndex: Int) throws {
        let sentinel = Cell("x", style: Style(fg: .brightMagenta))
        for widget in try Self.widgets(Self.themes[themeIndex]) {
            for width in Self.widths {
                for height in Self.heights {
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

    @Test("widgets given a rectangle partly or wholly outside the buffer do not crash")
    func outsideBuffer() throws {
        for widget in try Self.widgets(.neon) {
            var buffer = Buffer(width: 10, height: 4)
            for area in [Rect(x: 7, y: 2, width: 20, height: 6), Rect(x: -5, y: -3, width: 12, height: 5),
                         Rect(x: 50, y: 50, width: 3, height: 3)] {
                widget.render(in: area, into: &buffer)
            }
            #expect(buffer.lines().count == 4)
        }
    }

    @Test("monochrome themes draw no colour in any widget, tints included", arguments: [2, 3])
    func noColour(themeIndex: Int) throws {
        let theme = Self.themes[themeIndex]
        for widget in try Self.widgets(theme) {
            let buffer = render(widget, width: 40, height: 5)
            #expect(isColorless(buffer), "\(type(of: widget))")
        }
    }
}
