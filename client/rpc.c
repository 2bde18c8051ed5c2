/* rpc.c - sudoctl's pipelined MessagePack-RPC client (see rpc.h). */
#include "rpc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t rpc_interrupted;

struct rpc_conn {
    int fd;
    uint32_t next_id;
    char *out;
    size_t out_len, out_off, out_cap;
    msgpack_unpacker unp;
    bool dead;
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
    c->fd = fd;
    c->next_id = 1;
    if (!msgpack_unpacker_init(&c->unp, 1 << 16)) {
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
    msgpack_unpacker_destroy(&c->unp);
    free(c->out);
    free(c);
}

const char *rpc_error(const rpc_conn *c)
{
    return c->why;
}
size_t rpc_pending_out(const rpc_conn *c)
{
    return c->out_len - c->out_off;
}

static int out_write(void *data, const char *buf, size_t len)
{
    rpc_conn *c = data;
    if (c->out_off > 0 && c->out_off == c->out_len) c->out_off = c->out_len = 0;
    if (c->out_len + len > c->out_cap) {
        if (c->out_off > 0) { /* compact first */
            memmove(c->out, c->out + c->out_off, c->out_len - c->out_off);
            c->out_len -= c->out_off;
            c->out_off = 0;
        }
        size_t cap = c->out_cap ? c->out_cap : 65536;
        while (cap < c->out_len + len) cap *= 2;
        if (cap != c->out_cap) {
            char *p = realloc(c->out, cap);
            if (!p) abort();
            c->out = p;
            c->out_cap = cap;
        }
    }
    memcpy(c->out + c->out_len, buf, len);
    c->out_len += len;
    return 0;
}

uint32_t rpc_send(rpc_conn *c, const char *method, const char *params, size_t len)
{
    uint32_t id = c->next_id++;
    if (c->next_id == 0) c->next_id = 1; /* 0 is the daemon's "unknown msgid" */
    msgpack_packer pk;
    msgpack_packer_init(&pk, c, out_write);
    msgpack_pack_array(&pk, 4);
    msgpack_pack_uint32(&pk, 0);
    msgpack_pack_uint32(&pk, id);
    size_t ml = strlen(method);
    msgpack_pack_str(&pk, ml);
    msgpack_pack_str_body(&pk, method, ml);
    msgpack_pack_array(&pk, 1);
    if (params && len)
        out_write(c, params, len);
    else
        msgpack_pack_map(&pk, 0);
    return id;
}

static void fail(rpc_conn *c, const char *fmt, const char *detail)
{
    if (!c->dead) snprintf(c->why, sizeof c->why, fmt, detail);
    c->dead = true;
}

/* Try to decode one complete message from what was read. 1 got one, 0 need
 * more, -1 garbage. */
static int take(rpc_conn *c, rpc_msg *m)
{
    msgpack_unpacked_init(&m->up);
    msgpack_unpack_return r = msgpack_unpacker_next(&c->unp, &m->up);
    if (r == MSGPACK_UNPACK_CONTINUE) {
        msgpack_unpacked_destroy(&m->up);
        return 0;
    }
    if (r != MSGPACK_UNPACK_SUCCESS) {
        msgpack_unpacked_destroy(&m->up);
        fail(c, "%s", "the daemon sent data that is not msgpack");
        return -1;
    }
    const msgpack_object *o = &m->up.data;
    msgpack_object nil = {.type = MSGPACK_OBJECT_NIL};
    m->error = m->result = nil;
    m->method = NULL;
    m->method_len = 0;
    m->msgid = 0;
    if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size < 3 ||
        o->via.array.ptr[0].type != MSGPACK_OBJECT_POSITIVE_INTEGER)
        goto bad;
    const msgpack_object *a = o->via.array.ptr;
    m->kind = (int)a[0].via.u64;
    if (m->kind == 1 && o->via.array.size == 4 && a[1].type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
        m->msgid = (uint32_t)a[1].via.u64;
        m->error = a[2];
        m->result = a[3];
        return 1;
    }
    if (m->kind == 2 && o->via.array.size == 3 && a[1].type == MSGPACK_OBJECT_STR) {
        m->method = a[1].via.str.ptr;
        m->method_len = a[1].via.str.size;
        m->result = a[2];
        return 1;
    }
bad:
    msgpack_unpacked_destroy(&m->up);
    fail(c, "%s", "the daemon sent a message that is not msgpack-rpc");
    return -1;
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
        ssize_t w = send(c->fd, c->out + c->out_off, rpc_pending_out(c), MSG_NOSIGNAL);
        if (w < 0 && errno != EAGAIN && errno != EINTR) {
            fail(c, "cannot write to the daemon: %s", strerror(errno));
            return -1;
        }
        if (w > 0) c->out_off += (size_t)w;
    }
    if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
        if (!msgpack_unpacker_reserve_buffer(&c->unp, 1 << 16)) {
            fail(c, "%s", "out of memory");
            return -1;
        }
        ssize_t r = read(c->fd, msgpack_unpacker_buffer(&c->unp),
                         msgpack_unpacker_buffer_capacity(&c->unp));
        if (r == 0) {
            fail(c, "%s", "the daemon closed the connection");
            return -1;
        }
        if (r < 0 && errno != EAGAIN && errno != EINTR) {
            fail(c, "cannot read from the daemon: %s", strerror(errno));
            return -1;
        }
        if (r > 0) msgpack_unpacker_buffer_consumed(&c->unp, (size_t)r);
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

