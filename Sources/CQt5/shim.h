// Qt 5 for the C++ target CSyntaxHighlighting: this system library target
// exists for its pkg-config flags (the include directories of Qt Gui, whose
// QColor KSyntaxHighlighting's headers name, and of Qt Core), which SwiftPM
// hands to the targets that depend on it. Nothing of Qt is imported into
// Swift.
