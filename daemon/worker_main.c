/* worker_main.c - a sudokud worker process (`sudokud --worker`): loads the
 * config the daemon accepted (its copy on fd 4) and the plugins, writing the
 * path of each plugin it loads into the memory it shares with the daemon
 * (fd 3, worker_shm) so that a plugin that kills or hangs it is named; says
 * READY {techniques, profiles} or why the config does not load; then serves
 * one request at a time on fd 0, a socketpair with the daemon (framed
 * msgpack both ways, see daemon.h; a batch piece and its answers' bursts
 * cross in the shared memory behind the probe, the socket naming them),
 * writing which technique runs into the probe. Batch answers go out in
 * bursts; an answer over max_answer becomes a too-large error. Its data is
 * limited to worker_memory (RLIMIT_DATA; not under AddressSanitizer, whose
 * shadow memory a limit breaks); a fault while out of memory, and the sender
 * of a signal from outside, are noted in the shared memory for the daemon's
 * answer. Plain blocking I/O, no event loop. */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include "daemon.h"

static bool write_all(int fd, struct iovec *iov, int n)
{
    while (n > 0) {
        ssize_t w = writev(fd, iov, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        while (n > 0 && (size_t)w >= iov->iov_len) {
            w -= (ssize_t)iov->iov_len;
            iov++, n--;
        }
        if (n > 0) {
            iov->iov_base = (char *)iov->iov_base + w;
            iov->iov_len -= (size_t)w;
        }
    }
    return true;
}

/* Frames of a batch chunk wait here and go out in one write every few ms of
 * work (FLUSH_NS) or FLUSH_BYTES, and at the chunk's end: one syscall (and one
 * wakeup of the daemon) per burst rather than per puzzle. */
#define FLUSH_NS 4000000ull
#define FLUSH_BYTES ((size_t)256 << 10)
#define CLOCK_EVERY 16
static msgpack_sbuffer outq;
static uint64_t last_flush;

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void queue_frame(int kind, const char *body, size_t n)
{
    unsigned char head[FRAME_HEAD];
    uint32_t len = htonl((uint32_t)n);
    memcpy(head, &len, 4);
    head[4] = (unsigned char)kind;
    msgpack_sbuffer_write(&outq, (const char *)head, FRAME_HEAD);
    if (n) msgpack_sbuffer_write(&outq, body, n);
}

/* The memory shared with the daemon (daemon.h): the probe, then the piece
 * area and the answers' ring when the daemon made it that big. */
static worker_shm *g_shm;
static const char *g_piece; /* NULL: every frame on the socket */
static char *g_ring;
static size_t g_ring_size;
static uint64_t g_ring_at; /* bytes ever put in the ring */

/* The burst into the ring when it has room for it in one run (a burst that
 * would wrap starts at the ring's beginning), and a FRAME_RING saying where:
 * 1; 0 when it has no room (the daemon has not read enough yet), -1 when
 * the socket broke. */
static int ring_put(const char *data, size_t n)
{
    uint64_t at = g_ring_at;
    if (at % g_ring_size + n > g_ring_size) at += g_ring_size - at % g_ring_size;
    uint64_t read = __atomic_load_n(&g_shm->ring_read, __ATOMIC_ACQUIRE);
    if (at + n - read > g_ring_size) return 0;
    memcpy(g_ring + at % g_ring_size, data, n);
    g_ring_at = at + n;
    unsigned char f[FRAME_HEAD + 12];
    uint32_t len = htonl(12), n32 = (uint32_t)n;
    memcpy(f, &len, 4);
    f[4] = FRAME_RING;
    memcpy(f + FRAME_HEAD, &at, 8);
    memcpy(f + FRAME_HEAD + 8, &n32, 4);
    struct iovec iov = {f, sizeof f};
    return write_all(0, &iov, 1) ? 1 : -1;
}

static bool flush_frames(void)
{
    if (!outq.size) return true;
    int r = g_ring && outq.size <= g_ring_size / 2 ? ring_put(outq.data, outq.size) : 0;
    bool ok = r > 0;
    if (r == 0) {
        struct iovec iov = {outq.data, outq.size};
        ok = write_all(0, &iov, 1);
    }
    msgpack_sbuffer_clear(&outq);
    last_flush = mono_ns();
    return ok;
}

static bool send_frame(int kind, const char *body, size_t n)
{
    unsigned char head[FRAME_HEAD];
    uint32_t len = htonl((uint32_t)n);
    memcpy(head, &len, 4);
    head[4] = (unsigned char)kind;
    struct iovec iov[2] = {{head, FRAME_HEAD}, {(void *)body, n}};
    return write_all(0, iov, n ? 2 : 1); /* fd 0 is a socketpair: both ways */
}

static bool read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        p += r;
        n -= (size_t)r;
    }
    return true;
}

