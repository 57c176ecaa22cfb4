/// What to tell someone who joined a room with no document while other
/// rooms exist: most likely a typo (`join tlak` beside `talk`).
public enum RoomSuggestions {
    /// The sentence for `room`, given the names of the server's rooms
    /// (short enough for the status line of a narrow terminal); nil when
    /// there is no other room.
    public static func sentence(for room: String, among rooms: [String]) -> String? {
        let others = Array(Set(rooms.filter { $0 != room })).sorted()
        guard !others.isEmpty else { return nil }
        let close = closest(to: room, among: others)
        if !close.isEmpty {
            return "no document in \(room); did you mean \(close.joined(separator: " or "))?"
        }
        let listed = others.prefix(3).joined(separator: ", ") + (others.count > 3 ? ", …" : "")
        return "no document in \(room); rooms: \(listed)"
    }

    /// The names at the smallest distance from `room`, if that distance is
    /// small for its length (one edit up to 5 characters, two up to 8,
    /// three beyond); at most three, alphabetically.
    public static func closest(to room: String, among names: [String]) -> [String] {
        let limit = max(1, min(3, room.count / 3))
        let scored = names.map { ($0, distance(room.lowercased(), $0.lowercased())) }.filter { $0.1 <= limit }
        guard let best = scored.map(\.1).min() else { return [] }
        return Array(scored.filter { $0.1 == best }.map(\.0).sorted().prefix(3))
    }

    /// Edits (insert, delete, substitute, swap two neighbours) from `a` to
    /// `b`: the optimal string alignment distance, over characters.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
