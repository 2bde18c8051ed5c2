/* rpc.c - sudoctl's pipelined MessagePack-RPC client (see rpc.h): the socket
 * and its queues here, the framing and message shapes in lib/wire.c. */
#include "rpc.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t rpc_interrupted;

/* The send queue: segments in order, each either bytes copied into `out`
 * (at off) or bytes the caller lent (ext: a batch's packed puzzles, sent
 * from where they are, with no copy here). */
typedef struct out_seg {
    const char *ext;
    size_t off, len;
} out_seg;

struct rpc_conn {
    int fd;
    uint32_t next_id;
    char *out;
    size_t out_len, out_cap;
    out_seg *segs;
    size_t nseg, seg_cap, seg_head, seg_sent; /* seg_sent: bytes of segs[seg_head] sent */
    size_t pending;                           /* bytes queued, not written yet */
    sdk_wire_reader in;
    bool dead;
    bool read_compact; /* rpc_read_compact */
    char why[256];
};

rpc_conn *rpc_connect(const char *path)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof sa.sun_path) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    strcpy(sa.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return NULL;
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
        int e = errno;
        close(fd);
        errno = e;
        return NULL;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    rpc_conn *c = calloc(1, sizeof *c);
    if (!c) {
        close(fd);
        errno = ENOMEM;
        return NULL;
    }
    /* a batch's answers are megabytes that come and go: glibc would map
     * and unmap each one (a page fault per 4 KiB every time); freed memory
     * stays for the next answer instead (the window bounds it) */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    c->fd = fd;
    c->next_id = 1;
    if (!sdk_wire_reader_init(&c->in, RPC_MAX_MESSAGE)) {
        close(fd);
        free(c);
        errno = ENOMEM;
        return NULL;
    }
    return c;
}

void rpc_close(rpc_conn *c)
{
    if (!c) return;
    close(c->fd);
    sdk_wire_reader_free(&c->in);
    free(c->out);
    free(c->segs);
    free(c);
}

const char *rpc_error(const rpc_conn *c)
{
    return c->why;
}
size_t rpc_pending_out(const rpc_conn *c)
{
    return c->pending;
}

/* Append a segment (ext NULL: the last len bytes put into out). */
static void seg_push(rpc_conn *c, const char *ext, size_t off, size_t len)
{
    if (!ext && c->nseg > c->seg_head) {
        out_seg *last = &c->segs[c->nseg - 1];
        if (!last->ext && last->off + last->len == off) { /* grows the last */
            last->len += len;
            c->pending += len;
            return;
        }
    }
    if (c->nseg == c->seg_cap) {
        size_t cap = c->seg_cap ? c->seg_cap * 2 : 64;
        out_seg *p = realloc(c->segs, sizeof *p * cap);
        if (!p) abort();
        c->segs = p;
        c->seg_cap = cap;
    }
    c->segs[c->nseg++] = (out_seg){ext, off, len};
    c->pending += len;
}

/* Everything written: the queue starts again at the front. */
static void queue_restart(rpc_conn *c)
{
    if (c->pending) return;
    c->out_len = c->nseg = c->seg_head = c->seg_sent = 0;
}

static int out_write(void *data, const char *buf, size_t len)
{
    rpc_conn *c = data;
    queue_restart(c);
    if (c->out_len + len > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : (size_t)64 << 10;
        while (cap < c->out_len + len) cap *= 2;
        char *p = realloc(c->out, cap);
        if (!p) abort();
        c->out = p;
        c->out_cap = cap;
    }
    memcpy(c->out + c->out_len, buf, len);
    seg_push(c, NULL, c->out_len, len);
    c->out_len += len;
    return 0;
}

void rpc_send_lent(msgpack_packer *pk, const char *buf, size_t len)
{
    rpc_conn *c = pk->data;
    queue_restart(c);
    if (len) seg_push(c, buf, 0, len);
}

uint32_t rpc_send(rpc_conn *c, const char *method, const char *params, size_t len)
{
    uint32_t id = c->next_id++;
    if (c->next_id == 0) c->next_id = 1; /* 0 is the daemon's "unknown msgid" */
    msgpack_packer pk;
    msgpack_packer_init(&pk, c, out_write);
    sdk_wire_request_head(&pk, id, method);
    msgpack_pack_array(&pk, 1);
    if (params && len)
        out_write(c, params, len);
    else
        msgpack_pack_map(&pk, 0);
    return id;
}

