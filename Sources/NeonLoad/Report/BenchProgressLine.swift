import NeonCore
import NeonTUI

/// The benchmark's one-line progress display for standard error: the run's
/// phase, the reading-style bar of the shared progress widget, and the live
/// figures.
package enum BenchProgressLine {
    /// `phase NN% ██████░░░░ detail`, the bar `barWidth` columns wide; an
    /// indeterminate spinner frame when `fraction` is nil (connecting).
    package static func render(phase: String, fraction: Double?, detail: String,
                              barWidth: Int = 24, frame: Int = 0) -> String {
        let model: ProgressModel
        if let fraction, let determinate = try? ProgressModel(value: min(max(fraction, 0), 1)) {
            model = determinate
        } else {
            model = ProgressModel(indeterminateLabel: nil)
        }
        var buffer = Buffer(width: barWidth, height: 1)
        ProgressBar(model, style: model.fraction == nil ? .spinner : .reading, frame: frame, theme: .monochrome)
            .render(in: Rect(width: barWidth, height: 1), into: &buffer)
        let bar = buffer.lines(trimming: true).first ?? ""
        return [phase, bar, detail].filter { !$0.isEmpty }.joined(separator: "  ")
    }
}
