/// `--token-file FILE`: the room token read from a private file
/// (`PrivateFile.roomToken`, NeonSystem), so it is not on the command line
/// where every user of the machine sees it (`ps`).
public enum TokenFile {
    /// The one line printed on standard error when `--token T` is used.
    public static let commandLineWarning = """
        neonsync: WARNING: --token: the token is visible to other users of this machine (in ps); \
        use --token-file FILE or \(CommandOption.tokenEnvironment)
        """
}
