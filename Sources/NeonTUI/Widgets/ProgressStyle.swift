/// How a `ProgressBar` draws its model.
public enum ProgressStyle: Equatable, Hashable, Sendable, CaseIterable {
    /// A one-row bar filled with eighth-cell precision (`▏▎▍▌▋▊▉█`) over a
    /// dim track; the label above and the current-value label below when
    /// there are rows for them.
    case linear
    /// The thick "bar" style of the progress-view seed: the label on the row
    /// above, a bar 1–3 rows tall with the current value drawn inside it.
    case bar
    /// The reading bar of the reader seed: `NN%` in bold accent, then a
    /// linear bar, in a rounded box when there are three rows.
    case reading
    /// The circular indicator: a 7 × 3 ring filling clockwise from
    /// 12 o'clock around `NN%`; `(NN%)` where the ring does not fit.
    case wheel
    /// A spinner and the label; an indeterminate model draws this in every
    /// style.
    case spinner

    /// The size the style looks right at, for laying out a screen.
    public var preferredSize: (width: Int, height: Int) {
        switch self {
        case .linear: (20, 1)
        case .bar: (24, 4)
        case .reading: (26, 3)
        case .wheel: (ProgressBar.wheelWidth, ProgressBar.wheelHeight)
        case .spinner: (16, 1)
        }
    }
}
