/* server.c - sudokud's Unix socket: listening (mode 0600; 0660 and the
 * group's in system mode or with --group; stale sockets replaced, a live
 * daemon left alone; or the socket systemd passes), accepting with peer
 * credentials (our uid, root, or a member of the socket's group), the
 * connection limits (in all and per peer uid: one user cannot take every
 * slot; a refused client is told why), reading messages through the wire
 * reader (metered: see lib/wire_meter.c) within a daemon-wide budget for
 * incomplete messages, timeouts (an incomplete message must be whole within
 * read_timeout_ms; a connection with nothing in flight closes after
 * idle_timeout_ms), and writing responses with back-pressure: a connection
 * whose unsent answers pass max_output is not read and its jobs wait until
 * it reads. */
#include <errno.h>
#include <grp.h>
#include <libgen.h>
#include <poll.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include "daemon.h"
#include "workers.h"

/* The open connections: nobody outside this file walks them. */
static conn *conns;
static int nconn;

#define READER_KEEP ((size_t)256 << 10) /* a reader buffer grown past this is given back */

typedef struct wreq {
    uv_write_t w;
    conn *c;
    size_t n;
    void (*done)(void *); /* conn_send_parts: the parts may go (NULL: none) */
    void *arg;
    char data[];
} wreq;

static unsigned next_conn_id = 1;
static uv_timer_t sweep_timer;
static bool sweep_on;

/* Is a daemon answering on path? */
static bool socket_alive(const char *path)
{
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return false;
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if ((size_t)snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path) >= sizeof sa.sun_path) {
        close(fd);
        return false;
    }
    bool alive = connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
    close(fd);
    return alive;
}

/* At end of stream: did the peer close its socket (gone: nobody reads the
 * answers, so its work is cancelled) or only shut down its writing side (it
 * still reads: answer what is in flight)? A Unix socket whose peer closed
 * polls POLLHUP; one whose peer did shutdown(SHUT_WR) does not. */
static bool peer_gone(conn *c)
{
    uv_os_fd_t fd;
    if (uv_fileno((uv_handle_t *)&c->h, &fd) != 0) return true;
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    return poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR));
}

static void conn_free(uv_handle_t *h)
{
    conn *c = h->data;
    sdk_wire_reader_free(&c->rd);
    free(c);
}

static void conn_destroy(conn *c)
{
    if (c->dead) return;
    c->dead = true;
    D.input_memory -= c->partial + c->kept;
    c->partial = 0;
    c->kept = 0;
    reload_forget_conn(c);
    if (c->prev)
        c->prev->next = c->next;
    else
        conns = c->next;
    if (c->next) c->next->prev = c->prev;
    nconn--;
    workers_forget_conn(c);
    log_debug("connection %u closed", c->id);
    uv_close((uv_handle_t *)&c->h, conn_free);
}

static bool writes_pending(conn *c)
{
    return uv_stream_get_write_queue_size((uv_stream_t *)&c->h) > 0;
}

size_t conn_unsent(conn *c)
{
    return c->dead ? 0 : uv_stream_get_write_queue_size((uv_stream_t *)&c->h);
}

/* What the connection's incomplete message holds now (its bytes: the
 * parser sees a message only once the meter says it is whole and within
 * max_message, so what it claims is not allocated yet), kept in the
 * daemon-wide count. False when that passes max_input_memory. */
static bool account_partial(conn *c)
{
    size_t now = sdk_wire_reader_partial(&c->rd) ? sdk_wire_reader_pending(&c->rd) : 0;
    D.input_memory = D.input_memory - c->partial + now;
    c->partial = now;
    if (!now)
        c->partial_since = 0;
    else if (!c->partial_since)
        c->partial_since = now_ms();
    return !now || D.input_memory <= D.lim.max_input_memory;
}

/* Between messages: a reader's buffer grown past READER_KEEP is given
 * back, unless the connection is busy (requests of it not yet answered): a
 * client streaming a batch sends the next big request soon, and regrowing
 * the buffer for each one cost ~3 MB of realloc copies in a run of
 * 17clue.txt. What a busy connection keeps counts in D.input_memory as an
 * incomplete message does (so the daemon-wide bound holds: past it, the
 * buffer goes at once), and it goes when the connection is seen idle (no
 * request left: sweep). Never called while a message is being handled
 * (trim frees the bytes its objects point into). */