uint32_t rpc_send_packer(rpc_conn *c, const char *method, msgpack_packer *pk)
{
    uint32_t id = c->next_id++;
    if (c->next_id == 0) c->next_id = 1;
    msgpack_packer_init(pk, c, out_write);
    sdk_wire_request_head(pk, id, method);
    msgpack_pack_array(pk, 1);
    return id;
}

static void fail(rpc_conn *c, const char *fmt, const char *detail)
{
    if (!c->dead) snprintf(c->why, sizeof c->why, fmt, detail);
    c->dead = true;
}

bool rpc_lends(const rpc_conn *c, const char *buf, size_t len)
{
    for (size_t i = c->seg_head; i < c->nseg; i++) {
        const out_seg *g = &c->segs[i];
        if (g->ext && (uintptr_t)g->ext - (uintptr_t)buf < len) return true;
    }
    return false;
}

void rpc_drop_lent(rpc_conn *c)
{
    if (!c->pending) return;
    /* a message cut short cannot be finished: the connection is over */
    c->pending = 0;
    queue_restart(c);
    fail(c, "%s", "requests were dropped before they were sent");
}

void rpc_read_compact(rpc_conn *c, bool on)
{
    c->read_compact = on;
}

/* A msgpack unsigned integer at *p (below end): its value, p moved past. */
static bool read_uint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
    const unsigned char *q = *p;
    if (q >= end) return false;
    unsigned b = *q++;
    size_t n = b < 0x80 ? 0 : b == 0xcc ? 1 : b == 0xcd ? 2 : b == 0xce ? 4 : b == 0xcf ? 8 : 9;
    if (n == 9 || (size_t)(end - q) < n) return false;
    uint64_t x = n ? 0 : b;
    for (size_t i = 0; i < n; i++) x = x << 8 | q[i];
    *v = x;
    *p = q + n;
    return true;
}

/* A whole message (the meter counted it) at the reader's front that is
 * [1, msgid, nil, {"results": [[str 81, uint], ...]}], byte by byte as
 * sudokud packs it: read into m and consumed. Anything else (a byte out of
 * that shape) is left to msgpack. */
static bool take_compact(rpc_conn *c, rpc_msg *m)
{
    msgpack_unpacker *up = &c->in.up;
    if (!c->read_compact || !c->in.ready || c->in.meter.broken) return false;
    const unsigned char *p = (const unsigned char *)up->buffer + up->off,
                        *end = (const unsigned char *)up->buffer + up->used;
    static const unsigned char results[] = {0x81, 0xa7, 'r', 'e', 's', 'u', 'l', 't', 's'};
    uint64_t id, n;
    if (end - p < 3 || p[0] != 0x94 || p[1] != 0x01) return false;
    p += 2;
    if (!read_uint(&p, end, &id) || id > UINT32_MAX || (size_t)(end - p) < 1 + sizeof results + 1 ||
        *p++ != 0xc0 || memcmp(p, results, sizeof results))
        return false;
    p += sizeof results;
    unsigned b = *p++;
    if (b >= 0x90 && b <= 0x9f)
        n = b & 15;
    else if (b == 0xdc || b == 0xdd) {
        size_t w = b == 0xdc ? 2 : 4;
        if ((size_t)(end - p) < w) return false;
        n = 0;
        for (size_t i = 0; i < w; i++) n = n << 8 | p[i];
        p += w;
    } else
        return false;
    /* each answer takes 85 bytes at least: n is no bigger than the message */
    if (!n || n > (uint64_t)(end - p) / 85) return false;
    /* the answers are read where they are: only where each one starts is
     * noted (no copy of the solutions, no memory touched for them) */
    uint32_t *at = malloc((size_t)n * sizeof *at);
    if (!at) return false;
    const unsigned char *first = p;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t g;
        at[i] = (uint32_t)(p - first);
        if ((size_t)(end - p) < 84 || p[0] != 0x92 || p[1] != 0xd9 || p[2] != 81) goto other;
        p += 84;
        if (!read_uint(&p, end, &g)) goto other;
    }
    memset(m, 0, sizeof *m);
    msgpack_unpacked_init(&m->up);
    m->kind = SDK_RPC_RESPONSE;
    m->msgid = (uint32_t)id;
    m->error.type = m->result.type = MSGPACK_OBJECT_NIL;
    m->compact = (const char *)first;
    m->compact_at = at;
    m->n_compact = (uint32_t)n;
    up->off = (size_t)((const char *)p - up->buffer); /* consumed, as msgpack would */
    c->in.ready--;
    return true;
