import Foundation
import NeonLock
import Testing

struct LockedTests {
    /// Two threads adding 200,000 times each under the lock lose no addition.
    @Test func additionsFromTwoThreadsAreAllKept() {
        let total = Locked(0)
        let group = DispatchGroup()
        for _ in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                for _ in 0..<200_000 { total.withLock { $0 += 1 } }
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(total.withLock { $0 } == 400_000)
    }

    /// A body that throws leaves the lock free and the value as it left it.
    @Test func aThrowingBodyUnlocks() {
        struct Refused: Error {}
        let value = Locked([1, 2])
        #expect(throws: Refused.self) {
            try value.withLock { (numbers: inout [Int]) throws(Refused) in
                numbers.append(3)
                throw Refused()
            }
        }
        #expect(value.withLock { $0 } == [1, 2, 3])
    }

    /// A noncopyable value is held and moved out, as the transport's mailboxes are.
    @Test func holdsANoncopyableValue() {
        struct Token: ~Copyable { var number: Int }
        let slot = Locked<Token?>(Token(number: 7))
        let taken = slot.withLock { token -> Int? in
            guard let held = token.take() else { return nil }
            return held.number
        }
        #expect(taken == 7)
        #expect(slot.withLock { token in token == nil })
    }

    /// The package takes locks only through `Locked`: ThreadSanitizer cannot see
    /// `Synchronization.Mutex` on Linux, so one `Mutex` would bring back the
    /// reports scripts/tsan.sh fails on (docs/RELIABILITY.md).
    @Test func noMutexOutsideLocked() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var offenders: [String] = []
        var scanned = 0
        for folder in ["Sources", "Clients", "Tests"] {
            let enumerator = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                guard url.pathExtension == "swift", url.lastPathComponent != "LockedTests.swift" else { continue }
                let text = try String(contentsOf: url, encoding: .utf8)
                scanned += 1
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                    && (line.contains("Mutex<") || line.contains("Mutex(")) {
                    offenders.append("\(url.path.dropFirst(root.path.count + 1)):\(number + 1)")
                }
            }
        }
        #expect(offenders.isEmpty, "use NeonLock's Locked instead of Synchronization.Mutex at \(offenders.joined(separator: ", "))")
        #expect(scanned > 300, "only \(scanned) Swift files under \(root.path): the walk did not find the package")
    }
}