static void reader_settle(conn *c)
{
    D.input_memory -= c->kept;
    c->kept = 0;
    size_t size = sdk_wire_reader_capacity(&c->rd);
    if (size <= READER_KEEP || sdk_wire_reader_pending(&c->rd)) return; /* nothing to give */
    if (c->jobs > 0 && !c->closing && D.input_memory + size <= D.lim.max_input_memory) {
        c->kept = size;
        D.input_memory += size;
        return;
    }
    sdk_wire_reader_trim(&c->rd, READER_KEEP);
}

static void alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    (void)suggested;
    conn *c = h->data;
    size_t room = 0;
    char *p = sdk_wire_reader_space(&c->rd, 64 * 1024, &room);
    *buf = uv_buf_init(p, p ? (unsigned)(room > (1u << 30) ? 1u << 30 : room) : 0);
}

static void read_cb(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
    (void)buf;
    conn *c = s->data;
    if (n < 0) {
        if (n != UV_EOF) log_debug("connection %u: %s", c->id, uv_strerror((int)n));
        uv_read_stop(s);
        c->closing = true;
        /* answer what is in flight only if the peer still reads: it half-closed */
        if (n != UV_EOF || (c->jobs == 0 && !writes_pending(c)) || peer_gone(c)) conn_destroy(c);
        return;
    }
    if (n == 0) return;
    c->last_active = now_ms();
    D.input_memory -= c->kept; /* its buffer holds the new bytes: counted as those */
    c->kept = 0;
    sdk_wire_reader_commit(&c->rd, (size_t)n);
    const msgpack_object *o;
    sdk_error err;
    int rc;
    while (!c->closing && !c->dead && (rc = sdk_wire_reader_next(&c->rd, &o, &err)) != 0) {
        if (rc < 0) {
            log_info("connection %u: %s: closing it", c->id, err.msg);
            conn_send_error(c, 0, err.code, "%s", err.msg);
            conn_close(c);
            return;
        }
        rpc_handle(c, o);
    }
    if (c->dead || c->closing) return;
    if (!account_partial(c)) {
        log_warn("connection %u: incomplete messages hold %zu bytes (max_input_memory %zu): "
                 "closing it",
                 c->id, D.input_memory, D.lim.max_input_memory);
        conn_send_error(c, 0, SDK_E_BUSY,
                        "sudokud holds %zu bytes of incomplete messages (max_input_memory is "
                        "%zu): send smaller messages or try again later",
                        D.input_memory, D.lim.max_input_memory);
        conn_close(c);
        return;
    }
    reader_settle(c);
}

static void write_cb(uv_write_t *w, int status)
{
    wreq *r = (wreq *)w;
    conn *c = r->c;
    if (r->done) r->done(r->arg);
    free(r);
    if (c->dead) return;
    if (status < 0) {
        log_debug("connection %u: write: %s", c->id, uv_strerror(status));
        conn_destroy(c);
        return;
    }
    c->last_active = now_ms();
    size_t unsent = uv_stream_get_write_queue_size((uv_stream_t *)&c->h);
    if (c->paused && unsent < D.lim.max_output / 2) {
        c->paused = false;
        if (c->partial_since) c->partial_since = now_ms(); /* we did not read meanwhile */
        if (!c->closing) uv_read_start((uv_stream_t *)&c->h, alloc_cb, read_cb);
    }
    if (c->held && unsent < D.lim.max_output / 2) {
        c->held = false;
        workers_dispatch();
    }
    if (c->closing && c->jobs == 0 && !writes_pending(c)) conn_destroy(c);
}

char *conn_send_alloc(size_t n)
{
    wreq *r = malloc(sizeof *r + n);
    if (!r) return NULL;
    r->n = n;
    r->done = NULL;
    return r->data;
}

void conn_send(conn *c, const char *data, size_t n)
{
    if (c->dead) return;
    char *copy = conn_send_alloc(n);
    if (copy) memcpy(copy, data, n);
    conn_send_built(c, copy, n);
}

static void hold_if_unread(conn *c);

void conn_send_built(conn *c, char *data, size_t n)
{
    if (!data) { /* conn_send_alloc failed */
        if (c->dead) return;
        log_err("out of memory writing %zu bytes to connection %u", n, c->id);
        conn_destroy(c);
        return;
    }
    wreq *r = (wreq *)(data - offsetof(wreq, data));
    if (c->dead) {
        free(r);
        return;
    }
    r->c = c;
    r->n = n; /* may be less than allocated */
    uv_buf_t b = uv_buf_init(r->data, (unsigned)n);
    int rc = uv_write(&r->w, (uv_stream_t *)&c->h, &b, 1, write_cb);
    if (rc < 0) {
        free(r);
        log_debug("connection %u: write: %s", c->id, uv_strerror(rc));
        conn_destroy(c);
        return;
    }
    hold_if_unread(c);
}

