import NeonCore

extension ReaderModel {
    /// The room's readers and observers, counted as every view counts them:
    /// the status line's `N here`, the presence box's title, the monitor's.
    public var headcount: Headcount { Headcount(readers) }
}