static size_t g_limit; /* worker_memory, 0: none */

/* A fault (SIGSEGV, SIGBUS, SIGABRT): was the worker out of memory? The last
 * failed allocation left ENOMEM in errno, or the data in use is near the
 * limit (/proc/self/statm: async-signal-safe reads). Then the default action
 * runs again (SA_RESETHAND). */
static void on_fault(int sig)
{
    int e = errno;
    bool oom = e == ENOMEM;
    if (!oom && g_limit) {
        char buf[128];
        int fd = open("/proc/self/statm", O_RDONLY);
        ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
        if (fd >= 0) close(fd);
        if (n > 0) {
            buf[n] = 0;
            /* size resident shared text lib data dt: the 6th field */
            char *p = buf;
            for (int f = 0; f < 5 && p; f++) {
                while (*p && *p != ' ') p++;
                while (*p == ' ') p++;
            }
            unsigned long pages = 0;
            while (*p >= '0' && *p <= '9') pages = pages * 10 + (unsigned long)(*p++ - '0');
            oom = pages * (unsigned long)sysconf(_SC_PAGESIZE) + ((size_t)32 << 20) > g_limit;
        }
    }
    if (oom && g_shm) g_shm->out_of_memory = 1;
    (void)sig;
}

/* A signal sent from outside: note who sent it, then die of it. */
static void on_outside(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    if (g_shm && si) {
        g_shm->sender_pid = si->si_pid;
        g_shm->sender_uid = (int32_t)si->si_uid;
        g_shm->signo = sig;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void watch_signals(bool faults)
{
    static const int outside[] = {SIGTERM, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGXFSZ};
    for (size_t i = 0; i < sizeof outside / sizeof *outside; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_outside;
        sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
        sigaction(outside[i], &sa, NULL);
    }
    if (!faults) return;
    static const int fault[] = {SIGSEGV, SIGBUS, SIGABRT};
    for (size_t i = 0; i < sizeof fault / sizeof *fault; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fault;
        sa.sa_flags = SA_RESETHAND | SA_NODEFER;
        sigaction(fault[i], &sa, NULL);
    }
}

static void note_loading(const char *path, void *arg)
{
    worker_shm *shm = arg;
    if (!shm) return;
    if (path)
        snprintf(shm->loading, sizeof shm->loading, "%s", path);
    else
        shm->loading[0] = 0;
}

static bool send_error(const sdk_error *e)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    sdk_wire_pack_error(&pk, e);
    bool ok = send_frame(FRAME_ERROR, sb.data, sb.size);
    msgpack_sbuffer_destroy(&sb);
    return ok;
}

static size_t g_max_answer;

#define TRIM_ABOVE ((size_t)64 << 10)
/* Five seconds, as the daemon's quiet time (trim.c): a script's runs of
 * sudoctl come a second apart on a loaded machine, and after a trim each
 * worker faulted its burst buffer in again, 30-50 pages at ~13 us each. */
#define TRIM_IDLE_MS 5000
static bool g_big; /* the last request had buffers over TRIM_ABOVE */
/* Pages a worker may fault in (1 MiB) before an idle trim is worth it: a
 * search's buffers freed into the heap come with a small answer, which
 * g_big misses (rate default of line 113 of forum_hardest_1106: the idle
 * worker stayed at 27.9 MB RSS; trimmed, 24.6 MB). */
#define TRIM_FAULTS 256
static long g_faults_at_trim; /* this process's minor faults at the last trim */
/* The techniques' caches (sudoku/cache.h: SE's nested results and search
 * buffers, link graphs, ...) are allocated, not free, so malloc_trim
 * leaves them: after one hard rating (rate default of line 113 of
 * forum_hardest_1106) an idle worker kept ~25 MB. So the idle trim also
 * releases them when the heap in use is more than CACHE_KEEP above what
 * it was when the worker got ready: a hard request's caches go, while
 * after easy puzzles (a few hundred kB of caches) the next request finds
 * them (no churn of page faults for a script's loop of small runs). The
 * caches are made again by the next request that needs them, with the
 * same answers. */
#define CACHE_KEEP ((size_t)4 << 20)
static size_t g_heap_at_ready; /* bytes in use when the worker got ready */

static size_t heap_in_use(void)
{
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

static long minor_faults(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) ? 0 : ru.ru_minflt;
}

/* An answer over max_answer: a too-large error in its place. */
static bool answer_fits(size_t n, sdk_error *err)
{
    if (!g_max_answer || n <= g_max_answer) return true;
    sdk_error_set(err, SDK_E_TOO_LARGE,
                  "the answer of %zu bytes is larger than max_answer (%zu bytes): ask for less "
                  "(max_trace, fewer steps)",
                  n, g_max_answer);
    return false;
}

/* One request: [method, params, mode]. Returns false when the pipe broke. */
static bool serve(sdk_service *sv, worker_shm *shm, const msgpack_object *o)
{
    sdk_error err = {"", ""};
    if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 3 ||
        o->via.array.ptr[0].type != MSGPACK_OBJECT_STR) {
        sdk_error_set(&err, SDK_E_INTERNAL, "worker got a malformed frame");
        return send_error(&err);
    }
    const msgpack_object *m = &o->via.array.ptr[0], *params = &o->via.array.ptr[1];
    bool batch = o->via.array.ptr[2].type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
                 o->via.array.ptr[2].via.u64 == 1;
    if (params->type == MSGPACK_OBJECT_NIL) params = NULL;
    sdk_request *rq = sdk_service_prepare(sv, m->via.str.ptr, m->via.str.size, params, &err);
    if (!rq) return send_error(&err);
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    bool ok = true;
    int n = sdk_request_batch_size(rq);
    if (batch && n >= 0) {
        /* each answer is packed in place, behind its frame head; the clock
         * is read after every puzzle while they are slow (a burst of a few),
         * then every 2, 4, ... CLOCK_EVERY while they are fast enough that
         * the next look still comes before FLUSH_NS */
        msgpack_packer qpk;
        msgpack_packer_init(&qpk, &outq, msgpack_sbuffer_write);
        last_flush = mono_ns();
        int every = 1, since = 0, burst = 0;
        for (int i = 0; i < n && ok; i++) {
            if (shm) shm->item = i;
            size_t at = outq.size;
            queue_frame(FRAME_ITEM, NULL, 0);
            sdk_service_item(sv, rq, i, &qpk);
            if (!answer_fits(outq.size - at - FRAME_HEAD, &err)) { /* {puzzle, error} */
                outq.size = at + FRAME_HEAD;
                sdk_service_item_error(rq, i, &err, &qpk);
            }
            uint32_t len = htonl((uint32_t)(outq.size - at - FRAME_HEAD));
            memcpy(outq.data + at, &len, 4);
            burst++;
            if (outq.size < FLUSH_BYTES && ++since < every) continue;
            since = 0;
            uint64_t el = mono_ns() - last_flush;
            if (outq.size >= FLUSH_BYTES || el >= FLUSH_NS) {
                every = burst >= 4 * CLOCK_EVERY ? CLOCK_EVERY : 1;
                burst = 0;
                ok = flush_frames();
            } else if (every < CLOCK_EVERY &&
                       el + el / (uint64_t)burst * 2 * (uint64_t)every < FLUSH_NS) {
                every *= 2; /* fast puzzles: the clock is read less often, never late */
            }
        }
        if (ok) {
            queue_frame(FRAME_END, NULL, 0);
            ok = flush_frames();
        }
        msgpack_sbuffer_clear(&outq);
    } else if (sdk_service_run(sv, rq, &pk, &err)) {
        ok = answer_fits(sb.size, &err) ? send_frame(FRAME_RESULT, sb.data, sb.size)
                                        : send_error(&err);
    } else {
        ok = send_error(&err);
    }
    if (sb.alloc > TRIM_ABOVE) g_big = true;
    msgpack_sbuffer_destroy(&sb);
    sdk_request_free(rq);
    return ok;
}

