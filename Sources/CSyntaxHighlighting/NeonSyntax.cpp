// The C face of KSyntaxHighlighting (include/NeonSyntax.h). No C++
// exception leaves these functions: each catches what the library or the
// allocator could throw and answers as for nothing found.
#include "NeonSyntax.h"

// By their full paths: the library's headers live in a directory of their
// own with no pkg-config file (its own includes are relative to it).
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/AbstractHighlighter>
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/Definition>
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/Format>
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/Repository>
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/State>
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/Theme>
#include <KF5/KSyntaxHighlighting/ksyntaxhighlighting_version.h>

#include <QString>
#include <QVector>

#include <cstring>
#include <vector>

namespace {

/// Hands each formatted stretch of a line to the callback, its UTF-16
/// offsets turned into UTF-8 byte offsets of the whole text.
class TokenSink final : public KSyntaxHighlighting::AbstractHighlighter {
public:
    neon_syntax_token token = nullptr;
    void *context = nullptr;
    /// The UTF-8 offset of each UTF-16 unit of the line, and one past it.
    std::vector<int64_t> bytes;

    KSyntaxHighlighting::State line(const QString &text, int64_t lineStart, const KSyntaxHighlighting::State &state) {
        bytes.resize(size_t(text.size()) + 1);
        int64_t offset = lineStart;
        for (int i = 0; i < text.size(); ++i) {
            bytes[size_t(i)] = offset;
            const ushort unit = text.at(i).unicode();
            if (unit < 0x80) offset += 1;
            else if (unit < 0x800) offset += 2;
            else if (QChar::isHighSurrogate(unit)) offset += 4;
            else if (QChar::isLowSurrogate(unit)) offset += 0;
            else offset += 3;
        }
        bytes[size_t(text.size())] = offset;
        return highlightLine(QStringView(text), state);
    }

protected:
    void applyFormat(int offset, int length, const KSyntaxHighlighting::Format &format) override {
        if (length <= 0 || !format.isValid()) return;
        const auto style = format.textStyle();
        if (style == KSyntaxHighlighting::Theme::Normal) return;
        const size_t end = size_t(offset + length) < bytes.size() ? size_t(offset + length) : bytes.size() - 1;
        const int64_t start = bytes[size_t(offset)];
        if (bytes[end] > start) token(context, start, bytes[end] - start, int32_t(style));
    }
};

} // namespace

struct neon_syntax {
    KSyntaxHighlighting::Repository repository;
    QVector<KSyntaxHighlighting::Definition> definitions;
    TokenSink sink;
};

int32_t neon_syntax_interface(void) { return NEON_SYNTAX_INTERFACE; }

const char *neon_syntax_version(void) { return "KSyntaxHighlighting " SyntaxHighlighting_VERSION_STRING; }

neon_syntax *neon_syntax_new(void) {
    try {
        auto *syntax = new neon_syntax;
        syntax->definitions = syntax->repository.definitions();
        return syntax;
    } catch (...) {
        return nullptr;
    }
}

void neon_syntax_free(neon_syntax *syntax) { delete syntax; }

static int32_t indexOf(neon_syntax *syntax, const KSyntaxHighlighting::Definition &definition) {
    if (!definition.isValid()) return -1;
    for (int i = 0; i < syntax->definitions.size(); ++i) {
        if (syntax->definitions.at(i) == definition) return i;
    }
    return -1;
}

int32_t neon_syntax_find(neon_syntax *syntax, const char *language) {
    try {
        const QString name = QString::fromUtf8(language);
        if (name.isEmpty()) return -1;
        int32_t found = indexOf(syntax, syntax->repository.definitionForName(name));
        if (found < 0) found = indexOf(syntax, syntax->repository.definitionForFileName(QStringLiteral("code.") + name));
        if (found < 0) found = indexOf(syntax, syntax->repository.definitionForFileName(name));
        return found;
    } catch (...) {
        return -1;
    }
}

int32_t neon_syntax_count(neon_syntax *syntax) { return int32_t(syntax->definitions.size()); }

int32_t neon_syntax_name(neon_syntax *syntax, int32_t index, char *out, int32_t capacity) {
    if (index < 0 || index >= syntax->definitions.size() || capacity <= 0) return 0;
    try {
        const QByteArray name = syntax->definitions.at(index).name().toUtf8();
        const int32_t length = int32_t(name.size());
        const int32_t copied = length < capacity - 1 ? length : capacity - 1;
        std::memcpy(out, name.constData(), size_t(copied));
        out[copied] = 0;
        return length;
    } catch (...) {
        out[0] = 0;
        return 0;
    }
}

void neon_syntax_highlight(neon_syntax *syntax, int32_t definition, const char *text, size_t length,
                           neon_syntax_token token, void *context) {
    if (definition < 0 || definition >= syntax->definitions.size()) return;
    TokenSink &sink = syntax->sink;
    sink.token = token;
    sink.context = context;
    try {
        sink.setDefinition(syntax->definitions.at(definition));
        KSyntaxHighlighting::State state;
        size_t start = 0;
        while (start <= length) {
            const void *newline = std::memchr(text + start, '\n', length - start);
            const size_t end = newline ? size_t(static_cast<const char *>(newline) - text) : length;
            state = sink.line(QString::fromUtf8(text + start, int(end - start)), int64_t(start), state);
            if (!newline) break;
            start = end + 1;
        }
    } catch (...) {
        // The tokens already handed over stand; the rest stays plain.
    }
}
