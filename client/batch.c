/* batch.c - the batch pipeline (batch.h): a ring of `window` requests in
 * flight. The loop fills the ring from the input (while the socket takes
 * the bytes), waits for one answer, and prints every finished request at
 * the ring's head, so answers come out in input order whatever order the
 * daemon answers in. A request is a chunk of puzzles; the first chunks are
 * 1, 16, 256, ... puzzles so that the first answers come at once. The daemon's
 * progress notifications move the bar within a request. */
#include "batch.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "input.h"
#include "progress.h"
#include "sudoku/alloc.h"

/* A slot of the ring. Its buffers stay from one request to the next (a
 * million puzzles: no malloc per puzzle, no fresh memory per request). The
 * puzzles are kept as the request carries them: in `arena`, their msgpack
 * strings one after the other, which the connection sends from there
 * (rpc_send_lent: one copy of each puzzle, no send queue to fill); where
 * they were found, NUL-terminated, in `wheres` (only when printed: JSON
 * names no place). A puzzle is printed from a NUL-terminated copy
 * (chunk_text), but for solve's compact answers, whose lines are made from
 * the arena itself. */
typedef struct chunk {
    uint32_t msgid;
    int n, cap;
    char **where;     /* into wheres (cap of them; none without places) */
    size_t *len;      /* of each text */
    size_t *at;       /* text i at at[i] in arena */
    size_t *where_at; /* where i at where_at[i] in wheres */
    char *arena, *wheres;
    size_t arena_len, arena_cap, wheres_len, wheres_cap;
    double bytes;  /* input position after this chunk */
    bool progress; /* its request asks for progress notifications */
    bool refused;  /* sent again once, asking otherwise (batch_plan.refused) */
    bool done;
    rpc_msg msg;
    int retries;
    int partial; /* puzzles answered so far (the daemon's progress notifications) */
    double sent; /* when it went out (for --timeout) */
} chunk;

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void on_sigint(int sig)
{
    (void)sig;
    rpc_interrupted = 1;
}

/* Has the reader of our stdout gone (`| head` exited)? Then end like a
 * filter does on SIGPIPE, without waiting for the next answer to write. */
static void stdout_check(void)
{
    struct pollfd p = {.fd = 1, .events = POLLOUT};
    if (poll(&p, 1, 0) == 1 && (p.revents & POLLERR)) {
        signal(SIGPIPE, SIG_DFL);
        raise(SIGPIPE);
    }
}

/* The request is over: the slot keeps its buffers for the next one. */
static void chunk_clear(chunk *c)
{
    if (c->done) rpc_msg_free(&c->msg);
    c->done = false;
    c->msgid = 0;
    c->n = 0;
    c->arena_len = c->wheres_len = 0;
    c->retries = c->partial = 0;
    c->refused = false;
    c->bytes = c->sent = 0;
}

static void chunk_free(chunk *c)
{
    chunk_clear(c);
    free(c->where);
    free(c->len);
    free(c->at);
    free(c->where_at);
    free(c->arena);
    free(c->wheres);
}

/* Queue c's request. */
static void chunk_send(const batch_plan *p, chunk *c)
{
    msgpack_packer pk;
    c->msgid = rpc_send_packer(p->conn, p->method, &pk);
    p->pack(&pk, p, c->arena, c->arena_len, c->n, c->progress);
}

/* Room for want puzzles (their texts too when they are the usual line of
 * 81 cells: the arena is not grown and copied again and again), and their
 * places when they are printed. */
static void chunk_room(chunk *c, int want, bool places)
{
    size_t texts = (size_t)want * 83;
    if (texts > c->arena_cap) { /* empty (chunk_clear): nothing to copy */
        free(c->arena);
        c->arena = sdk_xmalloc(texts);
        c->arena_cap = texts;
    }
    if (want <= c->cap) return;
    if (places) {
        c->where = sdk_xrealloc(c->where, sizeof *c->where * (size_t)want);
        c->where_at = sdk_xrealloc(c->where_at, sizeof *c->where_at * (size_t)want);
    }
    c->len = sdk_xrealloc(c->len, sizeof *c->len * (size_t)want);
    c->at = sdk_xrealloc(c->at, sizeof *c->at * (size_t)want);
    c->cap = want;
}