/* After a request with big buffers, a worker idle for TRIM_IDLE_MS gives
 * the memory back (as the daemon does, trim.c): the reader and the burst
 * buffer shrink, the techniques' caches go when they hold much (CACHE_KEEP
 * above), and malloc_trim(0) returns the free pages. A busy worker
 * never waits for it: the next frame ends the poll at once. */
static void trim_when_idle(sdk_wire_reader *rd, const sdk_config *cfg)
{
    if (!g_big && outq.alloc <= TRIM_ABOVE && minor_faults() - g_faults_at_trim <= TRIM_FAULTS)
        return;
    struct pollfd p = {.fd = 0, .events = POLLIN};
    int r;
    do r = poll(&p, 1, TRIM_IDLE_MS);
    while (r < 0 && errno == EINTR);
    if (r != 0) return; /* a frame came (or EOF): serve it first */
    g_big = false;
    sdk_wire_reader_trim(rd, TRIM_ABOVE);
    msgpack_sbuffer_destroy(&outq);
    msgpack_sbuffer_init(&outq);
    size_t in_use = heap_in_use();
    if (SUDOKUD_ASAN) { /* its allocator is not malloc's: no figures, always */
        sdk_config_release_caches(cfg);
        log_debug("worker: released the caches (heap figures unknown under ASan)");
    } else if (in_use > g_heap_at_ready + CACHE_KEEP) {
        sdk_config_release_caches(cfg);
        log_debug("worker: released the caches: heap in use %zu kB, now %zu kB (%zu kB at ready)",
                  in_use >> 10, heap_in_use() >> 10, g_heap_at_ready >> 10);
    }
    malloc_trim(0);
    g_faults_at_trim = minor_faults();
}

