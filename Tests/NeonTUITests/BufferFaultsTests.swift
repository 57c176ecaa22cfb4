import NeonCore
import NeonTUI
import Testing

/// A widget that draws where it is told, whatever its area: for the faults
/// `Widget.render` counts.
private struct Careless: Widget {
    var draw: (Rect, inout Buffer) -> Void

    func draw(in area: Rect, into buffer: inout Buffer) {
        draw(area, &buffer)
    }
}

@Suite("A widget draws only in its area, and a cut text ends in …")
struct BufferFaultsTests {
    @Test("writes a widget aims outside its area are dropped and counted; the cells around it keep what they had")
    func strays() {
        var buffer = Buffer(width: 10, height: 4)
        buffer.fill(buffer.area, style: .plain, character: "x")
        Careless { area, buffer in
            buffer.write("far too long", x: area.x, y: area.y, style: .plain)
            buffer.set("!", x: area.maxX, y: area.y)
            buffer.fill(Rect(x: area.x, y: area.y + 1, width: area.width, height: 3), style: .plain, character: "o")
        }.render(in: Rect(x: 2, y: 1, width: 4, height: 2), into: &buffer)
        #expect(buffer.lines() == ["xxxxxxxxxx", "xxfar xxxx", "xxooooxxxx", "xxxxxxxxxx"])
        #expect(buffer.faults.strays == 3 && buffer.faults.bareCuts == 0)
        #expect(buffer.faults.examples.first == "\"far too long\" at 2,1 12×1 outside 2,1 4×2")
    }

    @Test("a text cut short by its width is a bare cut, one cut with an ellipsis is none, a window on a text (clip:) is none")
    func cuts() {
        var buffer = Buffer(width: 20, height: 3)
        buffer.write("NeonSync wire protocol", x: 0, y: 0, maxWidth: 8)
        #expect(buffer.faults.bareCuts == 1 && buffer.faults.examples == ["\"NeonSync wire protocol\" cut at 0,0 without an ellipsis"])
        buffer.write("NeonSync wire protocol", x: 0, y: 1, maxWidth: 8, ellipsis: "…")
        buffer.write("NeonSync wire protocol", x: -3, y: 2, style: .plain, clip: 0..<8)
        buffer.write("fits", x: 0, y: 2, maxWidth: 4)
        #expect(buffer.lines() == ["NeonSync", "NeonSyn…", "fitsc wi"])
        #expect(buffer.faults.bareCuts == 1 && buffer.faults.strays == 0)
    }

    @Test("areas nest: a widget inside a widget draws only where both allow; the faults do not make buffers unequal")
    func nested() {
        var buffer = Buffer(width: 6, height: 1)
        Careless { area, buffer in
            buffer.clipped(to: Rect(x: 0, y: 0, width: 6, height: 1)) { inner in
                inner.write("abcdef", x: 0, y: 0, style: .plain, maxWidth: 6)
            }
        }.render(in: Rect(x: 1, y: 0, width: 3, height: 1), into: &buffer)
        #expect(buffer.lines() == [" bcd"])
        #expect(buffer.faults.strays == 1)
        var same = Buffer(width: 6, height: 1)
        same.write(" bcd", x: 0, y: 0)
        #expect(same == buffer)
    }
}
