/* reload.c - which config sudokud serves, and how a new one takes over.
 *
 * The master never runs plugin code: loading a plugin runs its ELF
 * constructors and its list function, which may abort, hang or scribble.
 * So the master reads only the [sudokud] settings (lib/config.c's
 * sdk_config_read_settings, no dlopen) from a sealed copy of the file (a
 * memfd), and a child loads the plugins from that same copy:
 *
 *  - at startup a short-lived worker (check_config) loads it and answers
 *    READY {techniques, profiles} or an error, within load_timeout_ms; the
 *    daemon refuses to start when it does not;
 *  - on reload (SIGHUP or the reload method) the new generation's workers
 *    are the checkers: they start on the new copy while the old generation
 *    keeps serving; when all of them are ready the new generation serves and
 *    the old one retires; when one reports an error, dies while loading (the
 *    plugin it was in is named: it writes the path into shared memory before
 *    each dlopen) or the time limit passes, they are all killed and the
 *    reload is refused with that reason. The old config keeps serving.
 *
 * The copy the master accepted is what every worker of the generation loads,
 * respawned ones included, with relative paths resolved from the accepted
 * file's folder (CONFIG_NAME_ENV): an edit never reloaded, or a broken file,
 * never reaches a worker. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "daemon.h"
#include "workers.h"

/* A sealed copy (memfd) of the config file as it is now, -1 (errno) when none. */
static int config_snapshot(const char *path)
{
    int in = open(path, O_RDONLY | O_CLOEXEC);
    if (in < 0) return -1;
    int fd = memfd_create("sudokud-config", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    bool ok = fd >= 0;
    char buf[16384];
    for (ssize_t n; ok && (n = read(in, buf, sizeof buf)) != 0;) {
        if (n < 0) {
            if (errno == EINTR) continue;
            ok = false;
            break;
        }
        for (ssize_t off = 0, w; ok && off < n; off += w)
            if ((w = write(fd, buf + off, (size_t)(n - off))) < 0) ok = errno == EINTR, w = 0;
    }
    int e = errno;
    close(in);
    if (ok)
        ok = fcntl(fd, F_ADD_SEALS, F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE) == 0;
    if (!ok && fd >= 0) e = errno, close(fd), fd = -1;
    errno = e;
    return fd;
}

/* The snapshot of path and its settings, checked by the master (no plugin
 * loaded). -1 with err when refused. */
static int accept_settings(const char *path, limits *lim, sdk_error *err)
{
    int fd = config_snapshot(path);
    if (fd < 0) {
        sdk_error_set(err, SDK_E_CONFIG, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    char sp[64];
    snprintf(sp, sizeof sp, "/proc/self/fd/%d", fd);
    sdk_config cfg;
    if (!sdk_config_read_settings(sp, path, &cfg, err)) {
        close(fd);
        return -1;
    }
    *lim = (limits){
        .workers = D.workers_opt > 0 ? D.workers_opt : cfg.workers,
        .deadline_ms = cfg.deadline_ms,
        .max_connections = cfg.max_connections,
        .max_connections_per_uid = cfg.max_connections_per_uid,
        .max_queue = cfg.max_queue,
        .max_message = (size_t)cfg.max_message,
        .max_input_memory = (size_t)cfg.max_input_memory,
        .max_output = (size_t)cfg.max_output,
        .max_answer = (size_t)cfg.max_answer,
        .read_timeout_ms = cfg.read_timeout_ms,
        .idle_timeout_ms = cfg.idle_timeout_ms,
        .load_timeout_ms = cfg.load_timeout_ms,
        .worker_memory = (size_t)cfg.worker_memory,
        .idle_exit_ms = cfg.idle_exit_ms,
    };
    if (lim->workers <= 0) lim->workers = (int)uv_available_parallelism();
    int most = sdk_config_max_workers();
    if (lim->workers > most) {
        log_warn("--workers %d: at most %d on this machine (%d per core): starting %d",
                 lim->workers, most, SDK_WORKERS_PER_CORE, most);
        lim->workers = most;
    }
    return fd;
}

/* What a worker's READY frame says: techniques loaded and profile names. */
typedef struct gen_info {
    int ntechniques;
    int nprofile;
    char (*profiles)[48];
    life_loaded *life; /* ids, profile signatures, plugin files (life.c) */
} gen_info;

static bool gen_info_parse(const char *body, size_t n, gen_info *gi)
{
    memset(gi, 0, sizeof *gi);
    sdk_wire_reader r;
    const msgpack_object *o;
    sdk_error e;
    /* parsed, each id and path is an object too: room for them (n < 1 MiB) */
    bool ok = sdk_wire_reader_init(&r, (n + 4096) * 32) && sdk_wire_reader_feed(&r, body, n) &&
              sdk_wire_reader_next(&r, &o, &e) == 1;
    long nt = 0;
    const msgpack_object *pf = ok ? sdk_wire_get(o, "profiles") : NULL;
    ok = ok && sdk_wire_get_int(o, "techniques", 0, 1 << 20, &nt, &e) && pf &&
         pf->type == MSGPACK_OBJECT_ARRAY;
    if (ok) {
        gi->ntechniques = (int)nt;
        gi->profiles = calloc(pf->via.array.size + 1, sizeof *gi->profiles);
        ok = gi->profiles != NULL;
        for (uint32_t i = 0; ok && i < pf->via.array.size; i++)
            if (sdk_wire_copy_str(&pf->via.array.ptr[i], gi->profiles[gi->nprofile],
                                  sizeof *gi->profiles))
                gi->nprofile++;
    }
    if (ok) ok = (gi->life = life_parse_ready(o)) != NULL;
    if (!ok) {
        free(gi->profiles);
        gi->profiles = NULL;
    }
    sdk_wire_reader_free(&r);
    return ok;
}

static void apply(int fd, const limits *lim, gen_info *gi, unsigned gen)
{
    if (D.config_fd >= 0) close(D.config_fd);
    D.config_fd = fd;
    D.lim = *lim;
    free(D.profiles);
    D.profiles = gi->profiles;
    gi->profiles = NULL;
    D.nprofile = gi->nprofile;
    D.ntechniques = gi->ntechniques;
    D.generation = gen;
    life_generation_accepted(gi->life);
    gi->life = NULL;
    server_limits_changed();
}

/* Why a worker that was loading ended: the plugin it was in, if any. */
static void loader_death(const worker_shm *shm, int status, int sig, int timeout_ms, sdk_error *err)
{
    char how[128];
    if (timeout_ms)
        snprintf(how, sizeof how, "did not finish loading within %d ms (load_timeout_ms)",
                 timeout_ms);
    else if (sig)
        snprintf(how, sizeof how, "killed the worker loading it (signal %d, %s)", sig,
                 strsignal(sig));
    else
        snprintf(how, sizeof how, "made the worker loading it exit (status %d)", status);
    char where[sizeof shm->loading];
    memcpy(where, (const char *)shm->loading, sizeof where);
    where[sizeof where - 1] = 0;
    if (where[0])
        sdk_error_set(err, SDK_E_PLUGIN, "plugin %s %s: refused", where, how);
    else
        sdk_error_set(err, SDK_E_CONFIG, "the config %s: refused", how);
}

/* ---- startup: a short-lived checker -------------------------------------- */

static bool read_full(int fd, void *buf, size_t n, uint64_t deadline)
{
    char *p = buf;
    while (n > 0) {
        int64_t left = (int64_t)(deadline - now_ms());
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        if (left <= 0 || poll(&pf, 1, (int)left) == 0) {
            errno = ETIMEDOUT;
            return false;
        }
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            errno = r == 0 ? EPIPE : errno;
            return false;
        }
        p += r, n -= (size_t)r;
    }
    return true;
}

static bool check_config(int config_fd, const limits *lim, gen_info *gi, sdk_error *err)
{
    int sv[2] = {-1, -1}, shm_fd = memfd_create("sudokud-probe", MFD_CLOEXEC);
    worker_shm *shm = MAP_FAILED;
    if (shm_fd >= 0 && ftruncate(shm_fd, sizeof *shm) == 0)
        shm = mmap(NULL, sizeof *shm, PROT_READ | PROT_WRITE, MAP_SHARED, shm_fd, 0);
    if (shm == MAP_FAILED || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        sdk_error_set(err, SDK_E_INTERNAL, "cannot start a worker to load the config: %s",
                      strerror(errno));
        if (shm != MAP_FAILED) munmap(shm, sizeof *shm);
        if (shm_fd >= 0) close(shm_fd);
        return false;
    }
    shm->probe.current = -1;
    pid_t pid = fork();
    if (pid == 0) {
        /* fds 0, 3, 4 as a worker expects them (dup2 clears close-on-exec) */
        int keep[3] = {sv[1], shm_fd, config_fd};
        for (int i = 0; i < 3; i++) keep[i] = fcntl(keep[i], F_DUPFD_CLOEXEC, 10);
        if (dup2(keep[0], 0) < 0 || dup2(keep[1], PROBE_FD) < 0 || dup2(keep[2], CONFIG_FD) < 0)
            _exit(127);
        char snap[32];
        snprintf(snap, sizeof snap, "/proc/self/fd/%d", CONFIG_FD);
        char *args[] = {D.exe, "--worker",    "--config",
                        snap,  "--log-level", (char *)log_level_name(log_level()),
                        NULL};
        execv(D.exe, args);
        _exit(127);
    }
    close(sv[1]);
    close(shm_fd);
    bool ok = false;
    if (pid < 0) {
        sdk_error_set(err, SDK_E_INTERNAL, "cannot start a worker to load the config: %s",
                      strerror(errno));
    } else {
        uint64_t deadline = now_ms() + (uint64_t)lim->load_timeout_ms;
        unsigned char head[FRAME_HEAD];
        uint32_t blen = 0;
        char *body = NULL;
        bool got = read_full(sv[0], head, FRAME_HEAD, deadline);
        bool timed_out = !got && errno == ETIMEDOUT;
        if (got) {
            memcpy(&blen, head, 4);
            blen = ntohl(blen);
            got = blen < (1u << 20) && (body = malloc(blen + 1)) != NULL &&
                  read_full(sv[0], body, blen, deadline);
            timed_out = !got && errno == ETIMEDOUT;
        }
        if (got && head[4] == FRAME_READY) {
            ok = gen_info_parse(body, blen, gi);
            if (!ok) sdk_error_set(err, SDK_E_INTERNAL, "the worker's READY frame is malformed");
        } else if (got && head[4] == FRAME_ERROR) {
            sdk_wire_reader r;
            const msgpack_object *o;
            sdk_error e;
            char code[32] = SDK_E_CONFIG, msg[sizeof err->msg] = "the config does not load";
            if (sdk_wire_reader_init(&r, blen + 4096) && sdk_wire_reader_feed(&r, body, blen) &&
                sdk_wire_reader_next(&r, &o, &e) == 1) {
                sdk_wire_copy_str(sdk_wire_get(o, "code"), code, sizeof code);
                sdk_wire_copy_str(sdk_wire_get(o, "message"), msg, sizeof msg);
            }
            sdk_wire_reader_free(&r);
            sdk_error_set(err, code, "%s", msg);
        }
        free(body);
        if (timed_out) kill(pid, SIGKILL);
        close(sv[0]), sv[0] = -1; /* EOF: a ready checker exits */
        int st = 0;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
        }
        if (!ok && (timed_out || !got))
            loader_death(shm, WIFEXITED(st) ? WEXITSTATUS(st) : 0,
                         WIFSIGNALED(st) ? WTERMSIG(st) : 0, timed_out ? lim->load_timeout_ms : 0,
                         err);
    }
    if (sv[0] >= 0) close(sv[0]);
    munmap(shm, sizeof *shm);
    return ok;
}

bool daemon_load_config(const char *path, sdk_error *err)
{
    setenv(CONFIG_NAME_ENV, path, 1); /* what the workers call their copy */
    limits lim;
    int fd = accept_settings(path, &lim, err);
    if (fd < 0) return false;
    gen_info gi;
    if (!check_config(fd, &lim, &gi, err)) {
        close(fd);
        return false;
    }
    apply(fd, &lim, &gi, 1);
    if (SUDOKUD_ASAN && lim.worker_memory)
        log_info("worker_memory is not enforced in this AddressSanitizer build (a data limit "
                 "breaks its shadow memory)");
    return true;
}

/* ---- reload: the new generation checks itself ---------------------------- */

typedef struct waiter {
    conn *c;
    uint32_t msgid;
} waiter;

static struct {
    bool active;
    unsigned gen;
    int fd;
    limits lim;
    int ready;
    gen_info gi;
    bool have_info;
    uv_timer_t timer;
    bool timer_init;
    waiter *wait;
    int nwait;
    bool again; /* SIGHUP while trying: try the file again after */
} T;
static unsigned last_gen = 1;

static void answer_ok(conn *c, uint32_t msgid)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    sdk_wire_response_head(&pk, msgid);
    msgpack_pack_map(&pk, 4 + (size_t)life_changes_keys());
    sdk_wire_kv_bool(&pk, "ok", true);
    sdk_wire_kv_str(&pk, "config", D.config_path);
    sdk_wire_kv_int(&pk, "techniques", D.ntechniques);
    sdk_wire_kv_int(&pk, "generation", (long)D.generation);
    life_pack_changes(&pk); /* added, removed, profiles_added/removed/changed */
    conn_send(c, sb.data, sb.size);
    msgpack_sbuffer_destroy(&sb);
}