/* Room for n more bytes in the buffer *buf (*len used of *cap): where they go. */
static char *buf_room(char **buf, size_t *len, size_t *cap, size_t n)
{
    size_t at = *len;
    if (n > *cap - at) {
        size_t c = *cap ? *cap * 2 : 64 << 10;
        while (c - at < n) c *= 2;
        *buf = sdk_xrealloc(*buf, c);
        *cap = c;
    }
    *len += n;
    return *buf + at;
}

/* Append n bytes at s to the buffer *buf (*len used of *cap); their offset. */
static size_t buf_put(char **buf, size_t *len, size_t *cap, const void *s, size_t n)
{
    size_t at = *len;
    memcpy(buf_room(buf, len, cap, n), s, n);
    return at;
}

/* Add a puzzle's text (len bytes) to the arena as a msgpack string; the
 * offset of the text there. */
static size_t chunk_put_text(chunk *c, const char *s, size_t len)
{
    unsigned char h[5];
    size_t hn = sdk_wire_str_head(h, (uint32_t)len);
    char *d = buf_room(&c->arena, &c->arena_len, &c->arena_cap, hn + len);
    for (size_t i = 0; i < hn; i++) d[i] = (char)h[i];
    if (len == 81) /* the usual line: a copy of known size, inlined */
        memcpy(d + hn, s, 81);
    else
        memcpy(d + hn, s, len);
    return c->arena_len - len;
}

/* Where puzzle i was found ("" when places are not printed). */
static const char *chunk_where(const chunk *c, int i)
{
    return c->where ? c->where[i] : "";
}

/* Puzzle i's text, NUL-terminated, in *scratch (grown to fit). */
static const char *chunk_text(const chunk *c, int i, char **scratch, size_t *cap)
{
    size_t n = c->len[i];
    if (n + 1 > *cap) {
        *cap = n + 1 > 256 ? n + 1 : 256;
        *scratch = sdk_xrealloc(*scratch, *cap);
    }
    memcpy(*scratch, c->arena + c->at[i], n);
    (*scratch)[n] = 0;
    return *scratch;
}

/* Compact answers' lines are gathered in a buffer this big, then written. */
#define LINES_SIZE ((size_t)256 << 10)
/* The most a batch asks to be on huge pages (sdk_wire_heap_reserve). */
#define HEAP_MAX ((size_t)28 << 20)

/* Write n bytes of lines to f: straight to its file (after what f holds),
 * not copied into f's buffer first, when f has one. */
static void write_lines(FILE *f, const char *p, size_t n)
{
    int fd = fileno(f);
    if (fd < 0 || fflush(f) != 0) {
        fwrite(p, 1, n, f);
        return;
    }
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return; /* as fwrite's errors go unseen here */
        p += w;
        n -= (size_t)w;
    }
}

static bool retryable(const char *code)
{
    return !strcmp(code, SDK_E_BUSY);
}

/* Errors of a whole request that concern its puzzles (each gets the error)
 * rather than the request (which stops the run). */
static bool per_puzzle(const char *code)
{
    return !strcmp(code, SDK_E_CRASH) || !strcmp(code, SDK_E_DEADLINE) ||
           !strcmp(code, SDK_E_INTERNAL) || !strcmp(code, SDK_E_TOO_LARGE) ||
           !strcmp(code, SDK_E_FORMAT) || !strcmp(code, SDK_E_CONFLICT) ||
           !strcmp(code, SDK_E_NO_SOLUTION) || !strcmp(code, SDK_E_MULTIPLE);
}

