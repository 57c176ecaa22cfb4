import NeonTUI

extension CommandHelp {
    private static let roomArgument = (name: "ROOM", help: "the room's name: \(RoomName.rule)")

    /// How the reader's keys are reached.
    private static let readerKeysNote = "Inside, ? (or F1) lists them; j/k scroll that list and any other key closes it."

    /// Every command's help.
    public static let all: [CommandHelp] = [
        CommandHelp(
            command: .read, usage: "neonsync read FILE [--room R] [OPTIONS]",
            summary: """
                read FILE together with the others in its room, each at their own pace. FILE becomes the room's \
                document if the room has none yet (otherwise you read the room's); the readers box shows where \
                everyone is
                """,
            arguments: [("FILE", "the document: Markdown (its headings become the tabs), plain text, or the "
                + "seed's catalog JSON")],
            keys: ReaderModel.helpLines, keysNote: readerKeysNote,
            exitStatuses: ExitStatus.ofScreens,
            examples: ["neonsync read notes.md --room team-notes --name ada"]),
        CommandHelp(
            command: .join, usage: "neonsync join ROOM [OPTIONS]",
            summary: "read the document of room ROOM at your own pace; the readers box shows where everyone is",
            arguments: [roomArgument],
            keys: ReaderModel.helpLines, keysNote: readerKeysNote,
            exitStatuses: ExitStatus.ofScreens,
            examples: ["neonsync join team-notes"]),
        CommandHelp(
            command: .present, usage: "neonsync present FILE|ROOM [--room R] [OPTIONS]",
            summary: """
                lead the room: everyone who follows lands on your scroll and tab choices, on any terminal size. \
                With a FILE (an argument that names an existing file) it becomes the room's document; otherwise \
                the argument is the room. A room has one presenter: when someone else presents there, the \
                command ends with their name and the command that follows them (status 3)
                """,
            arguments: [("FILE|ROOM", "a document to present (Markdown, text or catalog JSON), or the room whose "
                + "document you present; a room name is \(RoomName.rule)")],
            keys: ReaderModel.helpLines, keysNote: readerKeysNote,
            exitStatuses: ExitStatus.ofScreens,
            examples: ["neonsync present talk.md --room talk", "neonsync present talk"]),
        CommandHelp(
            command: .follow, usage: "neonsync follow ROOM [OPTIONS]",
            summary: """
                follow the presenter of room ROOM: your view tracks theirs on any terminal size. Scrolling \
                yourself detaches; f follows again
                """,
            arguments: [roomArgument],
            keys: ReaderModel.helpLines, keysNote: readerKeysNote,
            exitStatuses: ExitStatus.ofScreens,
            examples: ["neonsync follow talk"]),
        CommandHelp(
            command: .draft, usage: "neonsync draft ROOM [--profile P] [OPTIONS]",
            summary: """
                compose room ROOM's shared draft with everyone in it: every key types into the draft, everyone's \
                edits merge as they type, and the ring fills toward the limit, turning yellow 20 characters \
                before it and red from it on. With --print, print the draft to standard output and exit 0 \
                instead (no terminal needed; 3 when the server refuses the room, 4 when it cannot be reached)
                """,
            arguments: [roomArgument],
            keys: DraftModel.helpLines,
            keysNote: "Every printable key, ? included, types into the draft; F1 or Ctrl-G lists the keys.",
            exitStatuses: ExitStatus.ofScreens,
            examples: ["neonsync draft release-post --profile mastodon", "neonsync draft release-post --print > post.txt"]),
        CommandHelp(
            command: .tail, usage: "neonsync tail ROOM [--json] [OPTIONS]",
            summary: """
                print room ROOM's events as they happen, one line each, as an observer: joins, leaves, progress \
                steps, tabs, documents, draft limits and errors. Needs no terminal and reconnects by itself, \
                saying so on standard error
                """,
            arguments: [roomArgument],
            keys: [], keysNote: nil,
            exitStatuses: [
                (ExitStatus.done, "stopped by SIGINT, SIGTERM or SIGHUP, or standard output was closed"),
                (ExitStatus.usage, "bad usage (a room or --name the server would not take, too), or a --token-file "
                    + "that group or others can read or that is missing or empty"),
                (ExitStatus.refused, "the server refused to let it watch the room (a missing, wrong or expired "
                    + "token, a full room or server)"),
                (ExitStatus.unreachable, "the server (with a failover list: none of them) could not be reached "
                    + "within 5 s of starting"),
                (ExitStatus.untrusted, "a wss:// server's certificate failed verification"),
            ],
            examples: ["neonsync tail talk", "neonsync tail talk --json | jq -c 'select(.type == \"limit\")'"]),
        CommandHelp(
            command: .monitor, usage: "neonsync monitor [ROOM] [OPTIONS]",
            summary: """
                a live dashboard as an observer: readers with role, progress, tab and follow state, the draft's \
                ring, and a feed of every join, leave, 10% step, tab, limit event and error. Without ROOM it \
                watches every room on the server, with a list of rooms to choose whose readers show
                """,
            arguments: [(roomArgument.name, roomArgument.help + "; without it, every room")],
            keys: MonitorModel.help, keysNote: "Inside, ? lists them.",
            exitStatuses: ExitStatus.ofScreens,
            examples: ["neonsync monitor", "neonsync monitor talk"]),
        CommandHelp(
            command: .notes, usage: "neonsync notes FILE [--room R] [OPTIONS]",
            summary: """
                the presenter's second screen: the speaker notes of FILE (its <!-- speaker_note: … --> comments, \
                which present FILE never publishes) for the passage the room's presenter is on, the title of \
                what comes next and the time since the talk started. It joins as an observer and moves nobody
                """,
            arguments: [("FILE", "the file being presented, with its speaker notes (Markdown)")],
            keys: NotesModel.help, keysNote: "Inside, ? lists them.",
            exitStatuses: ExitStatus.ofScreens,
            examples: ["neonsync notes talk.md --room talk"]),
        CommandHelp(
            command: .replay, usage: "neonsync replay LOGFILE [--speed X] [--room R] [--summary]",
            summary: """
                replay a neonsyncd JSON log (its --log file) through the monitor's screen, every room in it \
                unless --room R; or, with --summary, print per room how far each reader read, the time spent in \
                each section and the limit events
                """,
            arguments: [("LOGFILE", "a log neonsyncd wrote with --log FILE")],
            keys: MonitorModel.help, keysNote: "Inside, ? lists them.",
            exitStatuses: [
                (ExitStatus.done, "the replay was quit, or the summary printed"),
                (ExitStatus.failed, "the client could not start"),
                (ExitStatus.usage, "bad usage, a LOGFILE that cannot be read, is not a neonsyncd log or has no "
                    + "room events, or no terminal that can draw a screen (without --summary)"),
            ],
            examples: ["neonsync replay neonsyncd.log --speed 10", "neonsync replay neonsyncd.log --summary --room talk"]),
    ]
}
