import NeonCore

/// The deck the presenter tests present: three slides, the second in three steps.
package enum PresenterPlaceDeck {
    package static let text = """
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
    package static let anchor = Anchor(block: 6, offset: 0)
    package static let place = SlidePlace(slide: 1, slides: 3, step: 1, steps: 3)
}
