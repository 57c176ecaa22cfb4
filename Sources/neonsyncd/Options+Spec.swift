import NeonCore

extension Options {
    /// neonsyncd's command line for its man page and completions: the
    /// tables `parse` reads and `--help` prints.
    static let spec = CommandLineSpec(
        program: "neonsyncd", section: 8, tagline: "the NeonSync live-sync server",
        description: [
            """
            neonsyncd serves NeonSync rooms over WebSocket (protocol neonsync.v1): people in a room read one \
            document together from their terminals (neonsync), follow a presenter on any terminal size and \
            compose a shared draft. One node keeps rooms in its embedded SQLite store; several nodes form a \
            cluster over Redis.
            """,
            """
            The Debian package runs it as the systemd service neonsyncd.service, listening on 127.0.0.1:7681 with \
            the room secret /etc/neonsync/secret; mint room tokens with neonsyncd token --secret-file \
            /etc/neonsync/secret.
            """,
        ],
        commands: [
            CommandLineSpec.Command(name: nil, synopsis: "neonsyncd [options]",
                                    summary: "serve until SIGINT or SIGTERM", groups: groups, notes: notes),
            TokenCommand.spec,
            ReshardCommand.spec,
            CommandLineSpec.generateCommand(program: "neonsyncd"),
        ],
        exitStatuses: exitStatuses,
        files: [
            .init("/etc/neonsync/secret", "the room secret the service's --secret-file reads, made on install (mode 600)"),
            .init("/lib/systemd/system/neonsyncd.service", "the service: one node on 127.0.0.1:7681"),
            .init("/lib/systemd/system/neonsyncd@.service", "one node of a cluster per instance"),
            .init("/var/lib/neonsync", "the service's store (its StateDirectory)"),
            .init("/var/log/neonsync/neonsyncd.jsonl", "the service's JSON log, rotated by /etc/logrotate.d/neonsyncd"),
        ],
        seeAlso: ["neonsync(1)", "systemctl(1)", "redis-server(1)"])
}
