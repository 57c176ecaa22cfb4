#ifndef NEON_CLIBWEBSOCKETS_SHIM_H
#define NEON_CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>
#include <openssl/x509v3.h>
#include <sys/prctl.h>

/* LWS_PRE is a macro expression (_LWS_PAD(...)); Swift imports only simple
 * constant macros, so expose the headroom size as a function. */
static inline size_t neon_lws_pre(void) { return LWS_PRE; }

/* LWS_SERVER_OPTION_* are `1ll << n` macros that import as Int64 while
 * info.options is uint64_t; give the ones we use the right type. */
static inline uint64_t neon_lws_option_fail_upon_unable_to_bind(void) {
    return (uint64_t)LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND;
}
static inline uint64_t neon_lws_option_explicit_vhosts(void) {
    return (uint64_t)LWS_SERVER_OPTION_EXPLICIT_VHOSTS;
}
static inline uint64_t neon_lws_option_disable_ipv6(void) {
    return (uint64_t)LWS_SERVER_OPTION_DISABLE_IPV6;
}
static inline uint64_t neon_lws_option_do_ssl_global_init(void) {
    return (uint64_t)LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
}
static inline uint64_t neon_lws_option_unix_sock(void) {
    return (uint64_t)LWS_SERVER_OPTION_UNIX_SOCK;
}
static inline uint64_t neon_lws_option_disable_os_ca_certs(void) {
    return (uint64_t)LWS_SERVER_OPTION_DISABLE_OS_CA_CERTS;
}

/* SSL_OP_NO_* are SSL_OP_BIT(n) function-like macros, which do not import:
 * the options that turn off SSLv3, TLS 1.0 and TLS 1.1. */
static inline long neon_ssl_options_no_legacy_protocols(void) {
    return (long)(SSL_OP_NO_SSLv3 | SSL_OP_NO_TLSv1 | SSL_OP_NO_TLSv1_1);
}

/* pthread_setname_np needs _GNU_SOURCE and prctl is variadic, so neither
 * imports into Swift; names the calling thread (first 15 bytes) for top/gdb. */
static inline void neon_set_thread_name(const char *name) {
    prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

/* sched_getaffinity is declared only under _GNU_SOURCE, which the system
 * headers' module was built without: declare it under another name. */
extern int neon_sched_getaffinity(int pid, size_t size, void *mask) __asm__("sched_getaffinity");

/* The CPUs this process may run on (its affinity mask, which containers
 * and taskset narrow); 0 when it cannot be read. */
static inline int neon_available_cores(void) {
    unsigned long long mask[16] = {0};
    if (neon_sched_getaffinity(0, sizeof mask, mask) != 0) return 0;
    int count = 0;
    for (int i = 0; i < 16; i++) count += __builtin_popcountll(mask[i]);
    return count;
}

#endif
