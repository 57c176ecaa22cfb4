/// A reader as the room sees them (`welcome.readers`, `joined`, `left`).
public struct ReaderInfo: Codable, Equatable, Hashable, Sendable {
    public var id: ClientID
    public var name: String
    public var role: Role
    public var percent: Int
    public var atBottom: Bool
    public var section: Int
    public var following: Bool
    /// `true` when the server vouches for `name`: the member connected on
    /// its Unix socket and `name` is their login name. Absent otherwise
    /// (added after v1; encoded only when true).
    public var verified: Bool?
    /// Where the member reads, as in their last `progress`: a newcomer's
    /// `welcome` places every reader (and a follower lands on its presenter)
    /// from the first frame. Absent until the member has a place (added
    /// after v1).
    public var anchor: Anchor?
    /// While the member shows slides (added after v1): their slide and step
    /// (`SlidePlace`, flattened), as in their last `progress`.
    public var slide: Int?
    public var slides: Int?
    public var step: Int?
    public var steps: Int?
    /// `true` for a presenter's speaker notes screen, an observer the
    /// room's audience does not list (added after v1; encoded only when true).
    public var notes: Bool?

    public init(id: ClientID, name: String, role: Role, percent: Int = 0,
                atBottom: Bool = false, section: Int = 0, following: Bool = false, verified: Bool = false,
                anchor: Anchor? = nil) {
        self.id = id; self.name = name; self.role = role; self.percent = percent
        self.atBottom = atBottom; self.section = section; self.following = following
        self.verified = verified ? true : nil
        self.anchor = anchor
    }

    /// Whether the server vouches for the name (see `verified`).
    public var isVerified: Bool { verified == true }

    /// Whether the member is a presenter's notes screen (see `notes`).
    public var isNotesScreen: Bool { notes == true }

    /// The member's place in the deck, while they show slides.
    public var slidePlace: SlidePlace? {
        get { SlidePlace(slide: slide, slides: slides, step: step, steps: steps) }
        set { (slide, slides, step, steps) = (newValue?.slide, newValue?.slides, newValue?.step, newValue?.steps) }
    }
}

/// The room's document as it crosses the wire.
///
/// `parser` (added after v1) names how the sender numbers the document's
/// blocks (`Document.parserIdentity`); anchors mean the same text only
/// between parties whose identities are equal. It is always encoded as this
/// process's own identity, decoded as the sender's ("" when it sent none),
/// and is not part of the document: two infos with the same title, format
/// and text are equal whoever parsed them.
public struct DocumentInfo: Codable, Equatable, Hashable, Sendable {
    public var title: String
    public var format: DocumentFormat
    public var text: String
    public var parser: String
    /// The pictures that travel with it (added after v1; absent when none).
    public var images: [DocumentImage]
    /// The local pictures that did not travel, each with the reason (added
    /// after v1; absent when none).
    public var unshown: [UnshownImage]
    /// The room's document version (added after v1): 1 for its first
    /// document, one more for every document published after it. Not part
    /// of the document either: absent from what a client publishes.
    public var version: Int?

    public init(title: String, format: DocumentFormat, text: String, parser: String = Document.parserIdentity,
                images: [DocumentImage] = [], unshown: [UnshownImage] = [], version: Int? = nil) {
        self.title = title; self.format = format; self.text = text; self.parser = parser; self.images = images
        self.unshown = unshown
        self.version = version
    }

    enum CodingKeys: String, CodingKey { case title, format, text, parser, images, unshown, version }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decode(String.self, forKey: .title)
        format = try c.decode(DocumentFormat.self, forKey: .format)
        text = try c.decode(String.self, forKey: .text)
        parser = try c.decodeIfPresent(String.self, forKey: .parser) ?? ""
        images = try c.decodeIfPresent([DocumentImage].self, forKey: .images) ?? []
        unshown = try c.decodeIfPresent([UnshownImage].self, forKey: .unshown) ?? []
        version = try c.decodeIfPresent(Int.self, forKey: .version)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(title, forKey: .title)
        try c.encode(format, forKey: .format)
        try c.encode(text, forKey: .text)
        try c.encode(Document.parserIdentity, forKey: .parser)
        if !images.isEmpty { try c.encode(images, forKey: .images) }
        if !unshown.isEmpty { try c.encode(unshown, forKey: .unshown) }
        try c.encodeIfPresent(version, forKey: .version)
    }

    /// Each image's size in pixels, by the name the Markdown gives it: what
    /// a layout sizes image boxes by (`Layout(document:width:images:)`).
    public var imageSizes: [String: ImageSize] {
        Dictionary(images.map { ($0.name, ImageSize(width: $0.width, height: $0.height)) }, uniquingKeysWith: { a, _ in a })
    }

    /// What a layout knows of the document's pictures: the sizes of those
    /// that travelled and why the others are not shown.
    public var pictures: ImageCatalog {
        ImageCatalog(sizes: imageSizes,
                     reasons: Dictionary(unshown.map { ($0.name, $0.reason) }, uniquingKeysWith: { a, _ in a }))
    }

    public static func == (a: DocumentInfo, b: DocumentInfo) -> Bool {
        a.title == b.title && a.format == b.format && a.text == b.text && a.images == b.images && a.unshown == b.unshown
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(title)
        hasher.combine(format)
        hasher.combine(text)
    }

    /// Whether the sender said it numbers blocks another way than this
    /// process: anchors to and from it may point to other text.
    public var numbersBlocksDifferently: Bool {
        !parser.isEmpty && parser != Document.parserIdentity
    }
}

