import NeonTUI
import Testing

@Suite("Stack, the constraint layout")
struct StackTests {
    @Test("mixed constraints give exact rectangles: fixed rows first, the fill takes the rest")
    func mixed() {
        let screen = Rect(width: 80, height: 24)
        #expect(Stack.vertical([.length(1), .fill(1), .length(3)]).split(screen) == [
            Rect(x: 0, y: 0, width: 80, height: 1),
            Rect(x: 0, y: 1, width: 80, height: 20),
            Rect(x: 0, y: 21, width: 80, height: 3),
        ])
        let row = Rect(x: 5, y: 7, width: 100, height: 2)
        #expect(Stack.horizontal([.percentage(25), .min(10), .fill(1), .length(30)]).split(row) == [
            Rect(x: 5, y: 7, width: 25, height: 2),
            Rect(x: 30, y: 7, width: 10, height: 2),
            Rect(x: 40, y: 7, width: 35, height: 2),
            Rect(x: 75, y: 7, width: 30, height: 2),
        ])
    }

    @Test("with no fill the mins share what is left evenly; with neither it stays unused at the end")
    func minsGrow() {
        let row = Rect(width: 21, height: 1)
        #expect(Stack.horizontal([.min(2), .length(4), .min(5)]).split(row).map(\.width) == [7, 4, 10])
        #expect(Stack.horizontal([.min(2), .fill(1)]).split(row).map(\.width) == [2, 19])
        #expect(Stack.horizontal([.length(4), .percentage(50)]).split(row) == [
            Rect(x: 0, y: 0, width: 4, height: 1), Rect(x: 4, y: 0, width: 10, height: 1),
        ])
    }

    @Test("on an area smaller than the lengths ask, later areas shrink to 0 and none is negative")
    func overConstrained() {
        let short = Rect(x: 0, y: 10, width: 30, height: 5)
        #expect(Stack.vertical([.length(3), .fill(1), .length(4), .length(2)]).split(short) == [
            Rect(x: 0, y: 10, width: 30, height: 3),
            Rect(x: 0, y: 13, width: 30, height: 0),
            Rect(x: 0, y: 13, width: 30, height: 2),
            Rect(x: 0, y: 15, width: 30, height: 0),
        ])
        #expect(Stack.horizontal([.length(-3), .percentage(250), .min(-1), .fill(-2)]).split(Rect(width: 8, height: 1))
            .map(\.width) == [0, 8, 0, 0])
    }

    @Test("a zero-size area splits into empty rectangles at its corner")
    func zeroSize() {
        let empty = Rect(x: 4, y: 2, width: 0, height: 0)
        let parts = Stack.vertical([.length(1), .fill(1), .min(2), .percentage(50)]).split(empty)
        #expect(parts == Array(repeating: Rect(x: 4, y: 2, width: 0, height: 0), count: 4))
        #expect(Stack.horizontal([]).split(Rect(width: 10, height: 3)) == [])
        #expect(Stack.horizontal([.fill(1), .fill(2)]).split(Rect(x: 1, y: 1, width: 0, height: 3))
            .allSatisfy { $0 == Rect(x: 1, y: 1, width: 0, height: 3) })
    }

    @Test("fills share by weight, the cells left by rounding down going to the later ones", arguments: [
        (10, [1, 1, 1], [3, 3, 4]), (11, [1, 1], [5, 6]), (2, [1, 1, 1], [0, 1, 1]),
        (10, [1, 3], [2, 8]), (7, [2, 0, 1], [4, 0, 3]), (0, [1, 1], [0, 0]),
    ])
    func weights(width: Int, weights: [Int], expected: [Int]) {
        let parts = Stack.horizontal(weights.map { .fill($0) }).split(Rect(width: width, height: 1))
        #expect(parts.map(\.width) == expected)
        #expect(parts.map(\.x) == expected.indices.map { expected.prefix($0).reduce(0, +) })
    }

    @Test("two equal fills around a length centre it, leaning left like Rect.centered")
    func centring() {
        let row = Rect(x: 2, y: 0, width: 15, height: 3)
        let middle = Stack.horizontal([.fill(1), .length(6), .fill(1)]).split(row)[1]
        #expect(middle == row.centered(width: 6, height: 3))
        #expect(middle == Rect(x: 6, y: 0, width: 6, height: 3))
    }
}