static char reload_why[512]; /* what asked for the reload (its log line says) */

void daemon_reload_why(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reload_why, sizeof reload_why, fmt, ap);
    va_end(ap);
}

static void start(void);

static void finish(const sdk_error *err)
{
    if (T.timer_init) uv_timer_stop(&T.timer);
    T.active = false;
    /* The log line goes first: whoever got the answer finds it in the log. */
    const char *why = reload_why[0] ? reload_why : "asked";
    if (err) {
        log_err("reload of %s (%s) failed, keeping the old config: %s", D.config_path, why,
                err->msg);
        sd_notifyf("READY=1\nSTATUS=reload failed, the old config serves: %s", err->msg);
    } else {
        char what[1024];
        log_info("reload of %s (%s): ok, generation %u, %d workers: %s", D.config_path, why,
                 D.generation, D.lim.workers, life_changes_text(what, sizeof what));
        sd_notifyf("READY=1\nSTATUS=reloaded %s (generation %u, %d workers)", D.config_path,
                   D.generation, D.lim.workers);
    }
    for (int i = 0; i < T.nwait; i++) {
        D.requests++;
        if (!T.wait[i].c) continue;
        if (err)
            conn_send_error(T.wait[i].c, T.wait[i].msgid, err->code[0] ? err->code : SDK_E_CONFIG,
                            "%s", err->msg);
        else
            answer_ok(T.wait[i].c, T.wait[i].msgid);
        T.wait[i].c->jobs--;
        conn_job_done(T.wait[i].c);
    }
    free(T.wait);
    T.wait = NULL;
    T.nwait = 0;
    reload_why[0] = 0;
    if (!T.again || D.draining) life_reload_ended();
    if (T.again && !D.draining) {
        T.again = false;
        start();
    }
}

