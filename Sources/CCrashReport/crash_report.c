#define _GNU_SOURCE
#include "crash_report.h"

#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

// Everything the handler reads, written before it is installed or, for the
// terminal and standard error, published with atomic stores.
static int report_directory = -1;
static char report_directory_path[1024];
static char report_header[4096];
static char report_program[64];
static unsigned char terminal_restore[256];
static size_t terminal_restore_count;
static struct termios terminal_saved;
static int terminal_active;
static int stderr_captured = -1;
static int stderr_original = -1;
static int handling;

static const int signals[] = {SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT};

static void put(int fd, const char *text, size_t count) {
    while (count > 0) {
        ssize_t n = write(fd, text, count);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        text += n;
        count -= (size_t)n;
    }
}

static void puts_fd(int fd, const char *text) { put(fd, text, strlen(text)); }

// Appends `text` to `buffer` (of `size` bytes, kept NUL-terminated).
static void append(char *buffer, size_t size, const char *text) {
    size_t used = strlen(buffer);
    while (*text && used + 1 < size) buffer[used++] = *text++;
    buffer[used] = 0;
}

// Appends `value` in decimal, at least `digits` digits.
static void append_number(char *buffer, size_t size, unsigned long value, int digits) {
    char text[24];
    int n = 0;
    do {
        text[n++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0 || n < digits);
    char reversed[24];
    for (int i = 0; i < n; i++) reversed[i] = text[n - 1 - i];
    reversed[n] = 0;
    append(buffer, size, reversed);
}

static void append_hex(char *buffer, size_t size, unsigned long value) {
    char text[19] = "0x";
    int n = 2;
    int started = 0;
    for (int shift = 60; shift >= 0; shift -= 4) {
        int digit = (int)((value >> shift) & 0xF);
        if (digit || started || shift == 0) {
            text[n++] = "0123456789abcdef"[digit];
            started = 1;
        }
    }
    text[n] = 0;
    append(buffer, size, text);
}

// The UTC calendar date and time of `seconds` since 1970 (Howard Hinnant's
// days-to-civil), without the C library's locale-aware functions.
static void append_time(char *buffer, size_t size, long seconds, int compact) {
    long days = seconds / 86400, rest = seconds % 86400;
    days += 719468;
    long era = (days >= 0 ? days : days - 146096) / 146097;
    unsigned long doe = (unsigned long)(days - era * 146097);
    unsigned long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long year = (long)yoe + era * 400;
    unsigned long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned long mp = (5 * doy + 2) / 153;
    unsigned long day = doy - (153 * mp + 2) / 5 + 1;
    unsigned long month = mp < 10 ? mp + 3 : mp - 9;
    if (month <= 2) year++;
    append_number(buffer, size, (unsigned long)year, 4);
    if (!compact) append(buffer, size, "-");
    append_number(buffer, size, month, 2);
    if (!compact) append(buffer, size, "-");
    append_number(buffer, size, day, 2);
    append(buffer, size, "T");
    append_number(buffer, size, (unsigned long)(rest / 3600), 2);
    if (!compact) append(buffer, size, ":");
    append_number(buffer, size, (unsigned long)(rest / 60 % 60), 2);
    if (!compact) append(buffer, size, ":");
    append_number(buffer, size, (unsigned long)(rest % 60), 2);
    append(buffer, size, "Z");
}

static const char *signal_name(int number) {
    switch (number) {
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    default: return "a signal";
    }
}

static const char *signal_short(int number) {
    switch (number) {
    case SIGILL:
    case SIGTRAP: return "a failed runtime check";
    case SIGSEGV:
    case SIGBUS: return "a bad memory access";
    case SIGFPE: return "an arithmetic error";
    case SIGABRT: return "an abort";
    default: return "a fatal signal";
    }
}

static const char *signal_meaning(int number) {
    switch (number) {
    case SIGILL:
    case SIGTRAP: return "a runtime check failed (an arithmetic overflow, an index out of range, nil unwrapped, a precondition)";
    case SIGSEGV: return "a bad memory access (or the stack ran out)";
    case SIGBUS: return "a bad memory access";
    case SIGFPE: return "an arithmetic error";
    case SIGABRT: return "the process aborted";
    default: return "a fatal signal";
    }
}

// Copies what standard error received while the screen was up into the
// report.
static void copy_captured(int fd) {
    if (stderr_captured < 0) return;
    char chunk[1024];
    off_t offset = 0;
    int wrote_heading = 0;
    for (;;) {
        ssize_t n = pread(stderr_captured, chunk, sizeof chunk, offset);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        if (!wrote_heading) {
            puts_fd(fd, "\nstandard error before the crash:\n");
            wrote_heading = 1;
        }
        put(fd, chunk, (size_t)n);
        offset += n;
    }
}

static void handler(int number, siginfo_t *info, void *context) {
    (void)context;
    if (__atomic_exchange_n(&handling, 1, __ATOMIC_SEQ_CST)) {
        // Another thread is reporting; it ends the process.
        for (;;) pause();
    }
    if (__atomic_load_n(&terminal_active, __ATOMIC_SEQ_CST)) {
        put(STDOUT_FILENO, (const char *)terminal_restore, terminal_restore_count);
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &terminal_saved);
    }
    int original = __atomic_load_n(&stderr_original, __ATOMIC_SEQ_CST);
    if (original >= 0) dup2(original, STDERR_FILENO);

    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    char name[96] = "crash-";
    append_time(name, sizeof name, (long)now.tv_sec, 1);
    append(name, sizeof name, "-");
    append_number(name, sizeof name, (unsigned long)getpid(), 1);
    append(name, sizeof name, ".txt");

    int fd = report_directory >= 0
        ? openat(report_directory, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600) : -1;
    if (fd >= 0) {
        puts_fd(fd, report_header);
        char line[512] = "crashed: ";
        append_time(line, sizeof line, (long)now.tv_sec, 0);
        append(line, sizeof line, "\nsignal: ");
        append(line, sizeof line, signal_name(number));
        append(line, sizeof line, ", ");
        append(line, sizeof line, signal_meaning(number));
        append(line, sizeof line, "\naddress: ");
        append_hex(line, sizeof line, (unsigned long)(info ? info->si_addr : 0));
        append(line, sizeof line, "\nthread: ");
        append_number(line, sizeof line, (unsigned long)syscall(SYS_gettid), 1);
        append(line, sizeof line, "\n\nbacktrace, innermost first (name a frame of an executable with its build: addr2line -f -e EXECUTABLE 0xOFFSET | swift demangle):\n");
        puts_fd(fd, line);
        void *frames[128];
        int count = backtrace(frames, 128);
        backtrace_symbols_fd(frames, count, fd);
        copy_captured(fd);
        close(fd);
    }

    char sentence[2048] = "";
    append(sentence, sizeof sentence, report_program);
    append(sentence, sizeof sentence, ": stopped by an internal error (");
    append(sentence, sizeof sentence, signal_name(number));
    append(sentence, sizeof sentence, ", ");
    append(sentence, sizeof sentence, signal_short(number));
    if (fd >= 0) {
        append(sentence, sizeof sentence, "); the terminal is restored and a report with the backtrace is in ");
        append(sentence, sizeof sentence, report_directory_path);
        append(sentence, sizeof sentence, "/");
        append(sentence, sizeof sentence, name);
        append(sentence, sizeof sentence, ": please send it to NeonSync's maintainers with the document and the keys that led there\n");
    } else {
        append(sentence, sizeof sentence, "); the terminal is restored, but no report could be written");
        append(sentence, sizeof sentence, report_directory_path[0] ? " in " : "");
        append(sentence, sizeof sentence, report_directory_path);
        append(sentence, sizeof sentence, "\n");
    }
    puts_fd(STDERR_FILENO, sentence);

    // Die of the same signal: the default action is back (SA_RESETHAND);
    // a fault returns to the instruction that faults again, a sent signal
    // is raised once more.
    signal(number, SIG_DFL);
    raise(number);
}