/* ---- object helpers ------------------------------------------------------ */

const msgpack_object *mp_get(const msgpack_object *o, const char *key)
{
    if (!o || o->type != MSGPACK_OBJECT_MAP) return NULL;
    size_t kl = strlen(key);
    for (uint32_t i = 0; i < o->via.map.size; i++) {
        const msgpack_object *k = &o->via.map.ptr[i].key;
        if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == kl &&
            memcmp(k->via.str.ptr, key, kl) == 0)
            return &o->via.map.ptr[i].val;
    }
    return NULL;
}

const char *mp_str(const msgpack_object *o, char *buf, size_t n)
{
    if (!n) return buf;
    buf[0] = 0;
    if (!o || o->type != MSGPACK_OBJECT_STR) return buf;
    size_t l = o->via.str.size < n - 1 ? o->via.str.size : n - 1;
    memcpy(buf, o->via.str.ptr, l);
    buf[l] = 0;
    return buf;
}

bool mp_str_eq(const msgpack_object *o, const char *s)
{
    if (!o || o->type != MSGPACK_OBJECT_STR) return false;
    size_t l = strlen(s);
    return o->via.str.size == l && memcmp(o->via.str.ptr, s, l) == 0;
}

double mp_num(const msgpack_object *o, double def)
{
    if (!o) return def;
    switch (o->type) {
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        return (double)o->via.u64;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        return (double)o->via.i64;
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64:
        return o->via.f64;
    default:
        return def;
    }
}

long long mp_int(const msgpack_object *o, long long def)
{
    if (!o) return def;
    switch (o->type) {
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        return (long long)o->via.u64;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        return o->via.i64;
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64:
        return (long long)o->via.f64;
    default:
        return def;
    }
}

bool mp_bool(const msgpack_object *o, bool def)
{
    if (!o) return def;
    if (o->type == MSGPACK_OBJECT_BOOLEAN) return o->via.boolean;
    if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER) return o->via.u64 != 0;
    return def;
}

size_t mp_len(const msgpack_object *o)
{
    if (!o) return 0;
    if (o->type == MSGPACK_OBJECT_ARRAY) return o->via.array.size;
    if (o->type == MSGPACK_OBJECT_MAP) return o->via.map.size;
    return 0;
}
