extension TextOperation {
    /// The operation that turns `old` into `new` keeping every Unicode
    /// scalar it can, in order: a shortest edit script (Myers, "An O(ND)
    /// Difference Algorithm and Its Variations", 1986), so that what the two
    /// share is retained, not deleted and inserted again. A client moves
    /// its unacknowledged edits onto a text whose history it does not have
    /// with it: an edit of its own that deletes a shared character still
    /// deletes it, and its inserts land between the same neighbours.
    ///
    /// Past `limit` differing scalars it stops looking and replaces the
    /// stretch between the common prefix and suffix, as
    /// `difference(from:to:)` does (the search costs about `limit`² in time
    /// and memory).
    public static func changes(from old: String, to new: String, limit: Int = 1024) -> TextOperation {
        let before = Array(old.unicodeScalars)
        let after = Array(new.unicodeScalars)
        let shorter = min(before.count, after.count)
        var prefix = 0
        while prefix < shorter, before[prefix] == after[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, before[before.count - 1 - suffix] == after[after.count - 1 - suffix] {
            suffix += 1
        }
        let x = Array(before[prefix ..< before.count - suffix])
        let y = Array(after[prefix ..< after.count - suffix])
        guard let steps = shortestEdit(from: x, to: y, limit: limit) else {
            return difference(from: old, to: new)
        }
        var operation = TextOperation()
        operation.retain(prefix)
        for step in steps {
            switch step {
            case .keep: operation.retain(1)
            case let .insert(scalar): operation.insert(String(scalar), scalarCount: 1)
            case .delete: operation.delete(1)
            }
        }
        operation.retain(suffix)
        return operation
    }

    private enum EditStep {
        case keep
        case insert(Unicode.Scalar)
        case delete
    }

    /// Myers' greedy search for the fewest inserts and deletes that turn
    /// `x` into `y`, in order; nil when more than `limit` are needed.
    private static func shortestEdit(from x: [Unicode.Scalar], to y: [Unicode.Scalar], limit: Int) -> [EditStep]? {
        let n = x.count
        let m = y.count
        let most = min(n + m, limit)
        // v[k + offset]: the furthest x reached on diagonal k (x - y = k).
        let offset = most + 1
        var v = [Int](repeating: 0, count: 2 * most + 3)
        // The diagonals -d ... d of v before step d, for the way back.
        var trace: [[Int]] = []
        var found: Int?
        search: for d in 0 ... most {
            trace.append(Array(v[(offset - d - 1) ... (offset + d + 1)]))
            for k in stride(from: -d, through: d, by: 2) {
                var px = k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])
                    ? v[offset + k + 1] : v[offset + k - 1] + 1
                var py = px - k
                while px < n, py < m, x[px] == y[py] {
                    px += 1
                    py += 1
                }
                v[offset + k] = px
                if px >= n, py >= m {
                    found = d
                    break search
                }
            }
        }
        guard let found else { return nil }
        var steps: [EditStep] = []
        var px = n
        var py = m
        for d in stride(from: found, through: 0, by: -1) {
            let saved = trace[d]
            // saved[i] is v[offset + i - d - 1].
            func furthest(_ k: Int) -> Int { saved[k + d + 1] }
            let k = px - py
            let previousK = k == -d || (k != d && furthest(k - 1) < furthest(k + 1)) ? k + 1 : k - 1
            let previousX = d == 0 ? 0 : furthest(previousK)
            let previousY = d == 0 ? 0 : previousX - previousK
            while px > previousX, py > previousY {
                steps.append(.keep)
                px -= 1
                py -= 1
            }
            if d > 0 {
                if px == previousX {
                    steps.append(.insert(y[previousY]))
                } else {
                    steps.append(.delete)
                }
            }
            px = previousX
            py = previousY
        }
        return steps.reversed()
    }

    /// Whether applying it changes nothing (it only retains).
    public var isNoop: Bool {
        components.allSatisfy { if case .retain = $0 { true } else { false } }
    }
}
