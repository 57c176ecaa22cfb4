import NeonCore

/// The deck the presenter-place tests (the reducer's and the server's)
/// present: three slides, the second in three steps.
public enum PresenterPlaceDeck {
    public static let text = """
        # One

        Intro.

        <!-- end_slide -->

        # Two

        First.

        <!-- pause -->

        Second.

        <!-- pause -->

        Third.

        <!-- end_slide -->

        # Three

        End.
        """
    /// "Second." on slide 2, at its second step.
    public static let anchor = Anchor(block: 6, offset: 0)
    public static let place = SlidePlace(slide: 1, slides: 3, step: 1, steps: 3)
}