/* Past max_output unsent: the connection's jobs wait, and it is not read. */
static void hold_if_unread(conn *c)
{
    if (!c->held && uv_stream_get_write_queue_size((uv_stream_t *)&c->h) > D.lim.max_output) {
        log_debug("connection %u: %zu bytes unsent (max_output): its jobs wait", c->id,
                  uv_stream_get_write_queue_size((uv_stream_t *)&c->h));
        c->held = true;
        if (!c->paused && !c->closing) uv_read_stop((uv_stream_t *)&c->h);
        c->paused = true;
    }
}

void conn_send_parts(conn *c, const char *head, size_t n, const uv_buf_t *parts, unsigned nparts,
                     void (*done)(void *), void *arg)
{
    uv_buf_t few[32], *b = nparts < 32 ? few : malloc(sizeof *b * (nparts + 1));
    wreq *r = c->dead || !b ? NULL : malloc(sizeof *r + n);
    if (!r) {
        if (b != few) free(b);
        done(arg);
        if (c->dead) return;
        log_err("out of memory writing an answer to connection %u", c->id);
        conn_destroy(c);
        return;
    }
    r->c = c;
    r->n = n;
    r->done = done;
    r->arg = arg;
    memcpy(r->data, head, n);
    b[0] = uv_buf_init(r->data, (unsigned)n);
    memcpy(b + 1, parts, sizeof *b * nparts);
    int rc = uv_write(&r->w, (uv_stream_t *)&c->h, b, nparts + 1, write_cb); /* copies b */
    if (b != few) free(b);
    if (rc < 0) {
        done(arg);
        free(r);
        log_debug("connection %u: write: %s", c->id, uv_strerror(rc));
        conn_destroy(c);
        return;
    }
    hold_if_unread(c);
}

void conn_send_error(conn *c, uint32_t msgid, const char *code, const char *fmt, ...)
{
    sdk_error e;
    snprintf(e.code, sizeof e.code, "%s", code);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e.msg, sizeof e.msg, fmt, ap);
    va_end(ap);
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    sdk_wire_response_error(&pk, msgid, &e);
    conn_send(c, sb.data, sb.size);
    msgpack_sbuffer_destroy(&sb);
}

void conn_close(conn *c)
{
    if (c->dead) return;
    c->closing = true;
    uv_read_stop((uv_stream_t *)&c->h);
    if (c->jobs == 0 && !writes_pending(c)) conn_destroy(c);
}

/* Is the peer (uid, gid) a member of group gid? Its supplementary groups
 * from the socket (SO_PEERGROUPS), else from the group database. */
static bool peer_in_group(int fd, uid_t uid, gid_t pgid, gid_t gid)
{
    if (pgid == gid) return true;
    gid_t groups[256];
    socklen_t len = sizeof groups;
#ifdef SO_PEERGROUPS
    if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) == 0) {
        for (size_t i = 0; i < len / sizeof *groups; i++)
            if (groups[i] == gid) return true;
        return false;
    }
#endif
    (void)fd, (void)len;
    struct passwd *pw = getpwuid(uid);
    int n = (int)(sizeof groups / sizeof *groups);
    if (!pw || getgrouplist(pw->pw_name, pgid, groups, &n) < 0) return false;
    for (int i = 0; i < n; i++)
        if (groups[i] == gid) return true;
    return false;
}

static bool peer_allowed(conn *c)
{
    uv_os_fd_t fd;
    if (uv_fileno((uv_handle_t *)&c->h, &fd) != 0) return false;
    struct ucred cr;
    socklen_t len = sizeof cr;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) != 0) {
        log_warn("connection %u: SO_PEERCRED: %s", c->id, strerror(errno));
        return false;
    }
    c->uid = (unsigned)cr.uid;
    if (cr.uid == getuid() || cr.uid == 0) return true;
    if (D.sock_gid >= 0 && peer_in_group(fd, cr.uid, cr.gid, (gid_t)D.sock_gid)) return true;
    log_warn("connection %u: refused peer uid %u gid %u (pid %d)%s", c->id, (unsigned)cr.uid,
             (unsigned)cr.gid, (int)cr.pid,
             D.sock_gid >= 0 ? ": not our uid, root, or in the socket's group" : "");
    return false;
}

