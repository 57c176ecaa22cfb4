import NeonCore
import NeonTUI

extension DocumentPane {
    /// The key of the back-to-top button.
    public static let backToTopKey = "t"
    /// The reading bar's width when the screen has room for it.
    static let barWidth = 40

    /// Where the bottom indicator puts the bar, the back-to-top button or
    /// the wheel.
    public struct IndicatorPlacement: Equatable, Sendable {
        public var bar: Rect?
        /// Boxed beside the bar; a one-row `↑ top [t]` beside the wheel.
        public var button: Rect?
        public var wheel: Rect?
        /// At the bottom the wheel is a back-to-top button too.
        public var wheelGoesToTop = false

        /// Whether a click at (x, y) goes back to the top.
        public func goesToTop(x: Int, y: Int) -> Bool {
            button?.contains(x: x, y: y) == true || (wheelGoesToTop && wheel?.contains(x: x, y: y) == true)
        }
    }

    /// Back-to-top is on offer (button, clickable wheel): at the bottom of a
    /// document taller than the pane.
    public var offersBackToTop: Bool { layout != nil && position?.offersBackToTop == true }

    /// Where the indicator goes in `area` at `time`: the reading bar
    /// centred (the button boxed before it when on offer) while the reader
    /// moves, the wheel at the right once idle (with a one-row hint before
    /// it when on offer).
    public func indicatorPlacement(in area: Rect, at time: Duration) -> IndicatorPlacement {
        guard layout != nil, !area.isEmpty else { return IndicatorPlacement() }
        let button = BackToTopButton.size(key: Self.backToTopKey)
        if indicator.mode(at: time) == .wheel {
            let size = ProgressStyle.wheel.preferredSize
            let columns = Stack.horizontal([.fill(1), .length(size.width), .length(1)]).split(area)
            let wheel = Stack.vertical([.length(size.height)]).split(columns[1])[0]
            guard offersBackToTop else { return IndicatorPlacement(wheel: wheel) }
            let hintWidth = button.width - 4
            let left = Rect(x: area.x, y: wheel.y, width: wheel.x - area.x, height: wheel.height)
            let beside = Stack.horizontal([.fill(1), .length(hintWidth), .length(1)]).split(left)
            let hint = left.width >= hintWidth + 1 ? beside[1].row(wheel.height / 2) : nil
            return IndicatorPlacement(button: hint, wheel: wheel, wheelGoesToTop: true)
        }
        guard offersBackToTop else {
            let bar = Stack.horizontal([.fill(1), .length(Self.barWidth), .fill(1)]).split(area)[1]
            return IndicatorPlacement(bar: bar)
        }
        let row = Stack.horizontal([.fill(1), .length(button.width), .length(1), .length(Self.barWidth), .fill(1)]).split(area)
        return IndicatorPlacement(bar: row[3], button: row[1])
    }

    /// Draws the indicator into `area` at `time`.
    func renderIndicator(in area: Rect, at time: Duration, theme: Theme, into buffer: inout Buffer) {
        let place = indicatorPlacement(in: area, at: time)
        guard let model = try? ProgressModel(value: position?.progress ?? 0) else { return }
        if let wheel = place.wheel {
            ProgressBar(model, style: .wheel, theme: theme).render(in: wheel, into: &buffer)
        }
        if let bar = place.bar {
            ProgressBar(model, style: .reading, theme: theme).render(in: bar, into: &buffer)
        }
        if let button = place.button {
            BackToTopButton(key: Self.backToTopKey, theme: theme).render(in: button, into: &buffer)
        }
    }
}
