import Testing
@testable import NeonCore

@Suite("Swing text")
struct SwingMotionTests {
    @Test("text that fits stands still forever")
    func fits() {
        let s = SwingMotion(textWidth: 10, fieldWidth: 10, padding: 4)
        #expect(!s.swings && s.amplitude == 0)
        for t in stride(from: 0, to: 20_000, by: 250) {
            #expect(s.offset(at: .milliseconds(t)) == 0)
        }
    }

    @Test("a wide text eases to −(W + P − F) in a 2 s leg, rests, and eases back")
    func swings() {
        let s = SwingMotion(textWidth: 30, fieldWidth: 20, padding: 2)
        #expect(s.amplitude == 12)
        #expect(s.offset(at: .zero) == 0)
        #expect(s.offset(at: .milliseconds(999)) == 0)
        #expect(s.offset(at: .seconds(2)) == -6)
        #expect(s.offset(at: .seconds(3)) == -12)
        #expect(s.offset(at: .milliseconds(3500)) == -12)
        #expect(s.offset(at: .seconds(5)) == -6)
        #expect(s.offset(at: .seconds(6)) == 0)
        #expect(s.period == .seconds(6))
        #expect(s.offset(at: .seconds(8)) == -6)
    }

    @Test("the offset never leaves 0 … −amplitude")
    func bounded() {
        let s = SwingMotion(textWidth: 57, fieldWidth: 13, padding: 3)
        for t in stride(from: 0, to: 30_000, by: 37) {
            let o = s.offset(at: .milliseconds(t))
            #expect(o <= 0 && o >= -s.amplitude)
        }
    }
}

@Suite("Progress model and spinner")
struct ProgressModelTests {
    @Test("30 of 100 is 0.3 and reads 30%")
    func determinate() throws {
        let p = try ProgressModel(value: 30, total: 100, label: "Processing…")
        #expect(p.fraction == 0.3)
        #expect(p.percent == 30)
        #expect(p.valueText == "30%")
        #expect(p.label == "Processing…")
        #expect(try ProgressModel(value: 0.29).percent == 29)
    }

    @Test("the total defaults to 1 and values outside clamp")
    func clamps() throws {
        #expect(try ProgressModel(value: 0.5).fraction == 0.5)
        #expect(try ProgressModel(value: -3).fraction == 0)
        #expect(try ProgressModel(value: 7, total: 5).fraction == 1)
    }

    @Test("NaN, infinities and a non-positive total are refused")
    func refuses() {
        #expect(throws: ProgressError.notANumber(field: "value")) { try ProgressModel(value: .nan) }
        #expect(throws: ProgressError.notANumber(field: "value")) { try ProgressModel(value: .infinity) }
        #expect(throws: ProgressError.notANumber(field: "total")) { try ProgressModel(value: 1, total: .nan) }
        #expect(throws: ProgressError.totalNotPositive(0)) { try ProgressModel(value: 1, total: 0) }
    }

    @Test("indeterminate progress has no fraction and a custom value label wins")
    func indeterminate() throws {
        let p = ProgressModel(indeterminateLabel: "Connecting…")
        #expect(p.fraction == nil && p.percent == nil && p.valueText == nil)
        #expect(try ProgressModel(value: 1, total: 4, currentValueLabel: "1 of 4").valueText == "1 of 4")
    }

    @Test("the spinner frame is a function of time")
    func spinner() {
        let s = SpinnerClock(frameCount: 8, interval: .milliseconds(100))
        #expect(s.frame(at: .zero) == 0)
        #expect(s.frame(at: .milliseconds(99)) == 0)
        #expect(s.frame(at: .milliseconds(100)) == 1)
        #expect(s.frame(at: .milliseconds(850)) == 0)
        #expect(s.nextFrame(after: .milliseconds(850)) == .milliseconds(900))
    }
}

extension SpyPlace {
    /// A place in the middle of a long document whose top row is in `section`.
    static func middle(_ section: Int) -> SpyPlace {
        SpyPlace(sectionAtTop: section, lastSection: 9, atBottom: false, scrolls: true)
    }
}

@Suite("Scroll-spy and tab header")
struct ScrollSpyTests {
    @Test("scrolling makes the section at the top current, with source scrolled")
    func spy() {
        var spy = ScrollSpy()
        do { let changed = spy.observe(.middle(0), at: .seconds(1)); #expect(!changed) }
        do { let changed = spy.observe(.middle(2), at: .seconds(2)); #expect(changed) }
        #expect(spy.current == 2 && spy.source == .scrolled)
    }

    @Test("a chosen tab holds while its animation passes other sections")
    func selectedHolds() {
        var spy = ScrollSpy()
        spy.select(4, at: .seconds(10), until: .seconds(12))
        #expect(spy.current == 4 && spy.source == .selected)
        do { let changed = spy.observe(.middle(1), at: .milliseconds(10_300)); #expect(!changed) }
        do { let changed = spy.observe(.middle(2), at: .milliseconds(10_900)); #expect(!changed) }
        #expect(spy.current == 4 && spy.source == .selected)
        do { let changed = spy.observe(.middle(4), at: .milliseconds(11_400)); #expect(!changed) }
        #expect(spy.hold == nil)
        do { let changed = spy.observe(.middle(3), at: .seconds(13)); #expect(changed) }
        #expect(spy.current == 3 && spy.source == .scrolled)
    }

    @Test("when the hold times out the spy follows the scroll again")
    func holdExpires() {
        var spy = ScrollSpy()
        spy.select(4, at: .seconds(10), until: .seconds(12))
        do { let changed = spy.observe(.middle(1), at: .milliseconds(11_999)); #expect(!changed) }
        do { let changed = spy.observe(.middle(1), at: .seconds(12)); #expect(changed) }
        #expect(spy.current == 1)
    }

    @Test("the tab strip keeps the current tab visible with the smallest move")
    func tabStrip() {
        let widths = [6, 10, 4, 12, 8]
        #expect(TabStrip.starts(widths: widths, spacing: 3) == [0, 9, 22, 29, 44])
        #expect(TabStrip.scrollOffset(widths: widths, spacing: 3, current: 0, viewWidth: 20, previous: 0) == 0)
        #expect(TabStrip.scrollOffset(widths: widths, spacing: 3, current: 3, viewWidth: 20, previous: 0) == 21)
        #expect(TabStrip.scrollOffset(widths: widths, spacing: 3, current: 2, viewWidth: 20, previous: 21) == 21)
        #expect(TabStrip.scrollOffset(widths: widths, spacing: 3, current: 1, viewWidth: 20, previous: 21) == 9)
        #expect(TabStrip.scrollOffset(widths: widths, spacing: 3, current: 4, viewWidth: 20, previous: 0) == 32)
        #expect(TabStrip.scrollOffset(widths: widths, spacing: 3, current: 3, viewWidth: 5, previous: 0) == 29)
        #expect(TabStrip.scrollOffset(widths: [], spacing: 3, current: 0, viewWidth: 20, previous: 5) == 0)
        #expect(TabStrip.scrollOffset(widths: widths, spacing: 3, current: 2, viewWidth: 0, previous: 5) == 0)
    }
}

extension SpinnerClock {
    /// When the next frame starts: the frames change on whole intervals.
    func nextFrame(after time: Duration) -> Duration {
        let step = time.inNanoseconds / interval.inNanoseconds + 1
        return .nanoseconds(step * interval.inNanoseconds)
    }
}
