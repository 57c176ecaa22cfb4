import NeonCore

/// Documents and sizes the client's model tests and its terminal tests share.

/// A talk with three long sections and two short ones at the end (Q&A and
/// Coda), whose starts cannot reach the top of an 80x24 or a 120x40
/// terminal.
package let codaTalk: DocumentInfo = {
    let words = "each section of this talk holds enough sentences to fill several rows on a narrow terminal and a few on a wide one"
    let long = ["Opening", "Middle", "Results"].map { title in
        "# \(title)\n\n" + (1...10).map { "\(title) paragraph \($0): \(words)." }.joined(separator: "\n\n")
    }
    return DocumentInfo(title: "Talk", format: .markdown,
                        text: (long + ["# Q&A\n\nQuestions are welcome.", "# Coda\n\nThank you."]).joined(separator: "\n\n"))
}()

/// Presenter and follower sizes, both ways round.
package let followSizes: [(Int, Int, Int, Int)] = [(120, 40, 80, 24), (80, 24, 120, 40)]

/// A deck of six slides whose fourth is shown in three steps.
package let stepDeck = """
    # Opening

    Hello.

    <!-- end_slide -->

    # Second

    Two.

    <!-- end_slide -->

    # Third

    Three.

    <!-- end_slide -->

    # Fourth

    Point one.

    <!-- pause -->

    Point two.

    <!-- pause -->

    Point three.

    <!-- end_slide -->

    # Fifth

    Five.

    <!-- end_slide -->

    # Last

    The end.
    """

/// A document of 480 sections, each a heading and two paragraphs.
package let manySections: String = (1...480).map { n in
    "# Part \(n)\n\nThe first paragraph of part \(n), long enough to wrap once or twice on a terminal of eighty columns or so.\n\nThe second paragraph of part \(n).\n"
}.joined(separator: "\n")

/// A paragraph whose first row ends with "three" when wrapped to `width`.
package func paragraph(wrappingAt width: Int) -> String {
    String(repeating: "m", count: width - 6) + " three seconds later the wheel shows."
}