static void on_connection(uv_stream_t *server, int status)
{
    if (status < 0) {
        log_warn("accept: %s", uv_strerror(status));
        return;
    }
    conn *c = calloc(1, sizeof *c);
    if (!c || !sdk_wire_reader_init(&c->rd, D.lim.max_message)) {
        free(c);
        log_err("out of memory accepting a connection");
        return;
    }
    c->rd.fast = true; /* each message is done with before more is read (read_cb) */
    uv_pipe_init(D.loop, &c->h, 0);
    c->h.data = c;
    c->id = next_conn_id++;
    if (uv_accept(server, (uv_stream_t *)&c->h) != 0) {
        uv_close((uv_handle_t *)&c->h, conn_free);
        return;
    }
    int sndbuf = SOCKET_BUFFER;
    uv_send_buffer_size((uv_handle_t *)&c->h, &sndbuf);
    c->next = conns;
    if (conns) conns->prev = c;
    conns = c;
    nconn++;
    if (!peer_allowed(c)) {
        conn_destroy(c);
        return;
    }
    int same = 0;
    for (conn *o = conns; o; o = o->next) same += !o->closing && o->uid == c->uid;
    if (same > D.lim.max_connections_per_uid) {
        log_warn("connection %u refused: uid %u has %d connections open "
                 "(max_connections_per_uid)",
                 c->id, c->uid, same - 1);
        conn_send_error(c, 0, SDK_E_BUSY,
                        "too many connections from uid %u: %d open (max_connections_per_uid is "
                        "%d); close some or try again later",
                        c->uid, same - 1, D.lim.max_connections_per_uid);
        conn_close(c);
        return;
    }
    if (nconn > D.lim.max_connections) {
        log_warn("connection %u refused: %d connections open (max_connections)", c->id, nconn - 1);
        conn_send_error(c, 0, SDK_E_BUSY,
                        "too many connections: %d open (max_connections is %d); try again later",
                        nconn - 1, D.lim.max_connections);
        conn_close(c);
        return;
    }
    c->last_active = now_ms();
    log_debug("connection %u open", c->id);
    uv_read_start((uv_stream_t *)&c->h, alloc_cb, read_cb);
}

/* Every connection's clocks, a few times a second: an incomplete message
 * older than read_timeout_ms is answered `timeout` and the connection
 * closed; a connection with nothing in flight (no request, no unsent
 * answer, no partial message) idle for idle_timeout_ms is closed; one that
 * has taken none of its unsent answers for idle_timeout_ms is dropped (its
 * requests are forgotten). */
static void sweep(uv_timer_t *t)
{
    (void)t;
    uint64_t now = now_ms();
    for (conn *c = conns, *next; c; c = next) {
        next = c->next;
        if (c->dead) continue;
        if (D.lim.idle_timeout_ms > 0 && writes_pending(c) &&
            now - c->last_active > (uint64_t)D.lim.idle_timeout_ms) {
            log_info("connection %u took none of its %zu unsent bytes for %d ms "
                     "(idle_timeout_ms): dropping it",
                     c->id, conn_unsent(c), D.lim.idle_timeout_ms);
            conn_destroy(c);
            continue;
        }
        if (c->closing) continue;
        if (c->kept && c->jobs == 0) reader_settle(c); /* idle: its buffer goes */
        if (c->partial_since && !c->paused &&
            now - c->partial_since > (uint64_t)D.lim.read_timeout_ms) {
            log_info("connection %u: an incomplete message for %llu ms (read_timeout_ms): "
                     "closing it",
                     c->id, (unsigned long long)(now - c->partial_since));
            conn_send_error(c, 0, SDK_E_TIMEOUT,
                            "no whole message within %d ms (read_timeout_ms): %zu bytes of an "
                            "incomplete message dropped",
                            D.lim.read_timeout_ms, sdk_wire_reader_pending(&c->rd));
            conn_close(c);
            continue;
        }
        if (D.lim.idle_timeout_ms > 0 && c->jobs == 0 && !c->partial_since && !writes_pending(c) &&
            now - c->last_active > (uint64_t)D.lim.idle_timeout_ms) {
            log_debug("connection %u idle for %d ms (idle_timeout_ms): closing it", c->id,
                      D.lim.idle_timeout_ms);
            conn_close(c);
        }
    }
}

static void sweep_start(void)
{
    if (sweep_on) return;
    int every = D.lim.read_timeout_ms / 4;
    if (every > 250) every = 250;
    if (every < 25) every = 25;
    uv_timer_init(D.loop, &sweep_timer);
    uv_unref((uv_handle_t *)&sweep_timer); /* never what keeps the daemon running */
    uv_timer_start(&sweep_timer, sweep, (uint64_t)every, (uint64_t)every);
    sweep_on = true;
}

