/// What a build was made from. deploy/debian/build.sh writes the released
/// values into its copy of this file; `swift build` keeps these.
public enum BuildStamp {
    /// The release version.
    public static let version = "development"
    /// The commit the build was made from (`-dirty` with uncommitted changes).
    public static let commit = "not stamped (a swift build; deploy/debian/build.sh stamps its builds)"
    /// The commit's date, YYYY-MM-DD (the man pages' date).
    public static let date = ""
}