/// The shared draft with its counter (`welcome.draft`).
public struct DraftInfo: Codable, Equatable, Hashable, Sendable {
    public var text: String
    public var rev: Int
    public var count: Int
    public var remaining: Int
    public var limit: Int
    public var level: LimitLevel
    /// How `count` is counted (added after v1's first fields; optional for
    /// servers that do not send it).
    public var profile: CountingProfile?
    /// For a hello with `draftRev`: the edits after that revision, in order,
    /// so the client replays them instead of losing its unacknowledged
    /// typing. Absent when that revision is too old to replay.
    public var missed: [EditInfo]?

    public init(text: String, rev: Int, status: DraftStatus, profile: CountingProfile? = .graphemes,
                missed: [EditInfo]? = nil) {
        self.text = text; self.rev = rev; count = status.count
        remaining = status.remaining; limit = status.limit; level = status.level
        self.profile = profile
        self.missed = missed
    }
}

public struct Welcome: Codable, Equatable, Sendable {
    public var you: ClientID
    public var room: String
    public var document: DocumentInfo?
    public var readers: [ReaderInfo]
    public var presenter: ClientID?
    public var draft: DraftInfo
    /// The room's pointers, the presenter's first (added after v1; absent
    /// when none is set).
    public var pointers: [PointerInfo]?
    /// The server's limits on what a client sends (added after v1; absent
    /// from servers that do not announce them).
    public var limits: ServerLimits?
    /// The room's questions, oldest first (added after v1; absent when
    /// nobody asked one).
    public var questions: [QuestionInfo]?
    /// The outputs of the snippets the presenter ran, by block (added after
    /// v1; absent when there are none).
    public var outputs: [SnippetOutput]?

    public init(you: ClientID, room: String, document: DocumentInfo?,
                readers: [ReaderInfo], presenter: ClientID?, draft: DraftInfo, pointers: [PointerInfo]? = nil,
                limits: ServerLimits? = nil, questions: [QuestionInfo]? = nil, outputs: [SnippetOutput]? = nil) {
        self.you = you; self.room = room; self.document = document
        self.readers = readers; self.presenter = presenter; self.draft = draft
        self.pointers = pointers?.isEmpty == true ? nil : pointers
        self.limits = limits
        self.questions = questions?.isEmpty == true ? nil : questions
        self.outputs = outputs?.isEmpty == true ? nil : outputs
    }

    enum CodingKeys: String, CodingKey { case you, room, document, readers, presenter, draft, pointers, limits, questions, outputs }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(you, forKey: .you)
        try c.encode(room, forKey: .room)
        try c.encode(document, forKey: .document)
        try c.encode(readers, forKey: .readers)
        try c.encode(presenter, forKey: .presenter)
        try c.encode(draft, forKey: .draft)
        try c.encodeIfPresent(pointers, forKey: .pointers)
        try c.encodeIfPresent(limits, forKey: .limits)
        try c.encodeIfPresent(questions, forKey: .questions)
        try c.encodeIfPresent(outputs, forKey: .outputs)
    }
}

/// What a server takes from a client (`welcome.limits`, added after v1), so
/// that a client knows before it sends: `message` bytes in one frame
/// (`--max-message`), `document` bytes of a document's text
/// (`--max-document`), `draft` characters (Unicode scalars) of the draft
/// (`--max-draft`).
public struct ServerLimits: Codable, Equatable, Sendable {
    public var message: Int
    public var document: Int
    public var draft: Int

    public init(message: Int, document: Int, draft: Int) {
        self.message = message; self.document = document; self.draft = draft
    }
}

/// A reader's place (`progress`): the numbers of NeonCore's ReadingPosition,
/// or, while they show slides, of their place in the deck.
public struct ProgressInfo: Codable, Equatable, Sendable {
    public var id: ClientID
    public var progress: Double
    public var percent: Int
    public var atBottom: Bool
    public var section: Int
    public var anchor: Anchor
    /// While the sender shows slides (added after v1): `SlidePlace`, flattened.
    public var slide: Int?
    public var slides: Int?
    public var step: Int?
    public var steps: Int?

