#ifndef NEON_CLIBWEBSOCKETS_SHIM_H
#define NEON_CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>
#include <openssl/x509v3.h>
#include <sys/prctl.h>
#include <ev.h>
#include <stdlib.h>

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

static inline uint64_t neon_lws_option_libev(void) {
    return (uint64_t)LWS_SERVER_OPTION_LIBEV;
}

/* A libev loop on epoll for lws's foreign-loop mode (`info.foreign_loops`),
 * so a service round costs the sockets that are ready rather than a poll()
 * over every socket. EVRUN_ONCE blocks until at least one watcher fired,
 * the way lws_service(ctx, 0) does.
 *
 * lws 4.1's libev glue re-arms its one timer only when that timer is not
 * already running, so a timer set earlier than the one it waits for (a
 * connection's lws_set_timer_usecs while a later lws timeout is pending)
 * would wait for the later one. A tick every 100 ms cancels the service
 * wait (lws_cancel_service), after which lws's idle handler runs every
 * timer that is due: timers fire at most 100 ms late. */
struct neon_ev_loop {
    struct ev_loop *loop;
    struct lws_context *context;
    ev_timer tick;
};
static void neon_ev_tick(struct ev_loop *loop, ev_timer *tick, int revents) {
    (void)loop; (void)revents;
    struct neon_ev_loop *owner = (struct neon_ev_loop *)tick->data;
    if (owner->context) lws_cancel_service(owner->context);
}
/* NULL when epoll is not available. */
static inline struct neon_ev_loop *neon_ev_loop_new(void) {
    struct neon_ev_loop *owner = (struct neon_ev_loop *)calloc(1, sizeof *owner);
    if (!owner) return NULL;
    owner->loop = ev_loop_new(EVBACKEND_EPOLL | EVFLAG_NOENV | EVFLAG_NOSIGMASK);
    if (!owner->loop) { free(owner); return NULL; }
    ev_timer_init(&owner->tick, neon_ev_tick, 0.1, 0.1);
    owner->tick.data = owner;
    return owner;
}
/* What lws takes in info.foreign_loops. */
static inline void *neon_ev_loop_handle(struct neon_ev_loop *owner) { return owner->loop; }
/* Starts the tick once the context exists; NULL stops it. */
static inline void neon_ev_loop_serve(struct neon_ev_loop *owner, struct lws_context *context) {
    owner->context = context;
    if (context) ev_timer_start(owner->loop, &owner->tick);
    else ev_timer_stop(owner->loop, &owner->tick);
}
static inline void neon_ev_run_once(struct neon_ev_loop *owner) { ev_run(owner->loop, EVRUN_ONCE); }
static inline void neon_ev_loop_destroy(struct neon_ev_loop *owner) {
    ev_timer_stop(owner->loop, &owner->tick);
    ev_loop_destroy(owner->loop);
    free(owner);
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