int neon_crash_install(int directory, const char *directory_path, const char *header, const char *program) {
    report_directory = directory;
    report_directory_path[0] = 0;
    append(report_directory_path, sizeof report_directory_path, directory_path ? directory_path : "");
    report_header[0] = 0;
    append(report_header, sizeof report_header, header ? header : "");
    report_program[0] = 0;
    append(report_program, sizeof report_program, program ? program : "neonsync");

    // backtrace(3) loads libgcc_s on its first call, which allocates: do it now.
    void *frames[4];
    backtrace(frames, 4);

    // The handler runs on a stack of its own, so a stack overflow (SIGSEGV
    // on the guard page) can still be reported. This thread's; other
    // threads' overflows die without a report.
    static char stack[64 * 1024];
    stack_t alternate = {.ss_sp = stack, .ss_size = sizeof stack, .ss_flags = 0};
    sigaltstack(&alternate, NULL);

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = handler;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) sigaddset(&action.sa_mask, signals[i]);
    int result = 0;
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        if (sigaction(signals[i], &action, NULL) != 0) result = -1;
    }
    return result;
}

void neon_crash_screen_began(const unsigned char *restore, size_t count, const struct termios *saved) {
    __atomic_store_n(&terminal_active, 0, __ATOMIC_SEQ_CST);
    terminal_restore_count = count < sizeof terminal_restore ? count : sizeof terminal_restore;
    memcpy(terminal_restore, restore, terminal_restore_count);
    terminal_saved = *saved;
    __atomic_store_n(&terminal_active, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&stderr_original, __ATOMIC_SEQ_CST) >= 0) return;
    int captured = memfd_create("neonsync-stderr", MFD_CLOEXEC);
    int original = captured >= 0 ? fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3) : -1;
    if (original < 0 || dup2(captured, STDERR_FILENO) < 0) {
        if (captured >= 0) close(captured);
        if (original >= 0) close(original);
        return;
    }
    stderr_captured = captured;
    __atomic_store_n(&stderr_original, original, __ATOMIC_SEQ_CST);
}

void neon_crash_screen_ended(void) {
    __atomic_store_n(&terminal_active, 0, __ATOMIC_SEQ_CST);
    int original = __atomic_exchange_n(&stderr_original, -1, __ATOMIC_SEQ_CST);
    if (original < 0) return;
    dup2(original, STDERR_FILENO);
    close(original);
    char chunk[4096];
    off_t offset = 0;
    for (;;) {
        ssize_t n = pread(stderr_captured, chunk, sizeof chunk, offset);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        put(STDERR_FILENO, chunk, (size_t)n);
        offset += n;
    }
    close(stderr_captured);
    stderr_captured = -1;
}