    public init(id: ClientID, progress: Double, percent: Int, atBottom: Bool,
                section: Int, anchor: Anchor, slidePlace: SlidePlace? = nil) {
        self.id = id; self.progress = progress; self.percent = percent
        self.atBottom = atBottom; self.section = section; self.anchor = anchor
        self.slidePlace = slidePlace
    }

    /// The sender's place in the deck, while they show slides.
    public var slidePlace: SlidePlace? {
        get { SlidePlace(slide: slide, slides: slides, step: step, steps: steps) }
        set { (slide, slides, step, steps) = (newValue?.slide, newValue?.slides, newValue?.step, newValue?.steps) }
    }
}

extension SlidePlace {
    /// The place the four flattened fields give, when all four are there.
    init?(slide: Int?, slides: Int?, step: Int?, steps: Int?) {
        guard let slide, let slides, let step, let steps else { return nil }
        self.init(slide: slide, slides: slides, step: step, steps: steps)
    }
}

/// A reader's current tab changed (`tab`).
public struct TabInfo: Codable, Equatable, Sendable {
    public var id: ClientID
    public var section: Int
    public var source: TabSource

    public init(id: ClientID, section: Int, source: TabSource) {
        self.id = id; self.section = section; self.source = source
    }
}

/// A transformed draft edit for the others (`edit`).
public struct EditInfo: Codable, Equatable, Hashable, Sendable {
    public var rev: Int
    public var ops: TextOperation
    public var by: ClientID
    /// The author's key for the edit, when it gave one.
    public var key: String?

    public init(rev: Int, ops: TextOperation, by: ClientID, key: String? = nil) {
        self.rev = rev; self.ops = ops; self.by = by; self.key = key
    }
}

/// A character-limit level crossing (`limit`).
public struct LimitInfo: Codable, Equatable, Sendable {
    public var level: LimitLevel
    public var count: Int
    public var remaining: Int
    public var limit: Int
    public var by: ClientID

    public init(status: DraftStatus, by: ClientID) {
        level = status.level; count = status.count; remaining = status.remaining
        limit = status.limit; self.by = by
    }
}

/// A new document in the room (`document`), with who published it.
///
/// `parser` is as in `DocumentInfo`: encoded as this process's identity,
/// decoded as the sender's.
public struct DocumentPublished: Codable, Equatable, Sendable {
    public var title: String
    public var format: DocumentFormat
    public var text: String
    public var by: ClientID
    public var parser: String
    /// The room's document version this is (added after v1).
    public var version: Int?
    /// For a new version of the same document (added after v1): the
    /// version it follows. Everyone's place and the pointers were carried
    /// onto it; without it, the document replaced the last and places start
    /// over.
    public var revises: Int?

    /// (Added after v1) the pictures that travel with it, and those that
    /// did not, with why.
    public var images: [DocumentImage]
    public var unshown: [UnshownImage]

    public init(_ info: DocumentInfo, by: ClientID, revises: Int? = nil) {
        title = info.title; format = info.format; text = info.text; self.by = by
        parser = info.parser
        images = info.images
        unshown = info.unshown
        version = info.version
        self.revises = revises
    }

    public var info: DocumentInfo {
        DocumentInfo(title: title, format: format, text: text, parser: parser, images: images, unshown: unshown,
                     version: version)
    }

    enum CodingKeys: String, CodingKey { case by, revises }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try DocumentInfo(from: decoder), by: try c.decode(ClientID.self, forKey: .by),
                  revises: try c.decodeIfPresent(Int.self, forKey: .revises))
    }

    public func encode(to encoder: any Encoder) throws {
        try info.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(by, forKey: .by)
        try c.encodeIfPresent(revises, forKey: .revises)
    }

    public static func == (a: DocumentPublished, b: DocumentPublished) -> Bool {
        a.info == b.info && a.by == b.by && a.version == b.version && a.revises == b.revises
    }
}

/// Someone's cursor in the draft (`cursor`), in scalars at revision `rev`.
public struct CursorInfo: Codable, Equatable, Sendable {
    public var id: ClientID
    public var position: Int
    public var rev: Int

    public init(id: ClientID, position: Int, rev: Int) {
        self.id = id; self.position = position; self.rev = rev
    }
}

/// A reader started or stopped following the presenter (`follow`).
public struct FollowInfo: Codable, Equatable, Sendable {
    public var id: ClientID
    public var on: Bool

    public init(id: ClientID, on: Bool) { self.id = id; self.on = on }
}

/// A member's application message for the room (`relay`), passed on as sent.
public struct RelayInfo: Codable, Equatable, Sendable {
    public var id: ClientID
    public var data: String

    public init(id: ClientID, data: String) { self.id = id; self.data = data }
}