static void fail(const sdk_error *err)
{
    workers_kill_generation(T.gen);
    close(T.fd);
    T.fd = -1;
    free(T.gi.profiles);
    T.gi.profiles = NULL;
    life_loaded_free(T.gi.life);
    T.gi.life = NULL;
    finish(err);
}

static void on_timeout(uv_timer_t *t)
{
    (void)t;
    if (!T.active) return;
    sdk_error err;
    worker_shm fake;
    memset(&fake, 0, sizeof fake);
    snprintf(fake.loading, sizeof fake.loading, "%s", workers_loading(T.gen));
    loader_death(&fake, 0, 0, T.lim.load_timeout_ms, &err);
    fail(&err);
}

static void start(void)
{
    sdk_error err;
    sd_notifyf("RELOADING=1\nMONOTONIC_USEC=%llu\nSTATUS=reloading %s",
               (unsigned long long)(uv_hrtime() / 1000u), D.config_path);
    T.fd = accept_settings(D.config_path, &T.lim, &err);
    T.active = true;
    if (T.fd < 0) {
        finish(&err);
        return;
    }
    T.gen = ++last_gen;
    T.ready = 0;
    T.have_info = false;
    if (!T.timer_init) {
        uv_timer_init(D.loop, &T.timer);
        uv_unref((uv_handle_t *)&T.timer); /* never what keeps the daemon running */
        T.timer_init = true;
    }
    uv_timer_start(&T.timer, on_timeout, (uint64_t)T.lim.load_timeout_ms, 0);
    log_info("reloading %s: starting generation %u (%d workers)", D.config_path, T.gen,
             T.lim.workers);
    workers_try_generation(T.gen, T.lim.workers, T.fd);
}

