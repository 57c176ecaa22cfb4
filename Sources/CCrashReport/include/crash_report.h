// What neonsync does when it dies of a signal from its own code (a failed
// Swift runtime check traps with SIGILL or SIGTRAP; SIGSEGV, SIGBUS,
// SIGFPE, SIGABRT): restore the terminal, write a report with the
// backtrace, say where it is in one sentence on standard error, and die of
// the same signal. A signal handler may only call async-signal-safe
// functions, so everything it needs is prepared before: the report's
// directory is open, its text's first lines and the sentence are made, and
// backtrace(3) has loaded libgcc's unwinder once (its first call allocates).
#ifndef NEON_CRASH_REPORT_H
#define NEON_CRASH_REPORT_H

#include <stddef.h>
#include <termios.h>

// Prepares the report and installs the handlers on an alternate stack.
// `directory`: an open directory descriptor to create the report in, or -1
// for none (the sentence then says no report could be written);
// `directory_path`: its path, for the sentence; `header`: the report's first
// lines (version, command, process); `program`: the name that starts the
// sentence. The strings are copied. Returns 0, or -1 when a handler could
// not be installed.
int neon_crash_install(int directory, const char *directory_path, const char *header, const char *program);

// A screen takes the terminal over: on a crash, `restore` (`count` bytes)
// is written to standard output and `saved` set on standard input. Standard
// error goes to a memory file until `neon_crash_screen_ended`, so that what
// the Swift runtime says before it traps ("Fatal error: …"), which would be
// drawn over on the alternate screen and lost, goes into the report; the
// bytes are copied.
void neon_crash_screen_began(const unsigned char *restore, size_t count, const struct termios *saved);

// The terminal is restored: standard error is itself again, and what it
// received meanwhile is written to it now. A crash from now on leaves the
// terminal alone.
void neon_crash_screen_ended(void);

#endif
