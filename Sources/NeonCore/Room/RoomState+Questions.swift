extension RoomState {
    /// The most questions a room keeps; one more is refused until the room
    /// gets a new document.
    public static let maxQuestions = 500

    /// A member asks a question on `length` characters from `anchor`. The
    /// text is counted as the draft is (its profile and limit); it must
    /// hold words, on one line, within the limit. The question is kept
    /// before anyone (the asker included) hears of it, as an edit is.
    mutating func ask(_ text: String, at anchor: Anchor, length: Int, by id: ClientID) -> [RoomOutput] {
        guard let member = members[id] else { return unknown(id) }
        if member.role == .observer {
            return refuse(id, .notAllowed, "observers watch and cannot ask questions; join as a reader to ask one")
        }
        guard parsed != nil else {
            return refuse(id, .noDocument, "room \"\(name)\" has no document yet, so there is no passage to ask about")
        }
        if let problem = passageProblem(anchor, length: length) { return refuse(id, .invalidAnchor, problem) }
        if text.trimmingWhitespace.isEmpty {
            return refuse(id, .invalidMessage, "the question is empty; type the question, then send it")
        }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return refuse(id, .invalidMessage, "the question contains line breaks or control characters; ask it on one line")
        }
        let count = counter.count(text)
        if count > counter.limit {
            return refuse(id, .invalidMessage, "the question is \(count) characters, over room \"\(name)\"'s limit of \(counter.limit) (counted as its draft is); shorten it")
        }
        if questions.count >= Self.maxQuestions {
            return refuse(id, .roomFull, "room \"\(name)\" holds its maximum of \(Self.maxQuestions) questions; mark some answered and ask the presenter to publish the document anew")
        }
        let question = QuestionInfo(number: (questions.last?.number ?? 0) + 1, by: id, name: member.name, text: text,
                                    anchor: anchor, length: length)
        questions.append(question)
        return [.persist(.questionsKept(room: name, questions)), broadcast(.question(question), except: nil),
                questionLog(question, client: id)]
    }

    /// A member marks question `number` answered: its asker (a member of
    /// the same name) or the presenter. Marking it again changes nothing.
    mutating func markAnswered(_ number: Int, by id: ClientID) -> [RoomOutput] {
        guard let member = members[id] else { return unknown(id) }
        guard let index = questions.firstIndex(where: { $0.number == number }) else {
            let range = questions.isEmpty ? "it has none" : "its questions are numbered \(questions[0].number)–\(questions[questions.count - 1].number)"
            return refuse(id, .invalidMessage, "question \(number) does not exist in room \"\(name)\"; \(range)")
        }
        var question = questions[index]
        guard member.role == .presenter || (member.role != .observer && member.name == question.name) else {
            return refuse(id, .notAllowed, "only \(question.name), who asked question \(number), or the presenter can mark it answered")
        }
        guard !question.answered else { return [] }
        question.answered = true
        question.answeredBy = member.name
        questions[index] = question
        return [.persist(.questionsKept(room: name, questions)), broadcast(.question(question), except: nil),
                questionLog(question, client: id)]
    }

    /// The questions carried onto a new version: each follows its text as a
    /// pointer does; one whose text is gone stays at the nearest surviving
    /// text, as a reader's place does, marking no characters. Everyone is
    /// told of each question that moved.
    mutating func carryQuestions(_ map: VersionMap) -> [RoomOutput] {
        var out: [RoomOutput] = []
        for index in questions.indices {
            let question = questions[index]
            var moved = question
            if let passage = map.passage(question.anchor, length: question.length) {
                moved.anchor = passage.anchor
                moved.length = passage.length
            } else {
                moved.anchor = map.place(question.anchor)
                moved.length = 0
            }
            guard moved != question else { continue }
            questions[index] = moved
            out += [broadcast(.question(moved), except: nil), questionLog(moved, client: moved.by, moved: true)]
        }
        if !out.isEmpty { out.insert(.persist(.questionsKept(room: name, questions)), at: 0) }
        return out
    }

    /// What is wrong with `length` characters from `anchor` as a passage of
    /// the document, or nil when they are in it.
    func passageProblem(_ anchor: Anchor, length: Int) -> String? {
        let blocks = blockLengths.count
        guard anchor.block >= 0, anchor.block < blocks else {
            return "anchor block \(anchor.block) does not exist; the document has \(blocks) blocks (0–\(max(blocks - 1, 0)))"
        }
        let characters = blockLengths[anchor.block]
        guard anchor.offset >= 0, length >= 0, anchor.offset <= characters, length <= characters - anchor.offset else {
            return "\(length) characters from offset \(anchor.offset) are not inside block \(anchor.block), which has \(characters) characters"
        }
        return nil
    }

    private func questionLog(_ question: QuestionInfo, client: ClientID, moved: Bool = false) -> RoomOutput {
        var fields = [LogField("number", .int(question.number)), LogField("name", .string(question.name)),
                      LogField("block", .int(question.anchor.block)), LogField("offset", .int(question.anchor.offset)),
                      LogField("length", .int(question.length)), LogField("answered", .bool(question.answered))]
        if let by = question.answeredBy { fields.append(LogField("answeredBy", .string(by))) }
        if moved { fields.append(LogField("moved", .bool(true))) }
        return .log(LogRecord(.info, .question, room: name, client: client, fields,
                              content: [LogField("text", .string(question.text))]))
    }
}
