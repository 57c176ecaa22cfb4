import NeonCore

extension RoomLine {
    /// `bob asks #1 on "Hello, world" in §1 "Intro": why?` for a new
    /// question, `pat marked #1 answered (bob: why?)` once answered, and
    /// `#1 moved to …` when a new version of the document carried it.
    /// `known` is the question as the reader last had it, if at all.
    static func question(_ question: QuestionInfo, known: QuestionInfo?, in document: Document?) -> String {
        if let known, question.answered, !known.answered {
            return "\(question.answeredBy ?? question.name) marked #\(question.number) answered (\(question.name): \(question.text))"
        }
        let place: String
        if let document, document.blocks.indices.contains(question.anchor.block) {
            let index = document.blocks[question.anchor.block].section
            let words = quote(question.passage, in: document)
            let on = words.isEmpty ? "" : "on \"\(words)\" "
            place = "\(on)in \(section(index, titles: document.sections.map(\.title)))"
        } else {
            place = "on block \(question.anchor.block)"
        }
        if known != nil { return "#\(question.number) (\(question.name): \(question.text)) moved \(place)" }
        return "\(question.name) asks #\(question.number) \(place): \(question.text)"
    }

    /// `2 questions (1 open)`, nothing without any.
    static func questionCount(_ questions: [QuestionInfo]) -> String? {
        guard !questions.isEmpty else { return nil }
        let open = questions.filter { !$0.answered }.count
        return questions.count == 1 ? "1 question (\(open) open)" : "\(questions.count) questions (\(open) open)"
    }
}
