import Testing
@testable import NeonCore

@Suite("Reading position")
struct ReadingPositionTests {
    @Test("progress is top over the scrollable range, percent rounds down")
    func progressAndPercent() throws {
        let p = try ReadingPosition(top: 29, viewport: 20, content: 120)
        #expect(p.progress == 0.29)
        #expect(p.percent == 29)
        #expect(!p.atBottom)
        let third = try ReadingPosition(top: 1, viewport: 0, content: 3)
        #expect(third.percent == 33)
    }

    @Test("percent never loses a point to floating point (every top of a 100-row range)")
    func percentIsExact() throws {
        for top in 0...100 {
            let p = try ReadingPosition(top: top, viewport: 10, content: 110)
            #expect(p.percent == top)
        }
    }

    @Test("the last scrollable row is the bottom: 100% and atBottom")
    func bottom() throws {
        let p = try ReadingPosition(top: 100, viewport: 20, content: 120)
        #expect(p.progress == 1)
        #expect(p.percent == 100)
        #expect(p.atBottom)
        let before = try ReadingPosition(top: 99, viewport: 20, content: 120)
        #expect(before.percent == 99)
        #expect(!before.atBottom)
    }

    @Test("back-to-top is offered at the bottom of a document that scrolls, never when it fits")
    func backToTop() throws {
        #expect(try ReadingPosition(top: 100, viewport: 20, content: 120).offersBackToTop)
        #expect(try !ReadingPosition(top: 99, viewport: 20, content: 120).offersBackToTop)
        #expect(try !ReadingPosition(top: 0, viewport: 40, content: 40).offersBackToTop)
        #expect(try !ReadingPosition(top: 0, viewport: 40, content: 12).offersBackToTop)
        #expect(try ReadingPosition(top: 1, viewport: 40, content: 41).offersBackToTop)
    }

    @Test("content equal to the viewport is 100% at the bottom, unlike the seed's 0%")
    func contentEqualsViewport() throws {
        let p = try ReadingPosition(top: 0, viewport: 40, content: 40)
        #expect(p.progress == 1)
        #expect(p.percent == 100)
        #expect(p.atBottom)
    }

    @Test("content shorter than the viewport is 100% at the bottom")
    func contentShorter() throws {
        let p = try ReadingPosition(top: 0, viewport: 40, content: 3)
        #expect(p.progress == 1 && p.percent == 100 && p.atBottom)
    }

    @Test("zero rows everywhere is an empty document, fully read")
    func zeroRows() throws {
        let p = try ReadingPosition(top: 0, viewport: 0, content: 0)
        #expect(p.percent == 100 && p.atBottom)
        let noViewport = try ReadingPosition(top: 5, viewport: 0, content: 10)
        #expect(noViewport.percent == 50)
    }

    @Test("past the last scrollable row clamps progress to 1 (overscroll)")
    func overscroll() throws {
        let p = try ReadingPosition(top: 110, viewport: 20, content: 120)
        #expect(p.progress == 1 && p.percent == 100 && p.atBottom)
    }

    @Test("negative rows are refused with the field named")
    func negative() {
        #expect(throws: PositionError.negative(field: "top", value: -1)) {
            try ReadingPosition(top: -1, viewport: 20, content: 100)
        }
        #expect(throws: PositionError.negative(field: "viewport", value: -5)) {
            try ReadingPosition(top: 0, viewport: -5, content: 100)
        }
        #expect(throws: PositionError.negative(field: "content", value: -2)) {
            try ReadingPosition(top: 0, viewport: 1, content: -2)
        }
        #expect(PositionError.negative(field: "top", value: -1).description.contains("\"top\" is -1"))
    }

    @Test("absurd inputs are refused, not clamped")
    func absurd() {
        #expect(throws: PositionError.tooLarge(field: "content", value: Int.max, limit: ReadingPosition.maximumRows)) {
            try ReadingPosition(top: 0, viewport: 20, content: Int.max)
        }
        #expect(throws: PositionError.topBeyondContent(top: 500, content: 120)) {
            try ReadingPosition(top: 500, viewport: 20, content: 120)
        }
    }

    @Test("a huge document keeps exact integer percents")
    func huge() throws {
        let p = try ReadingPosition(top: 24_999_990, viewport: 10, content: 50_000_000)
        #expect(p.percent == 49)
        #expect(p.progress > 0.499 && p.progress < 0.5)
    }
}
