import NeonCore
@testable import NeonSimulation
import Testing

/// The simulation's checks can fail: a final draft that lost, repeated or
/// reordered a keystroke, or brought a deleted one back, is named.
@Suite("Draft simulation: the keystroke ledger")
struct KeystrokeLedgerTests {
    /// Two writers; writer0 typed a b c d, writer1 typed x y; writer0
    /// deleted c.
    func ledger() -> (KeystrokeLedger, [Unicode.Scalar], [Unicode.Scalar]) {
        var ledger = KeystrokeLedger(clients: 2)
        let mine = (0..<4).map { _ in ledger.fresh(for: 0)! }
        let theirs = (0..<2).map { _ in ledger.fresh(for: 1)! }
        var text = ""
        for scalar in mine {
            text.unicodeScalars.append(scalar)
            #expect(ledger.recordTyping(by: 0, after: text, typed: [scalar], moment: .joined).isEmpty)
        }
        let shared = text + String(String.UnicodeScalarView(theirs))
        #expect(ledger.recordTyping(by: 1, after: shared, typed: theirs, moment: .offline).isEmpty)
        var deleted = shared
        deleted.unicodeScalars.removeAll { $0 == mine[2] }
        ledger.recordDelete(before: shared, after: deleted)
        return (ledger, mine, theirs)
    }

    func text(_ scalars: [Unicode.Scalar]) -> String {
        String(String.UnicodeScalarView(scalars))
    }

    @Test("the draft the writers meant has no problems")
    func good() {
        let (ledger, mine, theirs) = ledger()
        #expect(ledger.problems(in: text([mine[0], mine[1], mine[3]] + theirs)).isEmpty)
        #expect(ledger.problems(in: text(theirs + [mine[0], mine[1], mine[3]])).isEmpty, "writers' runs may interleave")
    }

    @Test("a lost, repeated, revived or reordered keystroke, and one nobody typed, are each named")
    func bad() {
        let (ledger, mine, theirs) = ledger()
        let name = KeystrokeLedger.name
        #expect(ledger.problems(in: text([mine[0], mine[3]] + theirs)) == [
            "\(name(mine[1])) (writer0, typed joined) was lost",
            "writer0's characters are out of order after the first 1: the draft has \(name(mine[3])), its screen had \(name(mine[1])) \(name(mine[3]))",
        ])
        #expect(ledger.problems(in: text([mine[0], mine[1], mine[3]] + theirs + [theirs[1]])) == [
            "\(name(theirs[1])) (writer1, typed offline) is in the draft 2 times",
            "writer1's characters are out of order after the first 2: the draft has \(name(theirs[1])), its screen had nothing",
        ])
        #expect(ledger.problems(in: text([mine[0], mine[1], mine[2], mine[3]] + theirs)).first
            == "\(name(mine[2])) (writer0, typed joined) was deleted but the draft holds it 1 time(s)")
        #expect(ledger.problems(in: text([mine[1], mine[0], mine[3]] + theirs)).count == 1)
        #expect(ledger.problems(in: text([mine[0], mine[1], mine[3]] + theirs) + "x")
            == ["the draft holds U+78, which nobody typed"])
    }
}
