/// Every keystroke of a run, each typing a character no other keystroke
/// types (CJK ideographs, a block of its own for each client), so the final
/// draft says what became of each: there once, unless someone deleted it;
/// and each client's characters in the order its own screen put them.
struct KeystrokeLedger {
    /// What the typist's connection was doing when the key was pressed.
    enum Moment: String, Sendable {
        /// Joined: the edit went out at once or behind the one in flight.
        case joined
        /// Between connections: the edit waits for the next welcome.
        case offline
        /// A connection opening, or its hello not yet welcomed.
        case connecting
    }

    struct Keystroke {
        let client: Int
        let moment: Moment
        /// Someone's own screen showed it deleted.
        var deleted = false
    }

    static let first: UInt32 = 0x4E00
    static let perClient: UInt32 = 4000

    private(set) var keystrokes: [Unicode.Scalar: Keystroke] = [:]
    /// Each client's own characters, not deleted, in the order its screen
    /// showed them: a character joins after the nearest one of its own to
    /// its left. Order between characters never changes once both are on a
    /// screen, so the final draft must show them in this order.
    private(set) var intended: [[Unicode.Scalar]]
    private var next: [UInt32]

    init(clients: Int) {
        precondition(UInt32(clients) * Self.perClient + Self.first <= 0x9FFF, "\(clients) clients need more ideographs")
        intended = Array(repeating: [], count: clients)
        next = Array(repeating: 0, count: clients)
    }

    /// A character for `client`'s next keystroke; nil once its block is used up.
    mutating func fresh(for client: Int) -> Unicode.Scalar? {
        guard next[client] < Self.perClient else { return nil }
        defer { next[client] += 1 }
        return Unicode.Scalar(Self.first + UInt32(client) * Self.perClient + next[client])
    }

    /// Whose keystroke `scalar` is, if it is one.
    func owner(of scalar: Unicode.Scalar) -> Int? {
        guard scalar.value >= Self.first else { return nil }
        let client = Int((scalar.value - Self.first) / Self.perClient)
        return client < intended.count ? client : nil
    }

    /// `client` deleted from its own text, which went from `before` to
    /// `after`: every keystroke gone from it was deleted.
    mutating func recordDelete(before: String, after: String) {
        let shown = Set(after.unicodeScalars.filter { owner(of: $0) != nil })
        for scalar in before.unicodeScalars where owner(of: scalar) != nil && !shown.contains(scalar) {
            keystrokes[scalar]?.deleted = true
            if let owner = owner(of: scalar) { intended[owner].removeAll { $0 == scalar } }
        }
    }

    /// `client` typed `typed` (in order) at `moment`, and its text is now
    /// `after`. Returns what its screen did wrong: a typed character it
    /// does not show.
    mutating func recordTyping(by client: Int, after: String, typed: [Unicode.Scalar], moment: Moment) -> [String] {
        var problems: [String] = []
        let scalars = Array(after.unicodeScalars)
        for scalar in typed {
            keystrokes[scalar] = Keystroke(client: client, moment: moment)
            guard let at = scalars.firstIndex(of: scalar) else {
                problems.append("writer\(client) typed \(Self.name(scalar)) and its screen does not show it")
                continue
            }
            // After the nearest character of its own to the left that it
            // still counts (one another writer deleted may not have left
            // this screen yet).
            var place = 0
            for left in scalars[..<at].reversed() where owner(of: left) == client {
                if let index = intended[client].firstIndex(of: left) {
                    place = index + 1
                    break
                }
            }
            intended[client].insert(scalar, at: place)
        }
        return problems
    }

    /// What is wrong with `text` as the final draft: keystrokes lost,
    /// repeated or back after a delete, a client's characters out of order,
    /// characters nobody typed.
    func problems(in text: String) -> [String] {
        var counts: [Unicode.Scalar: Int] = [:]
        var problems: [String] = []
        for scalar in text.unicodeScalars {
            if owner(of: scalar) != nil {
                counts[scalar, default: 0] += 1
            } else if scalar != " " {
                problems.append("the draft holds \(Self.name(scalar)), which nobody typed")
            }
        }
        for (scalar, keystroke) in keystrokes.sorted(by: { $0.key.value < $1.key.value }) {
            let count = counts[scalar] ?? 0
            let name = "\(Self.name(scalar)) (writer\(keystroke.client), typed \(keystroke.moment.rawValue))"
            if keystroke.deleted, count > 0 {
                problems.append("\(name) was deleted but the draft holds it \(count) time(s)")
            } else if !keystroke.deleted, count != 1 {
                problems.append(count == 0 ? "\(name) was lost" : "\(name) is in the draft \(count) times")
            }
        }
        for client in intended.indices {
            let shown = Array(text.unicodeScalars.filter { owner(of: $0) == client && keystrokes[$0]?.deleted == false })
            let meant = intended[client]
            if shown != meant {
                let same = zip(shown, meant).prefix { $0 == $1 }.count
                problems.append("writer\(client)'s characters are out of order after the first \(same): the draft has \(Self.names(shown[same...].prefix(6))), its screen had \(Self.names(meant[same...].prefix(6)))")
            }
        }
        return problems
    }

    /// How many keystrokes were typed at each moment.
    var moments: [Moment: Int] {
        keystrokes.values.reduce(into: [:]) { $0[$1.moment, default: 0] += 1 }
    }

    static func name(_ scalar: Unicode.Scalar) -> String {
        "U+\(String(scalar.value, radix: 16, uppercase: true))"
    }

    static func names(_ scalars: some Collection<Unicode.Scalar>) -> String {
        scalars.isEmpty ? "nothing" : scalars.map(name).joined(separator: " ")
    }
}