int worker_main(const char *config_path)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the daemon */
    if (getppid() == 1) return 1;
    signal(SIGPIPE, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGINT, SIG_IGN); /* a ^C on the daemon's terminal is the daemon's business */

    worker_shm *shm = NULL;
    sdk_service_probe *probe = NULL;
    /* the piece area and the ring when the daemon made them (not when it
     * only checks that a config loads) */
    struct stat st;
    size_t mapped = sizeof *shm;
    if (fstat(PROBE_FD, &st) == 0 && st.st_size >= (off_t)(SHM_RING_OFF + 4096))
        mapped = (size_t)st.st_size;
    void *map = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_SHARED, PROBE_FD, 0);
    if (map != MAP_FAILED) shm = map, probe = &shm->probe;
    if (shm && mapped > sizeof *shm) {
        g_piece = (char *)map + SHM_PIECE_OFF;
        g_ring = (char *)map + SHM_RING_OFF;
        g_ring_size = mapped - SHM_RING_OFF;
    }
    close(PROBE_FD);
    msgpack_sbuffer_init(&outq);
    int sndbuf = SOCKET_BUFFER; /* a burst of answers in one write */
    setsockopt(0, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);

    g_shm = shm;
    watch_signals(false);
    sdk_config cfg;
    sdk_error err;
    sdk_config_observe_plugins(note_loading, shm);
    bool ok = sdk_config_load_named(config_path, getenv(CONFIG_NAME_ENV), &cfg, &err);
    sdk_config_observe_plugins(NULL, NULL);
    char snap[32];
    snprintf(snap, sizeof snap, "/proc/self/fd/%d", CONFIG_FD);
    if (strcmp(config_path, snap) == 0) close(CONFIG_FD); /* the daemon's copy: read */
    if (!ok) { /* the daemon refuses this config with the reason */
        log_debug("worker: %s", err.msg);
        send_error(&err);
        return 2;
    }
    sdk_service sv;
    if (!sdk_service_init(&sv, &cfg, probe, &err)) {
        send_error(&err);
        sdk_config_free(&cfg);
        return 2;
    }
    g_max_answer = (size_t)cfg.max_answer;
    if (cfg.worker_memory > 0 && !SUDOKUD_ASAN) {
        struct rlimit rl = {(rlim_t)cfg.worker_memory, (rlim_t)cfg.worker_memory};
        if (setrlimit(RLIMIT_DATA, &rl) != 0)
            log_warn("worker: cannot limit its memory to %lld bytes: %s", cfg.worker_memory,
                     strerror(errno));
        g_limit = (size_t)cfg.worker_memory;
        watch_signals(true);
    }
    int status = 0;
    {
        msgpack_sbuffer rb;
        msgpack_packer pk;
        msgpack_sbuffer_init(&rb);
        msgpack_packer_init(&pk, &rb, msgpack_sbuffer_write);
        int nt = 0;
        for (int i = 0; i < cfg.nplugin; i++)
            for (int k = 0; cfg.plugin[i].list[k]; k++) nt++;
        msgpack_pack_map(&pk, 2 + (size_t)life_ready_keys());
        sdk_wire_kv_int(&pk, "techniques", nt);
        sdk_wire_str(&pk, "profiles");
        msgpack_pack_array(&pk, (size_t)cfg.nprofile);
        for (int i = 0; i < cfg.nprofile; i++) sdk_wire_str(&pk, cfg.profile[i].name);
        life_pack_ready(&pk, &cfg); /* ids, profile signatures, plugin files */
        if (!send_frame(FRAME_READY, rb.data, rb.size)) status = 1;
        msgpack_sbuffer_destroy(&rb);
    }
    malloc_trim(0); /* what loading the config and the plugins used and freed */
    /* Freed search buffers stay in the heap for the next request (malloc
     * would hand big ones back at each free and fault them in again); the
     * idle trim returns them. Through a daemon, one worker, A/B alternated
     * at load ~12 (glibc tunables, same values): rate default of lines
     * 113, 114, 43 of forum_hardest_1106: faults 16,381 -> 8,162, CPU
     * median 9.0 -> 8.4 s; explain standard of the 12 lines slowest to
     * rate by default: faults 3,829 -> 2,635, CPU median 1.88 -> 1.67 s
     * (an earlier try, trim.c, found explain slower: not seen again). */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    g_heap_at_ready = heap_in_use();
    sdk_wire_reader rd;
    sdk_wire_reader_init(&rd, (size_t)1 << 31);
    rd.fast = true; /* each frame is served before the next is read */
    while (status == 0) {
        uint32_t len;
        trim_when_idle(&rd, &cfg);
        if (!read_all(0, &len, 4)) break; /* EOF: the daemon retires us */
        len = ntohl(len);
        /* a new frame: the daemon tells a crash in it from one in the frame
         * before (it may send the next before this one ends) */
        if (shm) {
            shm->item = 0;
            __atomic_store_n(&shm->begun, shm->begun + 1, __ATOMIC_RELEASE);
        }
        if (len & SHM_FRAME) { /* a piece in a shared area: read in place */
            const char *area = g_piece && (len & SHM_AREA_B) ? g_piece + SHM_PIECE_SIZE : g_piece;
            len &= ~(SHM_FRAME | SHM_AREA_B);
            /* its puzzles read by a loop over their heads (sdk_wire_unpack) */
            msgpack_object piece;
            size_t at = 0;
            msgpack_zone *z = g_piece && len <= SHM_PIECE_SIZE ? msgpack_zone_new(8192) : NULL;
            if (z && sdk_wire_unpack(area, len, &at, z, &piece) && at == len) {
                if (!serve(&sv, shm, &piece)) status = 1;
                msgpack_zone_free(z);
                if (probe) probe->requests++;
                continue;
            }
            if (z) msgpack_zone_free(z);
            msgpack_unpacked u;
            msgpack_unpacked_init(&u);
            size_t off = 0;
            if (!g_piece || len > SHM_PIECE_SIZE ||
                msgpack_unpack_next(&u, area, len, &off) != MSGPACK_UNPACK_SUCCESS || off != len) {
                log_err("worker: bad piece in shared memory from the daemon");
                msgpack_unpacked_destroy(&u);
                status = 1;
                break;
            }
            if (!serve(&sv, shm, &u.data)) status = 1;
            msgpack_unpacked_destroy(&u);
            if (probe) probe->requests++;
            continue;
        }
        if (len > TRIM_ABOVE) g_big = true;
        size_t room;
        char *p = sdk_wire_reader_space(&rd, len ? len : 1, &room);
        if (!p || !read_all(0, p, len)) {
            status = 1;
            break;
        }
        sdk_wire_reader_commit(&rd, len);
        const msgpack_object *o;
        if (sdk_wire_reader_next(&rd, &o, &err) != 1) {
            log_err("worker: bad frame from the daemon: %s", err.msg);
            status = 1;
            break;
        }
        if (!serve(&sv, shm, o)) status = 1;
        if (probe) probe->requests++;
    }
    sdk_wire_reader_free(&rd);
    sdk_service_free(&sv);
    sdk_config_free(&cfg);
    msgpack_sbuffer_destroy(&outq);
    if (shm) munmap(shm, mapped);
    return status;
}