bool daemon_reload(sdk_error *err)
{
    if (D.draining) {
        sdk_error_set(err, SDK_E_BUSY, "sudokud is shutting down: no reload");
        return false;
    }
    if (T.active) {
        T.again = true;
        sdk_error_set(err, SDK_E_BUSY, "a reload is in progress; the file is read again after it");
        log_info("%s", err->msg);
        return true;
    }
    start();
    return true;
}

void daemon_reload_request(conn *c, uint32_t msgid)
{
    if (D.draining) {
        conn_send_error(c, msgid, SDK_E_BUSY, "sudokud is shutting down");
        D.requests++;
        return;
    }
    if (T.active) {
        conn_send_error(c, msgid, SDK_E_BUSY,
                        "a reload is in progress (generation %u is starting): try again later",
                        T.gen);
        D.requests++;
        return;
    }
    waiter *nw = realloc(T.wait, sizeof *nw * (size_t)(T.nwait + 1));
    if (!nw) {
        conn_send_error(c, msgid, SDK_E_INTERNAL, "out of memory");
        return;
    }
    T.wait = nw;
    T.wait[T.nwait++] = (waiter){c, msgid};
    c->jobs++; /* a half-closed connection waits for this answer */
    start();
}

void reload_forget_conn(conn *c)
{
    for (int i = 0; i < T.nwait; i++)
        if (T.wait[i].c == c) T.wait[i].c = NULL;
}