other:
    free(at);
    return false;
}

void rpc_msg_compact(const rpc_msg *m, uint32_t i, const char **solution, uint64_t *guesses)
{
    const unsigned char *p = (const unsigned char *)m->compact + m->compact_at[i];
    *solution = (const char *)p + 3;
    p += 84;
    if (!read_uint(&p, p + 9, guesses)) *guesses = 0; /* checked when it was taken */
}

bool rpc_msg_keep(rpc_msg *m)
{
    if (!m->n_compact || m->compact_own) return true;
    /* the last answer ends 85 to 93 bytes after its start */
    const unsigned char *last = (const unsigned char *)m->compact + m->compact_at[m->n_compact - 1];
    const unsigned char *e = last + 84;
    uint64_t g;
    read_uint(&e, e + 9, &g);
    size_t len = (size_t)(e - (const unsigned char *)m->compact);
    char *own = malloc(len);
    if (!own) {
        free(m->compact_at);
        m->compact_at = NULL;
        m->compact = NULL;
        m->n_compact = 0;
        return false;
    }
    memcpy(own, m->compact, len);
    m->compact = m->compact_own = own;
    return true;
}

/* Try to decode one complete message from what was read. 1 got one, 0 need
 * more, -1 garbage. */
static int take(rpc_conn *c, rpc_msg *m)
{
    sdk_error err;
    if (take_compact(c, m)) return 1;
    msgpack_unpacked_init(&m->up);
    m->compact = m->compact_own = NULL;
    m->compact_at = NULL;
    m->n_compact = 0;
    int r = sdk_wire_reader_take(&c->in, &m->up, &err);
    if (r == 0) return 0;
    if (r < 0) {
        fail(c, "the daemon sent data that cannot be read: %s", err.msg);
        return -1;
    }
    sdk_rpc_msg rm;
    bool msgid_known;
    const msgpack_object *o = &m->up.data;
    msgpack_object nil = {.type = MSGPACK_OBJECT_NIL};
    if (!sdk_rpc_parse(o, &rm, &msgid_known, &err) || rm.type == SDK_RPC_REQUEST) {
        if (rm.type == SDK_RPC_REQUEST) snprintf(err.msg, sizeof err.msg, "a request");
        msgpack_unpacked_destroy(&m->up);
        fail(c, "the daemon sent a message that is not msgpack-rpc: %s", err.msg);
        return -1;
    }
    m->kind = rm.type;
    m->msgid = rm.msgid;
    m->error = rm.error ? *rm.error : nil;
    m->result = rm.result ? *rm.result : nil;
    m->method = rm.method;
    m->method_len = rm.method_len;
    /* a notification's params as sent: the array [{...}] */
    if (rm.type == SDK_RPC_NOTIFY) m->result = o->via.array.ptr[2];
    return 1;
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One round of I/O: write what we can, read what is there. want_read: also
 * wait for input. Returns -1 on failure, 0 on timeout, 1 when progress. */
static int io_round(rpc_conn *c, int timeout_ms, bool want_read)
{
    struct pollfd p = {.fd = c->fd, .events = 0};
    if (want_read) p.events |= POLLIN;
    if (rpc_pending_out(c)) p.events |= POLLOUT;
    if (!p.events) return 1;
    if (rpc_interrupted) return -2;
    int n = poll(&p, 1, timeout_ms);
    if (n < 0) {
        if (errno == EINTR) return rpc_interrupted ? -2 : 0;
        fail(c, "poll: %s", strerror(errno));
        return -1;
    }
    if (n == 0) return 0;
    if (p.revents & POLLOUT) {
        struct iovec iov[64];
        int n_iov = 0;
        for (size_t i = c->seg_head; i < c->nseg && n_iov < 64; i++) {
            const out_seg *g = &c->segs[i];
            size_t skip = i == c->seg_head ? c->seg_sent : 0;
            iov[n_iov].iov_base = (char *)(g->ext ? g->ext : c->out + g->off) + skip;
            iov[n_iov++].iov_len = g->len - skip;
        }
        struct msghdr mh = {.msg_iov = iov, .msg_iovlen = (size_t)n_iov};
        ssize_t w = sendmsg(c->fd, &mh, MSG_NOSIGNAL);
        if (w < 0 && errno != EAGAIN && errno != EINTR) {
            fail(c, "cannot write to the daemon: %s", strerror(errno));
            return -1;
        }
        for (size_t left = w > 0 ? (size_t)w : 0; left;) {
            size_t rest = c->segs[c->seg_head].len - c->seg_sent;
            size_t take = left < rest ? left : rest;
            c->seg_sent += take;
            c->pending -= take;
            left -= take;
            if (c->seg_sent == c->segs[c->seg_head].len) c->seg_head++, c->seg_sent = 0;
        }
    }
    if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
        size_t room;
        char *buf = sdk_wire_reader_space(&c->in, 1 << 18, &room);
        if (!buf) {
            fail(c, "%s", "out of memory");
            return -1;
        }
        ssize_t r = read(c->fd, buf, room);
        if (r == 0) {
            fail(c, "%s", "the daemon closed the connection");
            return -1;
        }
        if (r < 0 && errno != EAGAIN && errno != EINTR) {
            fail(c, "cannot read from the daemon: %s", strerror(errno));
            return -1;
        }
        if (r > 0) sdk_wire_reader_commit(&c->in, (size_t)r);
    }
    return 1;
}

