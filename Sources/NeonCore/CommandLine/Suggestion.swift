/// The closest of a few known words to a mistyped one, for "did you mean".
public enum Suggestion {
    /// The word of `candidates` fewest edits (insertions, deletions,
    /// substitutions, swaps of neighbours) away from `word`, when it is
    /// close enough to be the one meant: at most 2 edits, and fewer than
    /// half of the word's letters. Ties go to the first candidate.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let budget = min(2, (word.count - 1) / 2)
        guard budget > 0 else { return nil }
        var best: (word: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let distance = edits(Array(word), Array(candidate))
            if distance <= budget, distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        return best?.word
    }

    /// `did you mean read?`, or nothing.
    public static func sentence(for word: String, among candidates: [String]) -> String? {
        closest(to: word, among: candidates).map { "did you mean \($0)?" }
    }

    /// Optimal string alignment distance between `a` and `b`.
    static func edits(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