bool reload_trying(unsigned gen)
{
    return T.active && gen == T.gen;
}

void reload_worker_ready(unsigned gen, const char *body, size_t n)
{
    if (!reload_trying(gen)) return;
    if (!T.have_info) {
        if (!gen_info_parse(body, n, &T.gi)) {
            sdk_error err;
            sdk_error_set(&err, SDK_E_INTERNAL, "a new worker sent a malformed READY frame");
            fail(&err);
            return;
        }
        T.have_info = true;
    }
    if (++T.ready < T.lim.workers) return;
    apply(T.fd, &T.lim, &T.gi, T.gen);
    T.fd = -1;
    workers_roll();
    finish(NULL);
}

void reload_worker_failed(unsigned gen, const char *code, const char *msg)
{
    if (!reload_trying(gen)) return;
    sdk_error err;
    sdk_error_set(&err, code, "%s", msg);
    fail(&err);
}

void reload_cancel(const char *why)
{
    if (!T.active) return;
    T.again = false;
    sdk_error err;
    sdk_error_set(&err, SDK_E_BUSY, "reload cancelled: %s", why);
    fail(&err);
}

void reload_loader_died(unsigned gen, const worker_shm *shm, int status, int sig)
{
    if (!reload_trying(gen)) return;
    sdk_error err;
    loader_death(shm, status, sig, 0, &err);
    fail(&err);
}
