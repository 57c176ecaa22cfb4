/// A message from a client (wire protocol v1, docs/PROTOCOL.md).
public enum ClientMessage: Equatable, Sendable {
    /// Must come first: join `room` as `name` in `role`. `profile` chooses
    /// the draft's counting profile when this hello creates the room.
    /// `draftRev`: the draft revision a reconnecting client already has; the
    /// welcome then lists the edits it missed.
    /// `token`: the room token a server with a secret requires (see
    /// docs/PROTOCOL.md); the hub never sees it, the server checks it first.
    /// `resume`: a random secret the client chose once for its session and
    /// sends with every hello of it; a member of the room holding the same
    /// secret (the client's own earlier connection, not yet known to be
    /// gone) leaves first and this connection takes its place.
    /// `notes` (added after v1): the connection is a presenter's speaker
    /// notes screen, an observer the room's audience does not list.
    case hello(room: String, name: String, role: Role, profile: CountingProfile? = nil, draftRev: Int? = nil,
               token: String? = nil, resume: String? = nil, notes: Bool? = nil)
    /// Set the room's document (when it has none, or from the presenter).
    /// `parser` (added after v1): how the sender numbers blocks, `Document.parserIdentity`.
    /// `images` (added after v1): the pictures that travel with it;
    /// `unshown` (added after v1): the local pictures that did not, with why.
    /// `revises` (added after v1): a new version of the room's document,
    /// the version the sender had; everyone keeps their place.
    case document(title: String, format: DocumentFormat, text: String, parser: String? = nil, images: [DocumentImage] = [],
                  unshown: [UnshownImage] = [], revises: Int? = nil)
    /// The sender's own layout in rows plus the width-independent anchor.
    /// `step` (added after v1): the sender shows the document as slides, on
    /// the slide holding `anchor`, revealed to this step (see Slides).
    case scroll(top: Int, viewport: Int, content: Int, anchor: Anchor, step: Int? = nil)
    /// Choose a section.
    case tab(section: Int)
    /// Follow the presenter, or stop.
    case follow(on: Bool)
    /// A draft edit in ot.js form against revision `rev`.
    /// `key`: a client-chosen id, unique per edit, that makes a resent edit
    /// count once.
    case edit(rev: Int, ops: TextOperation, key: String? = nil)
    /// The sender's cursor in the draft moved (in scalars, at revision `rev`).
    case cursor(position: Int, rev: Int)
    /// An application message for everyone in the room, the sender too, as
    /// it is: not stored, not logged, not interpreted (server-relayed
    /// signalling; also the broadcast path of the relay benchmark).
    case relay(data: String)
    /// Point at a passage (added after v1): `length` characters of block
    /// `anchor.block` from `anchor.offset`; moves the sender's pointer (the
    /// presenter's is the room's lead pointer).
    case point(anchor: Anchor, length: Int)
    /// Clear the sender's pointer (added after v1).
    case unpoint
    /// From the presenter (added after v1): who else may point in the room.
    case pointing(who: PointingRule)
    /// Ask a question on a passage (added after v1): `length` characters of
    /// block `anchor.block` from `anchor.offset`, as `point` marks one.
    case ask(anchor: Anchor, length: Int, text: String)
    /// Mark question `question` (its number) answered (added after v1):
    /// from its asker (the same name) or the presenter.
    case answered(question: Int)
    /// From the presenter (added after v1): the output so far of the
    /// snippet in code block `block`, which its machine runs; it replaces
    /// the block's earlier output (see `SnippetOutput`).
    case output(block: Int, text: String, state: SnippetOutput.State, exit: Int? = nil)
    /// From the presenter (added after v1): bring every detached follower
    /// back to the presenter's place.
    case summon

    /// The wire `type` of this message.
    public var type: String { kind.rawValue }

    /// Which message this is: its wire `type`.
    public var kind: Kind {
        switch self {
        case .hello: .hello
        case .document: .document
        case .scroll: .scroll
        case .tab: .tab
        case .follow: .follow
        case .edit: .edit
        case .cursor: .cursor
        case .relay: .relay
        case .point: .point
        case .unpoint: .unpoint
        case .pointing: .pointing
        case .ask: .ask
        case .answered: .answered
        case .output: .output
        case .summon: .summon
        }
    }

    /// The client messages' wire `type`s, listed once: the decoder, the
    /// unknown-type error and the server's metrics all read this.
    public enum Kind: String, CaseIterable, Sendable {
        case hello, document, scroll, tab, follow, edit, cursor, relay, point, unpoint, pointing, ask, answered, output, summon
    }
}