int rpc_wait(rpc_conn *c, rpc_msg *m, int timeout_ms)
{
    long long deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
    for (;;) {
        int t = take(c, m);
        if (t != 0) return t;
        if (c->dead) return -1;
        int left = -1;
        if (deadline >= 0) {
            long long l = deadline - now_ms();
            if (l <= 0) return 0;
            left = (int)l;
        }
        int io = io_round(c, left, true);
        if (io == -2) return -2;
        if (io < 0) {
            /* a message may still be complete in the buffer */
            t = take(c, m);
            return t == 1 ? 1 : -1;
        }
    }
}

int rpc_flush(rpc_conn *c, int timeout_ms)
{
    if (c->dead) return -1;
    if (!rpc_pending_out(c)) return 0;
    int io = io_round(c, timeout_ms, false);
    return io == -2 ? -2 : io < 0 ? -1 : 0;
}

void rpc_msg_free(rpc_msg *m)
{
    msgpack_unpacked_destroy(&m->up);
    free(m->compact_at);
    free(m->compact_own);
    m->compact = m->compact_own = NULL;
    m->compact_at = NULL;
    m->n_compact = 0;
}

const msgpack_object *rpc_msg_result(const rpc_msg *m, uint32_t i, msgpack_object tmp[3])
{
    if (m->compact_at) {
        if (i >= m->n_compact) return NULL;
        tmp[1].type = MSGPACK_OBJECT_STR;
        rpc_msg_compact(m, i, &tmp[1].via.str.ptr, &tmp[2].via.u64);
        tmp[1].via.str.size = 81;
        tmp[2].type = MSGPACK_OBJECT_POSITIVE_INTEGER;
        tmp[0].type = MSGPACK_OBJECT_ARRAY;
        tmp[0].via.array.size = 2;
        tmp[0].via.array.ptr = &tmp[1];
        return &tmp[0];
    }
    const msgpack_object *results = sdk_wire_get(&m->result, "results");
    if (!results || results->type != MSGPACK_OBJECT_ARRAY || i >= results->via.array.size)
        return NULL;
    return &results->via.array.ptr[i];
}

int rpc_call(rpc_conn *c, const char *method, const char *params, size_t len, rpc_msg *m,
             int timeout_ms)
{
    uint32_t id = rpc_send(c, method, params, len);
    for (;;) {
        int r = rpc_wait(c, m, timeout_ms);
        if (r <= 0) return r;
        if (m->kind == 1 && m->msgid == id) return 1;
        rpc_msg_free(m);
    }
}