/* The socket systemd passed us (socket activation). */
static bool listen_activated(int fd, sdk_error *err)
{
    struct sockaddr_un sa;
    socklen_t len = sizeof sa;
    memset(&sa, 0, sizeof sa);
    if (getsockname(fd, (struct sockaddr *)&sa, &len) != 0 || sa.sun_family != AF_UNIX) {
        sdk_error_set(err, SDK_E_INTERNAL, "the socket systemd passed (fd %d) is not a Unix socket",
                      fd);
        return false;
    }
    if (sa.sun_path[0]) snprintf(D.socket_path, sizeof D.socket_path, "%s", sa.sun_path);
    uv_pipe_init(D.loop, &D.listener, 0);
    int rc = uv_pipe_open(&D.listener, fd);
    if (rc == 0) rc = uv_listen((uv_stream_t *)&D.listener, 128, on_connection);
    if (rc != 0) {
        sdk_error_set(err, SDK_E_INTERNAL, "cannot listen on the socket systemd passed: %s",
                      uv_strerror(rc));
        uv_close((uv_handle_t *)&D.listener, NULL);
        return false;
    }
    D.activated = true;
    D.listening = true;
    sweep_start();
    return true;
}

bool server_listen(sdk_error *err)
{
    if (sd_listen_fd() >= 0) return listen_activated(sd_listen_fd(), err);
    char dir[sizeof D.socket_path];
    if (strlen(D.socket_path) >= sizeof((struct sockaddr_un *)0)->sun_path) {
        sdk_error_set(err, SDK_E_INTERNAL, "socket path %s is longer than %zu bytes", D.socket_path,
                      sizeof((struct sockaddr_un *)0)->sun_path - 1);
        return false;
    }
    snprintf(dir, sizeof dir, "%s", D.socket_path);
    /* the user's runtime dir usually exists; /run/sudokud is made by systemd
     * (RuntimeDirectory=) or here, readable by all: the socket's mode guards */
    bool shared = D.sock_gid >= 0;
    if (mkdir(dirname(dir), shared ? 0755 : 0700) != 0 && errno != EEXIST) {
        sdk_error_set(err, SDK_E_INTERNAL, "cannot create %s: %s", dir, strerror(errno));
        return false;
    }
    struct stat st;
    if (lstat(D.socket_path, &st) == 0) {
        if (!S_ISSOCK(st.st_mode)) {
            sdk_error_set(err, SDK_E_INTERNAL, "%s exists and is not a socket", D.socket_path);
            return false;
        }
        if (socket_alive(D.socket_path)) {
            sdk_error_set(err, SDK_E_INTERNAL, "another sudokud already listens on %s",
                          D.socket_path);
            return false;
        }
        unlink(D.socket_path); /* stale */
    }
    uv_pipe_init(D.loop, &D.listener, 0);
    mode_t old = umask(shared ? 0117 : 0177);
    int rc = uv_pipe_bind(&D.listener, D.socket_path);
    umask(old);
    if (rc == 0 && D.group[0] && chown(D.socket_path, (uid_t)-1, (gid_t)D.sock_gid) != 0) {
        sdk_error_set(err, SDK_E_INTERNAL, "cannot give %s to group %s: %s", D.socket_path, D.group,
                      strerror(errno));
        uv_close((uv_handle_t *)&D.listener, NULL);
        unlink(D.socket_path);
        return false;
    }
    if (rc == 0) chmod(D.socket_path, shared ? 0660 : 0600);
    if (rc == 0) rc = uv_listen((uv_stream_t *)&D.listener, 128, on_connection);
    if (rc != 0) {
        sdk_error_set(err, SDK_E_INTERNAL, "cannot listen on %s: %s", D.socket_path,
                      uv_strerror(rc));
        uv_close((uv_handle_t *)&D.listener, NULL);
        return false;
    }
    D.listening = true;
    sweep_start();
    return true;
}

void server_stop_listening(void)
{
    if (!D.listening) return;
    D.listening = false;
    uv_close((uv_handle_t *)&D.listener, NULL);
    if (!D.activated) unlink(D.socket_path); /* systemd's socket stays */
}

int server_connections(void)
{
    return nconn;
}

void server_limits_changed(void)
{
    for (conn *c = conns; c; c = c->next) c->rd.max = D.lim.max_message;
}

void server_close_all(void)
{
    while (conns) conn_destroy(conns);
    if (sweep_on) {
        uv_timer_stop(&sweep_timer);
        uv_close((uv_handle_t *)&sweep_timer, NULL);
        sweep_on = false;
    }
}

/* A job of c got its answer: a closing connection may now go. */
void conn_job_done(conn *c)
{
    if (c->dead) return;
    if (c->closing && c->jobs == 0 && !writes_pending(c)) conn_destroy(c);
}
