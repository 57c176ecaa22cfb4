extension BuildStamp {
    /// What `--version` prints: the program's version, the commit it was
    /// built from, and the versions of the C libraries it runs with.
    public static func versionText(program: String, libwebsockets: String) -> String {
        """
        \(program) \(version)
        commit: \(commit)
        libwebsockets: \(libwebsockets)
        cmark-gfm: \(CmarkGFM.version)
        """
    }
}
