import Testing
@testable import NeonCore

@Suite("Bar and wheel indicator")
struct IndicatorTests {
    @Test("the bar shows until exactly 3 s after the last scroll, then the wheel")
    func idleEdge() {
        var i = Indicator(startingAt: .zero)
        i.scrolled(at: .milliseconds(700))
        #expect(i.mode(at: .milliseconds(3699)) == .bar)
        #expect(i.mode(at: .milliseconds(700) + .milliseconds(2999)) == .bar)
        #expect(i.mode(at: .milliseconds(3700)) == .wheel)
        #expect(i.nextChange(after: .seconds(1)) == .milliseconds(3700))
    }

    @Test("any scroll turns the wheel back into the bar")
    func scrollBack() {
        var i = Indicator(startingAt: .zero)
        #expect(i.mode(at: .seconds(10)) == .wheel)
        i.scrolled(at: .seconds(10))
        #expect(i.mode(at: .seconds(10)) == .bar)
        #expect(i.mode(at: .seconds(13)) == .wheel)
    }

    @Test("held input keeps the bar however long it is held; release restarts the timer")
    func heldInput() {
        var i = Indicator(startingAt: .zero)
        i.inputBegan(at: .seconds(1))
        #expect(i.mode(at: .seconds(60)) == .bar)
        #expect(i.nextChange(after: .seconds(60)) == nil)
        i.inputEnded(at: .seconds(60))
        #expect(i.mode(at: .milliseconds(62_999)) == .bar)
        #expect(i.mode(at: .seconds(63)) == .wheel)
    }

    @Test("an out-of-order older scroll does not rewind the timer")
    func monotonic() {
        var i = Indicator(startingAt: .seconds(5))
        i.scrolled(at: .seconds(1))
        #expect(i.lastActivity == .seconds(5))
    }
}

@Suite("Eased scroll animation")
struct ScrollAnimationTests {
    @Test("ease-in-out is symmetric, starts and ends flat, and is monotonic")
    func easing() {
        let e = Easing.easeInOut
        #expect(e.value(at: 0) == 0)
        #expect(e.value(at: 1) == 1)
        #expect(abs(e.value(at: 0.5) - 0.5) < 1e-6)
        #expect(abs(e.value(at: 0.25) + e.value(at: 0.75) - 1) < 1e-6)
        #expect(e.value(at: 0.1) < 0.1)
        var last = 0.0
        for step in 1...100 {
            let v = e.value(at: Double(step) / 100)
            #expect(v >= last)
            last = v
        }
    }

    @Test("a back-to-top runs 1.5 s from the current row to row 0")
    func backToTop() {
        let a = ScrollAnimation(from: 400, to: 0, start: .seconds(10))
        #expect(a.duration == .milliseconds(1500))
        #expect(a.position(at: .seconds(9)) == 400)
        #expect(a.position(at: .seconds(10)) == 400)
        #expect(a.position(at: .milliseconds(10_750)) == 200)
        let early = a.position(at: .milliseconds(10_150))
        #expect(early > 380 && early < 400)
        #expect(a.position(at: .milliseconds(11_500)) == 0)
        #expect(a.isFinished(at: .milliseconds(11_500)))
        #expect(!a.isFinished(at: .milliseconds(11_499)))
    }
}
