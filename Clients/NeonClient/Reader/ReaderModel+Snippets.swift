import NeonCore

extension ReaderModel {
    /// Ctrl-E: the presenter started with -x runs the snippets (`+exec`,
    /// and `+exec_replace` too) on the slide, or on the screen without
    /// slides; anyone else is told why nothing runs.
    mutating func runSnippets(at time: Duration) -> [ClientCommand] {
        guard mode == .present else {
            notices.note("only the presenter runs snippets, on their own machine; their output shows here when they do",
                         error: false, at: time)
            return []
        }
        guard snippets.permission >= .exec else {
            notices.note("snippets run only when enabled: start neonsync present FILE -x to run +exec blocks with Ctrl-E (-X also runs +exec_replace blocks when their slide shows)",
                         error: true, at: time)
            return []
        }
        let blocks = runnableBlocksShown()
        guard !blocks.isEmpty else {
            notices.note(slides.isOn ? "this slide has no +exec snippet to run" : "no +exec snippet is on screen",
                         error: false, at: time)
            return []
        }
        return blocks.flatMap { run($0, at: time) }
    }

    /// With -X, the `+exec_replace` snippets of the slide shown run once,
    /// when it is first shown (a tick after it is).
    mutating func replaceSnippetsDue(at time: Duration) -> [ClientCommand] {
        guard mode == .present, snippets.permission == .execReplace, slides.isOn, let document = pane.document else { return [] }
        let due = runnableBlocksShown().filter {
            document.blocks[$0].fence?.exec == .replace && !snippets.shownReplaced.contains($0)
        }
        snippets.shownReplaced.formUnion(due)
        return due.flatMap { run($0, at: time) }
    }

    /// The runnable code blocks shown: the slide's, up to the step shown,
    /// or those with a row on screen.
    private func runnableBlocksShown() -> [Int] {
        guard let document = pane.document else { return [] }
        let shown: [Int]
        if slides.isOn, let slide = slides.current {
            shown = Array(slide.blocks.lowerBound..<(slides.hidden ?? slide.blocks.upperBound))
        } else if let layout = pane.layout, layout.rowCount > 0 {
            let rows = pane.visibleRows.clamped(to: 0..<layout.rowCount)
            shown = Array(Set(rows.map { layout.line(at: $0).block })).sorted()
        } else {
            shown = []
        }
        return shown.filter { document.blocks.indices.contains($0) && document.blocks[$0].fence?.exec != nil }
    }

    /// Runs block `block` unless it is running; a language that does not
    /// run here is said so, and its output says so too.
    private mutating func run(_ block: Int, at time: Duration) -> [ClientCommand] {
        guard let document = pane.document, !snippets.running.contains(block) else { return [] }
        let code = document.blocks[block]
        switch Snippet.of(block: block, language: code.fence?.language, code: code.text) {
        case let .success(snippet):
            snippets.running.insert(block)
            return [.runSnippet(snippet)] + snippetRan(SnippetProgress(block: block, text: "", state: .running), at: time)
        case let .failure(refusal):
            notices.note(refusal.sentence, error: true, at: time)
            return snippetRan(SnippetProgress(block: block, text: refusal.sentence, state: .failed), at: time)
        }
    }

    /// The runtime reports what a snippet printed: shown here at once, and
    /// sent to the room while joined.
    public mutating func snippetRan(_ progress: SnippetProgress, at time: Duration) -> [ClientCommand] {
        guard mode == .present else { return [] }
        if progress.state != .running { snippets.running.remove(progress.block) }
        let text = SnippetOutput.sanitized(progress.text)
        let exit = progress.state == .exited ? progress.exit ?? 0 : nil
        snippets.take(SnippetOutput(block: progress.block, by: presence.me ?? ClientID(""), name: name, text: text,
                                    state: progress.state, exit: exit))
        guard connection == .joined else { return [] }
        return [.send(.output(block: progress.block, text: text, state: progress.state, exit: exit))]
    }

    /// The room's output of a snippet (the presenter's run).
    mutating func outputReceived(_ output: SnippetOutput) -> [ClientCommand] {
        snippets.take(output)
        return []
    }

    /// Gives the panes the outputs to draw for the document shown.
    mutating func settleOutputs() {
        let shelf = snippets.shelf(in: pane.document)
        pane.show(shelf)
        slides.show(shelf, document: pane.document)
    }
}