int batch_run(const batch_plan *p)
{
    const render_opts *ro = p->ro;
    rpc_conn *conn = p->conn;
    const char *prog = p->prog;
    /* answers go out in big writes, not one per 4 KiB (fflush after each
     * request's answers still shows them as they come); a terminal keeps
     * its line buffering */
    static char out_buffer[256 << 10];
    if (!isatty(1)) setvbuf(stdout, out_buffer, _IOFBF, sizeof out_buffer);
    const char **files = p->files;
    int nargs = p->nargs, nfiles = p->nfiles;
    /* solve's compact answers are read without an object tree */
    rpc_read_compact(conn, true);
    input in;
    input_init(&in, prog, p->args, nargs, files, nfiles);

    bool interactive = !nargs && nfiles == 1 && !strcmp(files[0], "-") && isatty(0);
    int chunk_size = p->chunk, window = p->window;
    if (interactive) chunk_size = 1, window = 1; /* answer each line as it is typed */

    progress pg;
    bool show = p->progress > 0 || (p->progress < 0 && isatty(2) && !interactive && (nfiles > 0));
    long total = show ? input_count(nargs, files, nfiles) : -1;
    progress_init(&pg, show, p->progress > 0, total > 0 ? total : 0, in.total_bytes);
    render_begin(ro);

    /* the ring's arenas, the answers and the lines on huge pages: a few
     * faults instead of one per 4 KiB (wire_heap.c); answers as big again
     * as their puzzles, room for one more message and the lines */
    size_t heap_want = (size_t)window * (size_t)chunk_size * 83 * 2 + ((size_t)2 << 20);
    if (!interactive) sdk_wire_heap_reserve(heap_want < HEAP_MAX ? heap_want : HEAP_MAX);
    char *lines = sdk_xmalloc(LINES_SIZE);
    chunk *ring = calloc((size_t)window, sizeof *ring);
    int head = 0, count = 0;
    bool eof = false, bad = false;
    int status = 0;
    long done = 0;
    double last_bytes = 0;
    bool deadline = false;
    /* the first requests are small, so that the first answers come at once
     * (`| head`), then they grow sixteenfold to chunk_size (unless --chunk):
     * doubling took 13 requests to reach 4096, each a round trip through
     * the daemon and a worker with the window's few puzzles in flight;
     * fourfold still left the workers mostly idle for the first 1.5 ms of a
     * solve batch (1, 4, 16 and 64 puzzles in the window of four, the
     * requests of 256 and 1024 waiting for the first answers) */
    int next_size = p->chunk_fixed || interactive || !nfiles ? chunk_size : 1;
    /* JSON names no puzzle's place (file:line): it is not even formatted */
    bool places = ro->mode != OUT_JSON;
    char *scratch = NULL; /* a puzzle's text, NUL-terminated, while printed */
    size_t scratch_cap = 0;
    struct sigaction sa = {.sa_handler = on_sigint}, old_int;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int); /* no SA_RESTART: waits end at once */

    for (;;) {
        /* fill the window */
        while (!eof && count < window && rpc_pending_out(conn) < (4u << 20)) {
            chunk *c = &ring[(head + count) % window];
            /* its last request can be answered before it was all sent (an
             * error about the request): until the rest is written, the
             * queue still sends from this arena */
            if (rpc_lends(conn, c->arena, c->arena_cap)) break;
            chunk_clear(c);
            int want = next_size;
            if (next_size < chunk_size)
                next_size = next_size * 16 < chunk_size ? next_size * 16 : chunk_size;
            chunk_room(c, want, places);
            char where[PATH_MAX + 32];
            while (c->n < want && !rpc_interrupted) {
                const char *t;
                size_t tl;
                int r = input_next(&in, &t, &tl, places ? where : NULL, sizeof where);
                if (r <= 0) {
                    eof = true;
                    break;
                }
                c->len[c->n] = tl;
                c->at[c->n] = chunk_put_text(c, t, tl);
                if (places)
                    c->where_at[c->n] = buf_put(&c->wheres, &c->wheres_len, &c->wheres_cap, where,
                                                strlen(where) + 1);
                c->n++;
            }
            for (int i = 0; places && i < c->n; i++) /* wheres has stopped moving */
                c->where[i] = c->wheres + c->where_at[i];
            c->bytes = input_pos(&in);
            if (!c->n) break;
            /* the daemon's progress: the bar moves within a request too */
            c->progress = pg.on && c->n > 1;
            chunk_send(p, c);
            c->sent = mono_s();
            count++;
            /* out now, as far as the socket takes it without waiting: the
             * daemon and a worker start on it while the next chunk is read
             * (the first send came after the whole first window was read:
             * 1 + 16 + 256 + 4096 lines of a file, ~0.3 ms of the workers'
             * time; from a pipe, the first request waited for the next
             * lines to come) */
            rpc_flush(conn, 0);
        }
        if (rpc_interrupted) {
            status = EXIT_INTERRUPTED;
            break;
        }
        if (!count && !eof) { /* only the queue's rest to write first */
            int f = rpc_flush(conn, 200);
            if (f == -2) {
                status = EXIT_INTERRUPTED;
                break;
            }
            if (f < 0) {
                fprintf(stderr, "%s: %s\n", prog, rpc_error(conn));
                status = EXIT_DAEMON;
                break;
            }
            continue;
        }
        if (!count) break;
        /* wait for one answer; look around every 200 ms */
        rpc_msg m;
        int r = rpc_wait(conn, &m, 200);
        if (r == -2) {
            status = EXIT_INTERRUPTED;
            break;
        }
        if (r == 0) {
            stdout_check();
            /* the daemon answers deadline-exceeded when a request's timeout
             * passes; a second more, and we stop waiting for it */
            double oldest = 0;
            for (int i = 0; i < count; i++) {
                chunk *k = &ring[(head + i) % window];
                if (!k->done && (!oldest || k->sent < oldest)) oldest = k->sent;
            }
            if (p->timeout > 0 && oldest && mono_s() - oldest > p->timeout + 1.0) {
                fprintf(stderr, "%s: sudokud did not answer within %g s\n", prog, p->timeout);
                status = EXIT_DEADLINE;
                break;
            }
            continue;
        }
        if (r < 0) {
            fprintf(stderr, "%s: %s\n", prog, rpc_error(conn));
            status = EXIT_DAEMON;
            break;
        }
        if (m.kind != 1) { /* a progress notification: [{msgid, done, total}] */
            const msgpack_object *pa = &m.result;
            if (pg.on && pa->type == MSGPACK_OBJECT_ARRAY && pa->via.array.size == 1) {
                const msgpack_object *pm = &pa->via.array.ptr[0];
                long long id = sdk_wire_int(sdk_wire_get(pm, "msgid"), -1),
                          got = sdk_wire_int(sdk_wire_get(pm, "done"), 0);
                long partial = 0;
                for (int i = 0; i < count; i++) {
                    chunk *k = &ring[(head + i) % window];
                    if (!k->done && (long long)k->msgid == id && got >= 0 && got <= k->n)
                        k->partial = (int)got;
                    if (!k->done) partial += k->partial;
                }
                progress_update(&pg, done + partial, last_bytes);
            }
            rpc_msg_free(&m);
            continue;
        }
        chunk *c = NULL;
        for (int i = 0; i < count; i++) {
            chunk *k = &ring[(head + i) % window];
            if (!k->done && k->msgid == m.msgid) c = k;
        }
        if (!c) {
            if (m.msgid == 0 && m.error.type == MSGPACK_OBJECT_MAP) {
                char code[64], msg[512];
                fprintf(stderr, "%s: sudokud: %s: %s\n", prog,
                        sdk_wire_text(sdk_wire_get(&m.error, "code"), code, sizeof code),
                        sdk_wire_text(sdk_wire_get(&m.error, "message"), msg, sizeof msg));
                rpc_msg_free(&m);
                status = EXIT_DAEMON;
                break;
            }
            rpc_msg_free(&m);
            continue;
        }
        if (m.error.type != MSGPACK_OBJECT_NIL) {
            char code[64], msg[512];
            sdk_wire_text(sdk_wire_get(&m.error, "code"), code, sizeof code);
            sdk_wire_text(sdk_wire_get(&m.error, "message"), msg, sizeof msg);
            if (p->refused && !c->refused && p->refused(p, code, msg)) { /* asked otherwise */
                c->refused = true;
                rpc_msg_free(&m);
                chunk_send(p, c);
                continue;
            }
            if (retryable(code) && c->retries < 2000) { /* about 200 s of backing off */
                rpc_msg_free(&m);
                c->retries++;
                struct timespec ts = {0, (long)(c->retries < 20 ? c->retries : 20) * 5000000L};
                nanosleep(&ts, NULL);
                chunk_send(p, c);
                continue;
            }
            if (!per_puzzle(code)) {
                fprintf(stderr, "%s: %s: %s\n", prog, code, msg);
                rpc_msg_free(&m);
                status = EXIT_PUZZLE;
                break;
            }
        }
        c->msg = m;
        c->done = true;
        /* an answer printed later (others come before it) is read where it
         * arrived no longer: the next wait may reuse that memory */
        if (c != &ring[head] && !rpc_msg_keep(&c->msg)) {
            fprintf(stderr, "%s: out of memory keeping an answer\n", prog);
            status = EXIT_DAEMON;
            break;
        }
        /* print every finished chunk at the head, in input order */
        while (count && ring[head].done) {
            chunk *h = &ring[head];
            if (h->msg.error.type != MSGPACK_OBJECT_NIL) {
                char code[64], msg[512];
                sdk_wire_text(sdk_wire_get(&h->msg.error, "code"), code, sizeof code);
                sdk_wire_text(sdk_wire_get(&h->msg.error, "message"), msg, sizeof msg);
                for (int i = 0; i < h->n; i++)
                    render_failure(ro, chunk_text(h, i, &scratch, &scratch_cap), chunk_where(h, i),
                                   code, msg);
                bad = true;
                if (!strcmp(code, SDK_E_DEADLINE)) deadline = true;
            } else {
                /* solve's compact answers print from where they are (the
                 * solutions in the message, the puzzles in the arena), their
                 * lines gathered here and written a thousand at a time */
                uint32_t ncompact =
                    h->msg.compact_at && render_takes_compact(ro) ? h->msg.n_compact : 0;
                size_t nlines = 0;
                for (int i = 0; i < h->n; i++) {
                    if ((uint32_t)i < ncompact && h->len[i] == 81) {
                        if (nlines > LINES_SIZE - RENDER_COMPACT_MAX) {
                            write_lines(ro->out, lines, nlines);
                            nlines = 0;
                        }
                        const char *sol;
                        uint64_t guesses;
                        rpc_msg_compact(&h->msg, (uint32_t)i, &sol, &guesses);
                        nlines +=
                            render_compact_line(lines + nlines, h->arena + h->at[i], sol, guesses);
                        continue;
                    }
                    if (nlines) write_lines(ro->out, lines, nlines); /* before this one's */
                    nlines = 0;
                    const char *text = chunk_text(h, i, &scratch, &scratch_cap);
                    msgpack_object tmp[3];
                    const msgpack_object *r = rpc_msg_result(&h->msg, (uint32_t)i, tmp);
                    if (r) {
                        if (!render_puzzle(ro, r, text, chunk_where(h, i))) bad = true;
                    } else {
                        render_failure(ro, text, chunk_where(h, i), SDK_E_INTERNAL,
                                       "the daemon's answer has no result for this puzzle");
                        bad = true;
                    }
                }
                if (nlines) write_lines(ro->out, lines, nlines);
            }
            done += h->n;
            last_bytes = h->bytes;
            progress_update(&pg, done, h->bytes);
            chunk_clear(h);
            head = (head + 1) % window;
            count--;
        }
        fflush(stdout); /* a reader (`| head`, a terminal) sees answers as they come */
    }
    if (status == EXIT_INTERRUPTED) {
        /* print what is complete, in input order; the rest was cancelled
         * (closing the connection tells the daemon) */
        progress_stop(&pg);
        long printed = done, lost = 0;
        for (int i = 0; i < count; i++) {
            chunk *k = &ring[(head + i) % window];
            if (!k->done || k->msg.error.type != MSGPACK_OBJECT_NIL) {
                lost += k->n;
                continue;
            }
            for (int j = 0; j < k->n; j++) {
                msgpack_object tmp[3];
                const msgpack_object *r = rpc_msg_result(&k->msg, (uint32_t)j, tmp);
                if (r)
                    render_puzzle(ro, r, chunk_text(k, j, &scratch, &scratch_cap),
                                  chunk_where(k, j));
            }
            printed += k->n;
        }
        fflush(stdout);
        fprintf(stderr,
                "%s: interrupted: %ld answers printed, %ld puzzles sent were not answered\n", prog,
                printed, lost);
    } else
        progress_end(&pg);
    sigaction(SIGINT, &old_int, NULL);
    render_end(ro);
    /* what is still queued on the connection points into the ring */
    rpc_drop_lent(conn);
    for (int i = 0; i < window; i++) chunk_free(&ring[i]);
    free(scratch);
    free(lines);
    free(ring);
    sdk_wire_heap_release();
    if (in.failed && !status) status = EXIT_PUZZLE;
    input_free(&in);
    if (status) return status;
    if (deadline) return EXIT_DEADLINE;
    return bad ? EXIT_PUZZLE : 0;
}
