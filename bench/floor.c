/* floor.c: the cost of a raw write, the floor a server's delivery is measured
 * against (docs/PERFORMANCE.md, "The floor: a raw write"). N connected
 * loopback TCP pairs; at RATE events a second, one B-byte write() to each of
 * the N sending ends (TCP_NODELAY, as libwebsockets sets it); the receiving
 * ends are drained with epoll on another thread, as the load generator would.
 * The floor is the writing thread's CPU per write (CLOCK_THREAD_CPUTIME_ID):
 * on loopback the receiver's TCP work runs in the sender's context, as it
 * does for the server. -t T splits the sockets over T writers on one
 * schedule: the floor for T service threads. Prints one JSON line.
 *
 *   clang -O2 -pthread bench/floor.c -o floor     (scripts/bench-compare.sh builds it)
 *   ./floor [-n 1000] [-r 60] [-d 30] [-b 150] [-t 1]     (ulimit -n above 2N + 10) */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static int n = 1000, rate = 60, secs = 30, size = 150, writers = 1;
static int *tx, *rx;                   /* tx[i] → rx[i], one loopback TCP pair */
static atomic_int done;
static struct timespec start;
static double writer_cpu[64], drain_cpu;
static long long received;

static double ts(struct timespec t) { return t.tv_sec + t.tv_nsec * 1e-9; }
static double thread_cpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return ts(t); }
static double process_cpu(void) {     /* utime + stime of every thread */
    struct rusage r; getrusage(RUSAGE_SELF, &r);
    return r.ru_utime.tv_sec + r.ru_stime.tv_sec + (r.ru_utime.tv_usec + r.ru_stime.tv_usec) * 1e-6;
}

static void make_pairs(void) {
    int l = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof a;
    if (bind(l, (void *)&a, len) || listen(l, 4096) || getsockname(l, (void *)&a, &len)) { perror("listen"); exit(1); }
    for (int i = 0; i < n; i++) {
        tx[i] = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(tx[i], (void *)&a, len)) { perror("connect (ulimit -n?)"); exit(1); }
        rx[i] = accept4(l, NULL, NULL, SOCK_NONBLOCK);
        setsockopt(tx[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  /* as lws does */
    }
    close(l);
}

static void *drain(void *unused) {     /* reads everything, as the load generator would */
    (void)unused; double c0 = thread_cpu(); int ep = epoll_create1(0);
    for (int i = 0; i < n; i++) {
        struct epoll_event e = { .events = EPOLLIN, .data.fd = rx[i] };
        epoll_ctl(ep, EPOLL_CTL_ADD, rx[i], &e);
    }
    struct epoll_event ev[256]; char buf[65536];
    while (!atomic_load(&done)) {
        int k = epoll_wait(ep, ev, 256, 100);
        for (int j = 0; j < k; j++) {
            ssize_t got;
            while ((got = read(ev[j].data.fd, buf, sizeof buf)) > 0) received += got;
        }
    }
    drain_cpu = thread_cpu() - c0;
    return NULL;
}

static void *writer(void *arg) {       /* writer w owns sockets w, w+T, w+2T, … */
    int w = (int)(long)arg; char msg[4096]; memset(msg, 'x', sizeof msg);
    double c0 = thread_cpu();
    for (long e = 0; e < (long)rate * secs; e++) {
        long ns = e * (1000000000L / rate);          /* absolute schedule: no drift */
        struct timespec due = { start.tv_sec + (start.tv_nsec + ns) / 1000000000L,
                                (start.tv_nsec + ns) % 1000000000L };
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, NULL);
        for (int i = w; i < n; i += writers)
            if (write(tx[i], msg, size) != size) { perror("write"); exit(1); }
    }
    writer_cpu[w] = thread_cpu() - c0;
    return NULL;
}

int main(int argc, char **argv) {
    for (int o; (o = getopt(argc, argv, "n:r:d:b:t:h")) != -1;) {
        if (o == 'h' || o == '?') {
            printf("usage: floor [-n pairs, 1000] [-r events/s, 60] [-d seconds, 30] [-b bytes, 150] [-t writers, 1]\n"
                   "One write of -b bytes to each of -n loopback TCP sockets, -r times a second for -d seconds;\n"
                   "prints the writers' CPU per write (the floor), the drain's and the process's, as JSON.\n");
            return o == 'h' ? 0 : 2;
        }
        int v = atoi(optarg);
        if (o == 'n') n = v; else if (o == 'r') rate = v; else if (o == 'd') secs = v;
        else if (o == 'b') size = v; else if (o == 't') writers = v;
    }
    if (n < 1 || rate < 1 || secs < 1 || size < 1 || size > 4096 || writers < 1 || writers > 64) {
        fprintf(stderr, "floor: -n, -r and -d must be at least 1, -b 1 to 4096 and -t 1 to 64; "
                        "usage: floor [-n pairs] [-r events/s] [-d seconds] [-b bytes] [-t writers]\n");
        return 2;
    }
    tx = calloc(n, sizeof *tx); rx = calloc(n, sizeof *rx);
    make_pairs();
    pthread_t d, w[64];
    pthread_create(&d, NULL, drain, NULL);
    double p0 = process_cpu();
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (int i = 0; i < writers; i++) pthread_create(&w[i], NULL, writer, (void *)(long)i);
    for (int i = 0; i < writers; i++) pthread_join(w[i], NULL);
    usleep(200000); atomic_store(&done, 1); pthread_join(d, NULL);
    double writes = (double)n * rate * secs, wcpu = 0, pcpu = process_cpu() - p0;
    for (int i = 0; i < writers; i++) wcpu += writer_cpu[i];
    printf("{\"floor\":true,\"n\":%d,\"rate\":%d,\"seconds\":%d,\"bytes\":%d,\"writers\":%d,\"writes\":%.0f,"
           "\"received_ok\":%s,\"writer_cpu_us_per_write\":%.3f,\"drain_cpu_us_per_write\":%.3f,"
           "\"process_cpu_us_per_write\":%.3f}\n", n, rate, secs, size, writers, writes,
           received == (long long)writes * size ? "true" : "false", wcpu / writes * 1e6,
           drain_cpu / writes * 1e6, pcpu / writes * 1e6);
    return 0;
}
