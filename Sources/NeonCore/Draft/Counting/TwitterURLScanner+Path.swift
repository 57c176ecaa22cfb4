/// The path and query of twitter-text's URL expression.
///
/// Nothing after them is required, so each repetition of `validUrlPath`
/// ends where the engine first succeeds: after the last path-ending
/// character of the last run of path characters, or else after the last
/// balanced parenthesis before that run.
extension TwitterURLScanner {
    /// `\/validUrlPath*`, from the `/` at `slash`.
    func pathEnd(at slash: Int) -> Int {
        var end = slash + 1
        while let next = pathRepetitionEnd(at: end) { end = next }
        return end
    }

    /// One `validUrlPath`: path characters and balanced parentheses that
    /// end in a path-ending character or a balanced parenthesis.
    private func pathRepetitionEnd(at start: Int) -> Int? {
        var runStart = start
        var runEnd = pathRunEnd(from: start)
        var lastParenthesisEnd: Int?
        while let parenthesisEnd = balancedParenthesisEnd(at: runEnd) {
            lastParenthesisEnd = parenthesisEnd
            runStart = parenthesisEnd
            runEnd = pathRunEnd(from: parenthesisEnd)
        }
        let lastEnding = (runStart..<runEnd).last { TwitterURLCharacters.isPathEnding(text[$0]) }
        return lastEnding.map { $0 + 1 } ?? lastParenthesisEnd
    }

    /// `validUrlBalancedParens`: `(…)` around path characters, with at most
    /// one nested `(…)` inside.
    private func balancedParenthesisEnd(at open: Int) -> Int? {
        guard scalar(at: open) == "(" else { return nil }
        let inner = pathRunEnd(from: open + 1)
        if inner > open + 1, scalar(at: inner) == ")" { return inner + 1 }
        guard scalar(at: inner) == "(" else { return nil }
        let nested = pathRunEnd(from: inner + 1)
        guard nested > inner + 1, scalar(at: nested) == ")" else { return nil }
        let tail = pathRunEnd(from: nested + 1)
        return scalar(at: tail) == ")" ? tail + 1 : nil
    }

    private func pathRunEnd(from start: Int) -> Int {
        var end = start
        while let c = scalar(at: end), TwitterURLCharacters.isPathCharacter(c) { end += 1 }
        return end
    }

    /// `\?validUrlQueryChars*validUrlQueryEndingChars` from the `?` at
    /// `question`, within `limit`: up to the last query-ending character.
    func queryEnd(at question: Int, limit: Int) -> Int? {
        var runEnd = question + 1
        while runEnd < limit, TwitterURLCharacters.isQueryCharacter(text[runEnd]) { runEnd += 1 }
        let lastEnding = (question + 1..<runEnd).last { TwitterURLCharacters.isQueryEnding(text[$0]) }
        return lastEnding.map { $0 + 1 }
    }
}