extension ClientMessage: Codable {
    enum Key: String, CodingKey {
        case type, room, name, role, profile, draftRev, token, resume, notes, key, title, format, text, parser, images, unshown, revises
        case top, viewport, content, anchor, section, on, rev, ops, position, data, length, who, step, question
        case block, state, exit
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let type = try c.decode(String.self, forKey: .type)
        guard let kind = Kind(rawValue: type) else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "unknown type")
        }
        switch kind {
        case .hello:
            self = .hello(room: try c.decode(String.self, forKey: .room),
                          name: try c.decode(String.self, forKey: .name),
                          role: try c.decode(Role.self, forKey: .role),
                          profile: try c.decodeIfPresent(CountingProfile.self, forKey: .profile),
                          draftRev: try c.decodeIfPresent(Int.self, forKey: .draftRev),
                          token: try c.decodeIfPresent(String.self, forKey: .token),
                          resume: try c.decodeIfPresent(String.self, forKey: .resume),
                          notes: try c.decodeIfPresent(Bool.self, forKey: .notes))
        case .document:
            self = .document(title: try c.decode(String.self, forKey: .title),
                             format: try c.decode(DocumentFormat.self, forKey: .format),
                             text: try c.decode(String.self, forKey: .text),
                             parser: try c.decodeIfPresent(String.self, forKey: .parser),
                             images: try c.decodeIfPresent([DocumentImage].self, forKey: .images) ?? [],
                             unshown: try c.decodeIfPresent([UnshownImage].self, forKey: .unshown) ?? [],
                             revises: try c.decodeIfPresent(Int.self, forKey: .revises))
        case .scroll:
            self = .scroll(top: try c.decode(Int.self, forKey: .top),
                           viewport: try c.decode(Int.self, forKey: .viewport),
                           content: try c.decode(Int.self, forKey: .content),
                           anchor: try c.decode(Anchor.self, forKey: .anchor),
                           step: try c.decodeIfPresent(Int.self, forKey: .step))
        case .tab:
            self = .tab(section: try c.decode(Int.self, forKey: .section))
        case .follow:
            self = .follow(on: try c.decode(Bool.self, forKey: .on))
        case .edit:
            self = .edit(rev: try c.decode(Int.self, forKey: .rev),
                         ops: try c.decode(TextOperation.self, forKey: .ops),
                         key: try c.decodeIfPresent(String.self, forKey: .key))
        case .cursor:
            self = .cursor(position: try c.decode(Int.self, forKey: .position),
                           rev: try c.decode(Int.self, forKey: .rev))
        case .relay:
            self = .relay(data: try c.decode(String.self, forKey: .data))
        case .point:
            self = .point(anchor: try c.decode(Anchor.self, forKey: .anchor),
                          length: try c.decode(Int.self, forKey: .length))
        case .unpoint:
            self = .unpoint
        case .pointing:
            self = .pointing(who: try c.decode(PointingRule.self, forKey: .who))
        case .ask:
            self = .ask(anchor: try c.decode(Anchor.self, forKey: .anchor),
                        length: try c.decode(Int.self, forKey: .length),
                        text: try c.decode(String.self, forKey: .text))
        case .answered:
            self = .answered(question: try c.decode(Int.self, forKey: .question))
        case .output:
            self = .output(block: try c.decode(Int.self, forKey: .block),
                           text: try c.decode(String.self, forKey: .text),
                           state: try c.decode(SnippetOutput.State.self, forKey: .state),
                           exit: try c.decodeIfPresent(Int.self, forKey: .exit))
        case .summon:
            self = .summon
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(type, forKey: .type)
        switch self {
        case let .hello(room, name, role, profile, draftRev, token, resume, notes):
            try c.encode(room, forKey: .room)
            try c.encode(name, forKey: .name)
            try c.encode(role, forKey: .role)
            try c.encodeIfPresent(profile, forKey: .profile)
            try c.encodeIfPresent(draftRev, forKey: .draftRev)
            try c.encodeIfPresent(token, forKey: .token)
            try c.encodeIfPresent(resume, forKey: .resume)
            try c.encodeIfPresent(notes, forKey: .notes)
        case let .document(title, format, text, parser, images, unshown, revises):
            try c.encode(title, forKey: .title)
            try c.encode(format, forKey: .format)
            try c.encode(text, forKey: .text)
            try c.encodeIfPresent(parser, forKey: .parser)
            if !images.isEmpty { try c.encode(images, forKey: .images) }
            if !unshown.isEmpty { try c.encode(unshown, forKey: .unshown) }
            try c.encodeIfPresent(revises, forKey: .revises)
        case let .scroll(top, viewport, content, anchor, step):
            try c.encode(top, forKey: .top)
            try c.encode(viewport, forKey: .viewport)
            try c.encode(content, forKey: .content)
            try c.encode(anchor, forKey: .anchor)
            try c.encodeIfPresent(step, forKey: .step)
        case let .tab(section):
            try c.encode(section, forKey: .section)
        case let .follow(on):
            try c.encode(on, forKey: .on)
        case let .edit(rev, ops, key):
            try c.encode(rev, forKey: .rev)
            try c.encode(ops, forKey: .ops)
            try c.encodeIfPresent(key, forKey: .key)
        case let .cursor(position, rev):
            try c.encode(position, forKey: .position)
            try c.encode(rev, forKey: .rev)
        case let .relay(data):
            try c.encode(data, forKey: .data)
        case let .point(anchor, length):
            try c.encode(anchor, forKey: .anchor)
            try c.encode(length, forKey: .length)
        case .unpoint:
            break
        case let .pointing(who):
            try c.encode(who, forKey: .who)
        case let .ask(anchor, length, text):
            try c.encode(anchor, forKey: .anchor)
            try c.encode(length, forKey: .length)
            try c.encode(text, forKey: .text)
        case let .answered(question):
            try c.encode(question, forKey: .question)
        case let .output(block, text, state, exit):
            try c.encode(block, forKey: .block)
            try c.encode(text, forKey: .text)
            try c.encode(state, forKey: .state)
            try c.encodeIfPresent(exit, forKey: .exit)
        case .summon:
            break
        }
    }
}
