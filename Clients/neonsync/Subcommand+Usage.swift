import NeonClient

extension Subcommand {
    /// What `neonsync --help` prints.
    static let usage = """
    neonsync — read, present, follow and draft together from terminals, and
    watch rooms (tail, monitor, replay)

    USAGE:
      neonsync read FILE [--room R]      publish FILE to a room and read it
      neonsync join ROOM                 read a room's document
      neonsync present FILE|ROOM         lead: your scroll and tabs are followed
      neonsync follow ROOM               follow the presenter on any terminal size
      neonsync notes FILE [--room R]     the presenter's speaker notes and clock
      neonsync draft ROOM                compose the room's shared draft
      neonsync tail ROOM [--json]        print a room's events, no terminal needed
      neonsync monitor [ROOM]            a live dashboard of one room or of all
      neonsync replay LOGFILE            replay a neonsyncd log, or --summary
      neonsync rooms [--json]            list the rooms you may see
      neonsync bench SCENARIO            load-generate against a server
      neonsync config                    the settings in use and where each came
                                         from (~/.config/neonsync/config.yaml)
      neonsync generate man|SHELL        print the man page, or SHELL's completions
                                         (bash, zsh or fish)
      neonsync --version                 the version, the commit it was built
                                         from, the libraries it runs with

    neonsync COMMAND --help shows a command's arguments, options, keys, exit
    statuses and an example.

    A room name is \(RoomName.rule).

    OPTIONS (every command that connects):
      --name N       the name others see (default: your login name)
      --server URL   ws://HOST:PORT/, wss://HOST:PORT/ or unix:PATH (a Unix
                     socket) of neonsyncd (default \(CommandOption.defaultServer), or
                     $\(CommandOption.serverEnvironment)); a list URL1,URL2,… fails over to
                     the next URL
      --token-file FILE
                     room token for a server that requires one: the first
                     line of FILE, which must be chmod 600 (or
                     $\(CommandOption.tokenEnvironment))
      --token T      the token on the command line: other users see it in
                     ps, so it warns; prefer --token-file FILE
      --ca FILE      wss:// only: trust the CA certificate(s) in FILE (PEM)
      --insecure     wss:// only: do not check the certificate (testing only)
      -h, --help     show this help (also: neonsync COMMAND --help)

    EXIT STATUS:
      0  quit (or stopped by SIGINT, SIGTERM, SIGHUP)
      1  the client could not start
      2  bad usage: an unknown command or option, a bad room name, a file
         that cannot be read, a --token-file others can read or that is
         missing or empty, or no terminal that can draw a screen (output
         piped or redirected, TERM=dumb)
      3  the server refused this client, which ends instead of reconnecting:
         the room already has a presenter (the message names them and says
         how to follow them), a missing, wrong or expired token, a full room
         or server, a room or name the server does not take
      4  tail only: no server reached within 5 s of starting
      5  a wss:// server's certificate failed verification

    KEYS (press ? inside for the full list; F1 or Ctrl-G in the draft editor):
      j/k ↓/↑ scroll · space/PgDn b/PgUp page · g/Home G/End · Tab/Shift-Tab 1–9 tabs
      t back to top · / search, n/N next/previous · f follow · e draft · q quit
    """
}
