/// The presenter brought the detached followers back (`summon` message,
/// added after v1): `by` and `name` are the presenter's, `members` the
/// followers it brought back, each following again (a `follow` broadcast
/// with `on` true came for each just before).
public struct SummonInfo: Codable, Equatable, Sendable {
    public var by: ClientID
    public var name: String
    public var members: [ClientID]

    public init(by: ClientID, name: String, members: [ClientID]) {
        self.by = by
        self.name = name
        self.members = members
    }
}
