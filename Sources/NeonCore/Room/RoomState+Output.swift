extension RoomState {
    /// The presenter's run of the snippet in code block `block` printed
    /// `text` so far (`state`): the room keeps it in place of the block's
    /// earlier output and tells everyone, the presenter included. Only the
    /// presenter's output is taken, for a code block marked `+exec` or
    /// `+exec_replace`, sanitized and within `SnippetOutput`'s bounds.
    /// Logged when a run starts (its first output) and when it ends.
    mutating func takeOutput(_ id: ClientID, block: Int, text: String, state: SnippetOutput.State,
                             exit: Int?) -> [RoomOutput] {
        guard let member = members[id] else { return unknown(id) }
        guard member.role == .presenter else {
            return refuse(id, .notAllowed, "only the presenter runs snippets and sends their output; what a snippet prints on its machine reaches you as output messages")
        }
        guard let parsed else {
            return refuse(id, .noDocument, "room \"\(name)\" has no document yet, so it has no snippet to run")
        }
        guard parsed.blocks.indices.contains(block), case .codeBlock = parsed.blocks[block].kind,
              parsed.blocks[block].fence?.exec != nil else {
            return refuse(id, .invalidMessage, "block \(block) is not a code block marked +exec or +exec_replace; only such snippets have output")
        }
        if let problem = SnippetOutput.problem(with: text) {
            return refuse(id, .invalidMessage, problem)
        }
        if (state == .exited) != (exit != nil) {
            return refuse(id, .invalidMessage, state == .exited
                ? "an output whose state is \"exited\" needs \"exit\", the snippet's exit status"
                : "only an output whose state is \"exited\" has \"exit\"; leave it out for \"\(state.rawValue)\"")
        }
        let output = SnippetOutput(block: block, by: id, name: member.name, text: text, state: state, exit: exit)
        let earlier = outputs.firstIndex { $0.block == block }
        let starts = earlier.map { outputs[$0].state != .running } ?? true
        if let earlier { outputs[earlier] = output } else {
            outputs.append(output)
            outputs.sort { $0.block < $1.block }
        }
        var out = [broadcast(.output(output), except: nil)]
        if state != .running || starts {
            var fields = [LogField("block", .int(block)), LogField("state", .string(state.rawValue)),
                          LogField("lines", .int(text.isEmpty ? 0 : text.split(separator: "\n", omittingEmptySubsequences: false).count)),
                          LogField("bytes", .int(text.utf8.count))]
            if let exit { fields.append(LogField("exit", .int(exit))) }
            out.append(.log(LogRecord(.info, .output, room: name, client: id, fields, content: [LogField("text", .string(text))])))
        }
        return out
    }
}
