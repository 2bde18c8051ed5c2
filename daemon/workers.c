/* workers.c - sudokud's worker pool and request routing. Workers are
 * processes of this binary in --worker mode, each with a socketpair for frames
 * and a probe (shared memory) naming the technique that runs. A job (one
 * client request) goes to a free worker whole, or, for a batch, in chunks
 * over several workers; answers are merged in order. A worker that dies or
 * overruns the deadline costs its current puzzle an error; it is replaced and
 * the rest of its chunk goes back to the queue. A worker on a piece of cheap
 * puzzles (solve) gets its next piece before it ends this one, so it never
 * waits a round trip for it. Reload starts a new generation of workers and
 * retires the old ones after their current work. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "daemon.h"
#include "workers.h"

enum { W_STARTING, W_IDLE, W_BUSY, W_EXITED };

typedef struct job job;
typedef struct worker worker;

/* A batch's results are kept in blocks, one after the other, rather than
 * one malloc per puzzle: a solve batch brings tens of thousands of them a
 * second. Blocks double from RES_BLOCK_MIN to RES_BLOCK_MAX. */
typedef struct res_block {
    struct res_block *next;
    size_t used, cap;
    char data[];
} res_block;
#define RES_BLOCK_MIN ((size_t)4 << 10)
#define RES_BLOCK_MAX ((size_t)1 << 20)

/* One client request: whole (single) or a batch of puzzles handed out in
 * pieces. */
struct job {
    conn *c; /* NULL when the client went away */
    uint32_t msgid;
    char method[16];
    bool progress;
    bool gen;          /* generate: items are puzzles to make, not puzzles given */
    long gen_first;    /* generate: the index of item 0 */
    char cost_key[64]; /* what its cost per puzzle depends on (workers.c) */
    double cost_us;    /* measured cost per puzzle of this job's pieces (0: none yet) */
    bool answered;     /* the response went out: nothing more goes to the client */
    uint64_t timeout_ms, deadline_at; /* the client's timeout_ms; when it passes (now_ms) */
    /* single (n < 0): the whole frame for the worker */
    msgpack_sbuffer req;
    bool assigned;
    bool started; /* a piece went to a worker */
    /* batch (n >= 0) */
    int n;
    msgpack_sbuffer common; /* the params map's other key/value pairs, packed */
    int ncommon;
    /* the puzzles, packed strings one after the other, from pz_at: in the
     * request's own buffer when the job holds it (request_bytes > 0: the
     * connection's reader handed it over, see job_new), else copied to pz */
    const char *pz_at;
    msgpack_sbuffer pz;
    size_t *pz_off; /* n + 1 offsets from pz_at */
    /* the request's buffer, the job's alone from hand-over to job_free
     * (msgpack_unpacker_destroy; nothing else touches it): pz_at points
     * into it, and it goes with the job whatever ends it (answer, error,
     * cancellation, a connection gone). A worker never sees it: its pieces
     * are copied into its shared area (assign), so a worker that dies
     * leaves nothing pointing into it, and its piece goes back whole */
    msgpack_unpacker request;
    size_t request_bytes;
    uint8_t *state; /* per puzzle: 0 to do, 1 on a worker, 2 done */
    char **res;     /* per puzzle: its packed result, in one of the blocks */
    size_t *res_len;
    res_block *blocks; /* where the results are kept (the newest first) */
    bool res_lost;     /* a result found no memory: the job fails as a whole */
    int scan;          /* no puzzle before this is still to do */
    /* how many state[] are 0, kept in step wherever one changes (assign,
     * job_item, a worker's failure), so none of them rescans state[] */
    int pending;
    int done;
    bool queued;
    job *qnext;
    job *all_next, *all_prev;
    size_t held;      /* request bytes counted in D.input_memory */
    size_t res_bytes; /* batch: results gathered so far */
};

struct worker {
    uv_process_t proc;
    uv_pipe_t pipe;
    uv_pipe_t err; /* its stderr: plugins' output, logged a line at a time (rate-limited) */
    uv_timer_t timer;
    worker *next;
    unsigned id;
    unsigned gen;
    int state;
    int open_handles;
    bool retiring;
    bool deadline_hit;
    const char *killed_why; /* we killed it for this (NULL: not us) */
    bool cancelled;         /* killed because nobody waits for its task any more */
    int config_fd;          /* the config it loads */
    worker_shm *shm;        /* the probe and the chunk position (shared memory) */
    char *piece, *ring;     /* in the same mapping: a piece's request, the answers (daemon.h) */
    size_t ring_size;       /* 0: no piece area nor ring (SHM_RING_ENV) */
    size_t shm_size;        /* the mapping's */
    bool in_ring;           /* reading frames from the ring (none there names it again) */
    uint64_t ring_read;     /* the ring's bytes read (ours: the worker's copy is shm's) */
    /* the task on this worker */
    job *job;
    int first, count, got; /* batch: puzzles first..first+count-1, got answered */
    uint64_t t0;           /* when the task went out (ns) */
    /* the batch piece sent behind the task (pieces of cheap puzzles only):
     * the worker begins it as soon as it ends the task, without waiting a
     * round trip through the daemon (see dispatch) */
    job *behind;
    int behind_first, behind_count;
    uint32_t sent;     /* frames sent to it (the worker counts them in shm->begun) */
    uint32_t task_seq; /* the task's number among them */
    bool area_b;       /* the last piece in shared memory went to the second area */
    /* frames coming in */
    char *buf;
    size_t len, cap;
    /* its stderr, a line at a time */
    char line[512];
    size_t nline;
    bool dropping; /* the rest of a line too long to log */
};

typedef struct wwrite {
    uv_write_t w;
    char data[];
} wwrite;

/* The pool's state: nobody outside this file sees it (workers.h). */
static job *all_jobs; /* every unanswered job (linked by all_next) */
static int njobs;
static job *queue_head, *queue_tail; /* jobs with puzzles not yet handed out */
static worker *pool;                 /* every worker, of any generation */
static uint64_t crashes;
static uint64_t killed_outside; /* workers killed from outside (not crashes) */
static int spawn_failures;      /* consecutive workers that died before ready */
static uv_timer_t respawn_timer;
static bool respawn_timer_init;
static unsigned next_worker_id = 1;
static int respawn_wanted;

/* Kill w, saying why (for the log and the answer). */
static void worker_kill(worker *w, const char *why)
{
    if (!w->killed_why) w->killed_why = why;
    uv_process_kill(&w->proc, SIGKILL);
}

static void dispatch(void);
static void spawn_missing(void);
static void timeouts_arm(void);
static void job_cancel_work(job *j);

/* ---- jobs ---------------------------------------------------------------- */

static void pack_frame_len(msgpack_sbuffer *sb)
{
    uint32_t n = htonl((uint32_t)(sb->size - 4));
    memcpy(sb->data, &n, 4);
}

#define HAND_OVER_MIN ((size_t)64 << 10) /* puzzle bytes a job takes in place (job_new) */

static job *job_new(conn *c, uint32_t msgid, const char *method, const msgpack_object *params)
{
    job *j = calloc(1, sizeof *j);
    if (!j) return NULL;
    j->c = c;
    j->msgid = msgid;
    snprintf(j->method, sizeof j->method, "%s", method);
    j->n = -1;
    const msgpack_object *pv = sdk_wire_get(params, "progress");
    j->progress = pv && pv->type == MSGPACK_OBJECT_BOOLEAN && pv->via.boolean;
    /* what the cost of a puzzle depends on: method, profile, solve by logic */
    const msgpack_object *lv = sdk_wire_get(params, "logic");
    const msgpack_object *pf = sdk_wire_get(params, "profile");
    bool logic = lv && lv->type == MSGPACK_OBJECT_BOOLEAN && lv->via.boolean;
    int pl =
        pf && pf->type == MSGPACK_OBJECT_STR && pf->via.str.size < 40 ? (int)pf->via.str.size : 0;
    snprintf(j->cost_key, sizeof j->cost_key, "%s%s/%.*s", method, logic ? "+logic" : "", pl,
             pl ? pf->via.str.ptr : "");
    msgpack_sbuffer_init(&j->req);
    msgpack_sbuffer_init(&j->common);
    msgpack_sbuffer_init(&j->pz);
    /* timeout_ms: the client waits that long; the daemon's business (the
     * workers never see it) */
    const msgpack_object *tm = sdk_wire_get(params, "timeout_ms");
    if (tm && tm->type == MSGPACK_OBJECT_POSITIVE_INTEGER && tm->via.u64 > 0 &&
        tm->via.u64 < (1ull << 40))
        j->timeout_ms = tm->via.u64;

    const msgpack_object *pz = sdk_wire_get(params, "puzzles");
    const msgpack_object *p1 = sdk_wire_get(params, "puzzle");
    bool batch = strcmp(method, "techniques") != 0 && pz && pz->type == MSGPACK_OBJECT_ARRAY &&
                 pz->via.array.size > 0 && pz->via.array.size < (1u << 30) &&
                 (!p1 || p1->type == MSGPACK_OBJECT_NIL);
    for (uint32_t i = 0; batch && i < pz->via.array.size; i++)
        batch = pz->via.array.ptr[i].type == MSGPACK_OBJECT_STR;
    /* generate: a batch of `count` puzzles to make; item i is puzzle i of
     * the seed, and a piece tells its worker `first` and `count` */
    long gen_count = 1;
    if (!strcmp(method, "generate")) {
        const msgpack_object *cv = sdk_wire_get(params, "count");
        const msgpack_object *fv = sdk_wire_get(params, "first");
        if (cv && cv->type == MSGPACK_OBJECT_POSITIVE_INTEGER) gen_count = (long)cv->via.u64;
        bool first_ok = !fv || fv->type == MSGPACK_OBJECT_NIL ||
                        (fv->type == MSGPACK_OBJECT_POSITIVE_INTEGER && fv->via.u64 <= INT32_MAX);
        if (first_ok && fv && fv->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
            j->gen_first = (long)fv->via.u64;
        /* anything else goes to a worker whole, which answers the precise error */
        j->gen = first_ok && (!cv || cv->type == MSGPACK_OBJECT_POSITIVE_INTEGER) && params &&
                 params->type == MSGPACK_OBJECT_MAP && gen_count >= 1 && gen_count <= 1000000;
        batch = j->gen;
    }
    msgpack_packer pk;
    if (!batch) { /* the worker gets the params as they are and answers (or refuses) whole */
        msgpack_packer_init(&pk, &j->req, msgpack_sbuffer_write);
        msgpack_sbuffer_write(&j->req, "\0\0\0\0", 4);
        msgpack_pack_array(&pk, 3);
        sdk_wire_str(&pk, method);
        if (params && params->type == MSGPACK_OBJECT_MAP && sdk_wire_get(params, "timeout_ms")) {
            msgpack_pack_map(&pk, params->via.map.size - 1);
            for (uint32_t i = 0; i < params->via.map.size; i++)
                if (!sdk_wire_str_is(&params->via.map.ptr[i].key, "timeout_ms")) {
                    msgpack_pack_object(&pk, params->via.map.ptr[i].key);
                    msgpack_pack_object(&pk, params->via.map.ptr[i].val);
                }
        } else if (params)
            msgpack_pack_object(&pk, *params);
        else
            msgpack_pack_nil(&pk);
        msgpack_pack_uint8(&pk, 0);
        pack_frame_len(&j->req);
        return j;
    }
    int n = j->gen ? (int)gen_count : (int)pz->via.array.size;
    j->n = n;
    msgpack_packer_init(&pk, &j->common, msgpack_sbuffer_write);
    for (uint32_t i = 0; i < params->via.map.size; i++) {
        const msgpack_object_kv *kv = &params->via.map.ptr[i];
        if (sdk_wire_str_is(&kv->key, "puzzles") || sdk_wire_str_is(&kv->key, "timeout_ms"))
            continue;
        if (j->gen && (sdk_wire_str_is(&kv->key, "count") || sdk_wire_str_is(&kv->key, "first")))
            continue;
        msgpack_pack_object(&pk, kv->key);
        msgpack_pack_object(&pk, kv->val);
        j->ncommon++;
    }
    j->pz_off = malloc(sizeof *j->pz_off * (size_t)(n + 1));
    j->state = calloc((size_t)n, 1);
    j->res = calloc((size_t)n, sizeof *j->res);
    j->res_len = calloc((size_t)n, sizeof *j->res_len);
    if (!j->pz_off || !j->state || !j->res || !j->res_len) {
        free(j->pz_off), free(j->state), free(j->res), free(j->res_len);
        msgpack_sbuffer_destroy(&j->req), msgpack_sbuffer_destroy(&j->common);
        msgpack_sbuffer_destroy(&j->pz);
        free(j);
        return NULL;
    }
    /* the puzzles' bytes, known in advance: one allocation, no growing.
     * Strings that follow one another in the request with the heads msgpack
     * packs (the usual batch) are those bytes already: one copy of them
     * all, `run` from `from` */
    size_t bytes = 0;
    const msgpack_object *a = j->gen ? NULL : pz->via.array.ptr;
    unsigned char h[5];
    size_t hl = a ? sdk_wire_str_head(h, a[0].via.str.size) : 0;
    const char *from = a ? a[0].via.str.ptr - hl : NULL;
    bool run = a && memcmp(from, h, hl) == 0;
    for (int i = 0; i < n; i++) {
        uint32_t l = j->gen ? 0 : a[i].via.str.size;
        size_t at = bytes + (l < 32 ? 1 : l < 256 ? 2 : l < 65536 ? 3 : 5);
        run = run && (uintptr_t)a[i].via.str.ptr == (uintptr_t)from + at;
        j->pz_off[i] = bytes;
        bytes = j->gen ? bytes + 9 : at + l;
    }
    j->pending = n;
    /* the usual big batch: the request's bytes are the puzzles, so the job
     * takes the buffer they are in rather than a copy of them (4 MB of
     * copies less in a run of 17clue.txt). The message is the one the
     * reader returned last (rpc_handle runs on it from read_cb, before the
     * reader reads more): hand_over refuses otherwise. Only a buffer the
     * puzzles fill at least about half of: one grown for many pipelined
     * requests would be held whole by each of their jobs (it counts in
     * max_input_memory); small batches are copied as before */
    if (run && c && bytes >= HAND_OVER_MIN &&
        sdk_wire_reader_capacity(&c->rd) <= 2 * bytes + HAND_OVER_MIN)
        j->request_bytes = sdk_wire_reader_hand_over(&c->rd, &j->request);
    if (j->request_bytes && from >= j->request.buffer &&
        from + bytes <= j->request.buffer + j->request.used) {
        j->pz_at = from;
        j->pz_off[n] = bytes;
        return j;
    }
    j->pz.data = malloc(bytes ? bytes : 1);
    j->pz.alloc = j->pz.data ? bytes : 0;
    j->pz_at = j->pz.data;
    if (run && j->pz.data) {
        memcpy(j->pz.data, from, bytes);
        j->pz.size = bytes;
        j->pz_off[n] = bytes;
        return j;
    }
    if (!j->gen && j->pz.data) { /* each string as msgpack packs it: its head, its bytes */
        unsigned char *o = (unsigned char *)j->pz.data;
        size_t at = 0;
        for (int i = 0; i < n; i++) {
            const msgpack_object_str *t = &pz->via.array.ptr[i].via.str;
            uint32_t l = t->size;
            j->pz_off[i] = at;
            at += sdk_wire_str_head(o + at, l);
            if (l) memcpy(o + at, t->ptr, l);
            at += l;
        }
        j->pz.size = at;
        j->pz_off[n] = at;
        return j;
    }
    msgpack_packer_init(&pk, &j->pz, msgpack_sbuffer_write);
    for (int i = 0; i < n; i++) {
        j->pz_off[i] = j->pz.size;
        if (j->gen)
            msgpack_pack_long(&pk, j->gen_first + i); /* what an item error names */
        else
            msgpack_pack_object(&pk, pz->via.array.ptr[i]);
    }
    j->pz_off[n] = j->pz.size;
    j->pz_at = j->pz.data; /* where the packer left it */
    return j;
}

static size_t job_bytes(const job *j)
{
    size_t per =
        j->n > 0 ? (size_t)j->n * (sizeof *j->pz_off + 1 + sizeof *j->res + sizeof *j->res_len) : 0;
    return sizeof *j + j->req.alloc + j->common.alloc + j->pz.alloc + j->request_bytes + per;
}

/* A batch's result blocks (a list), when nothing points into them any more. */
static void free_blocks(void *arg)
{
    for (res_block *b = arg, *next; b; b = next) {
        next = b->next;
        free(b);
    }
}

static void job_free(job *j)
{
    D.input_memory -= j->held;
    free_blocks(j->blocks);
    free(j->res);
    free(j->res_len);
    free(j->state);
    free(j->pz_off);
    msgpack_sbuffer_destroy(&j->req);
    msgpack_sbuffer_destroy(&j->common);
    msgpack_sbuffer_destroy(&j->pz);
    if (j->request_bytes) msgpack_unpacker_destroy(&j->request);
    free(j);
}

static void queue_push(job *j)
{
    if (j->queued) return;
    j->queued = true;
    j->qnext = NULL;
    if (queue_tail)
        queue_tail->qnext = j;
    else
        queue_head = j;
    queue_tail = j;
}

static void queue_remove(job *j)
{
    if (!j->queued) return;
    job **pp = &queue_head, *prev = NULL;
    while (*pp && *pp != j) prev = *pp, pp = &(*pp)->qnext;
    if (*pp) *pp = j->qnext;
    if (queue_tail == j) queue_tail = prev;
    j->queued = false;
}

static bool job_admit(job *j)
{
    size_t bytes = job_bytes(j);
    if (D.input_memory + bytes <= D.lim.max_input_memory) return true;
    job_free(j);
    return false;
}

static void job_submit(job *j)
{
    j->held = job_bytes(j);
    D.input_memory += j->held;
    j->all_next = all_jobs;
    if (all_jobs) all_jobs->all_prev = j;
    all_jobs = j;
    njobs++;
    if (j->c) j->c->jobs++;
    if (j->timeout_ms) {
        j->deadline_at = now_ms() + j->timeout_ms;
        timeouts_arm();
    }
    queue_push(j);
    dispatch();
}

/* The job got its answer (or failed): account for it; free it when no worker
 * holds a part of it any more. */
static int job_inflight(job *j)
{
    int k = 0;
    for (worker *w = pool; w; w = w->next) k += (w->job == j) + (w->behind == j);
    return k;
}

/* Nobody waits for j any more (its client went away, or its timeout
 * passed): stop the workers on its parts now rather than let them finish
 * work whose answer is thrown away. A technique step may run for seconds,
 * so the worker is killed and replaced, which frees the CPU at once. A
 * piece of j queued behind another job's task is served and thrown away:
 * it is a cheap one (a few ms at most, see dispatch). */
static void job_cancel_work(job *j)
{
    for (worker *w = pool; w; w = w->next)
        if (w->job == j && w->state == W_BUSY && !w->cancelled) {
            w->cancelled = true;
            worker_kill(w, "its request was cancelled");
        }
}

/* A job that was answered is freed once no worker holds a part of it. */
static void job_release(job *j)
{
    if (j->answered && job_inflight(j) == 0) job_free(j);
}

/* The job got its answer: nothing more goes to the client. */
static void job_finish(job *j)
{
    j->answered = true;
    queue_remove(j);
    if (j->all_prev)
        j->all_prev->all_next = j->all_next;
    else if (all_jobs == j)
        all_jobs = j->all_next;
    if (j->all_next) j->all_next->all_prev = j->all_prev;
    j->all_next = j->all_prev = NULL;
    njobs--;
    D.requests++;
    conn *c = j->c;
    j->c = NULL;
    if (c) {
        c->jobs--;
        conn_job_done(c);
    }
    job_release(j);
    daemon_check_drained();
}

void workers_forget_conn(conn *c)
{
    /* Nobody will read the answers: drop the jobs. Parts already on workers
     * finish there and are thrown away. */
    for (job *j = all_jobs, *next; j; j = next) {
        next = j->all_next;
        if (j->c != c) continue;
        j->c = NULL;
        if (job_inflight(j)) log_debug("request %u: its client went away: cancelled", j->msgid);
        job_cancel_work(j);
        job_finish(j);
    }
}

static void job_reply_error(job *j, const char *code, const char *msg)
{
    if (j->c) conn_send_error(j->c, j->msgid, code, "%s", msg);
    job_finish(j);
}

/* ---- request timeouts (the client's timeout_ms) ----------------------------
 * One timer for all jobs, set to the earliest deadline; a job past its
 * deadline gets deadline-exceeded as a whole and its work is stopped. */
static uv_timer_t timeout_timer;
static bool timeout_timer_init;

static void on_timeouts(uv_timer_t *t)
{
    (void)t;
    uint64_t now = now_ms();
    for (job *j = all_jobs, *next; j; j = next) {
        next = j->all_next;
        if (!j->deadline_at || j->deadline_at > now) continue;
        char msg[128];
        snprintf(msg, sizeof msg, "the request's timeout of %llu ms passed (timeout_ms)",
                 (unsigned long long)j->timeout_ms);
        log_debug("request %u: %s: cancelled", j->msgid, msg);
        job_cancel_work(j);
        job_reply_error(j, SDK_E_DEADLINE, msg);
        next = all_jobs; /* the list changed: start over (answered jobs are gone from it) */
    }
    timeouts_arm();
}

static void timeouts_arm(void)
{
    uint64_t first = 0;
    for (job *j = all_jobs; j; j = j->all_next)
        if (j->deadline_at && (!first || j->deadline_at < first)) first = j->deadline_at;
    if (!timeout_timer_init) {
        if (!first || D.draining) return;
        uv_timer_init(D.loop, &timeout_timer);
        uv_unref((uv_handle_t *)&timeout_timer);
        timeout_timer_init = true;
    }
    if (!first) {
        uv_timer_stop(&timeout_timer);
        return;
    }
    uint64_t now = now_ms();
    uv_timer_start(&timeout_timer, on_timeouts, first > now ? first - now : 0, 0);
}

static void timeouts_close(void)
{
    if (!timeout_timer_init) return;
    timeout_timer_init = false;
    uv_timer_stop(&timeout_timer);
    uv_close((uv_handle_t *)&timeout_timer, NULL);
}

static void job_reply_raw(job *j, bool error, const char *body, size_t n)
{
    if (j->c) {
        msgpack_sbuffer sb;
        msgpack_packer pk;
        msgpack_sbuffer_init(&sb);
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        msgpack_pack_array(&pk, 4);
        msgpack_pack_uint8(&pk, SDK_RPC_RESPONSE);
        msgpack_pack_uint32(&pk, j->msgid);
        if (error) {
            msgpack_sbuffer_write(&sb, body, n);
            msgpack_pack_nil(&pk);
        } else {
            msgpack_pack_nil(&pk);
            msgpack_sbuffer_write(&sb, body, n);
        }
        conn_send(j->c, sb.data, sb.size);
        msgpack_sbuffer_destroy(&sb);
    }
    job_finish(j);
}

static void job_reply_batch(job *j)
{
    if (j->res_lost) {
        job_reply_error(j, SDK_E_INTERNAL, "sudokud ran out of memory gathering the results");
        return;
    }
    if (j->c) {
        msgpack_sbuffer head;
        msgpack_packer pk;
        msgpack_sbuffer_init(&head);
        msgpack_packer_init(&pk, &head, msgpack_sbuffer_write);
        sdk_wire_response_head(&pk, j->msgid);
        msgpack_pack_map(&pk, 1);
        sdk_wire_str(&pk, "results");
        msgpack_pack_array(&pk, (size_t)j->n);
        /* the results are written from the blocks they were gathered in,
         * one part per run that follows one another in memory (a worker's
         * burst, stored in arrival order): no copy of the whole answer.
         * The blocks go with the write, and are freed once it is done */
        int runs = 0;
        for (int i = 0; i < j->n; i++)
            runs += j->res_len[i] && (i == 0 || j->res[i] != j->res[i - 1] + j->res_len[i - 1]);
        uv_buf_t *parts = malloc(sizeof *parts * (size_t)(runs ? runs : 1));
        if (parts) {
            int k = 0;
            for (int i = 0; i < j->n;) {
                const char *from = j->res[i];
                size_t len = j->res_len[i++];
                while (len && i < j->n && j->res_len[i] && j->res[i] == from + len)
                    len += j->res_len[i++];
                if (len) parts[k++] = uv_buf_init((char *)from, (unsigned)len);
            }
            res_block *blocks = j->blocks;
            j->blocks = NULL;
            conn_send_parts(j->c, head.data, head.size, parts, (unsigned)k, free_blocks, blocks);
            free(parts);
        } else {
            job_reply_error(j, SDK_E_INTERNAL, "sudokud ran out of memory writing the results");
            msgpack_sbuffer_destroy(&head);
            return;
        }
        msgpack_sbuffer_destroy(&head);
    }
    job_finish(j);
}

static void job_progress(job *j)
{
    if (!j->progress || !j->c || j->answered) return;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    sdk_wire_notify_head(&pk, "progress");
    msgpack_pack_array(&pk, 1);
    msgpack_pack_map(&pk, 3);
    sdk_wire_kv_int(&pk, "msgid", (long)j->msgid);
    sdk_wire_kv_int(&pk, "done", j->done);
    sdk_wire_kv_int(&pk, "total", j->n);
    conn_send(j->c, sb.data, sb.size);
    msgpack_sbuffer_destroy(&sb);
}

/* Store the result of batch puzzle i. */
static void job_item(job *j, int i, const char *body, size_t n)
{
    if (j->state[i] == 2) return;
    if (j->state[i] == 0) j->pending--;
    j->res_bytes += n;
    j->held += n; /* results gathered count in the daemon-wide budget until sent */
    D.input_memory += n;
    res_block *b = j->blocks;
    if (!b || b->cap - b->used < n) {
        size_t cap = b ? b->cap * 2 : RES_BLOCK_MIN;
        if (cap > RES_BLOCK_MAX) cap = RES_BLOCK_MAX;
        if (cap < n) cap = n;
        b = malloc(sizeof *b + cap);
        if (b) {
            b->used = 0, b->cap = cap;
            b->next = j->blocks;
            j->blocks = b;
        }
    }
    if (b) {
        j->res[i] = b->data + b->used;
        memcpy(j->res[i], body, n);
        j->res_len[i] = n;
        b->used += n;
    } else
        j->res_lost = true; /* answered as a whole: internal */
    j->state[i] = 2;
    j->done++;
}

/* Batch puzzle i failed on the worker: {puzzle, error}. */
static void job_item_error(job *j, int i, const char *code, const char *msg)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_map(&pk, 2);
    sdk_wire_str(&pk, j->gen ? "index" : "puzzle");
    msgpack_sbuffer_write(&sb, j->pz_at + j->pz_off[i], j->pz_off[i + 1] - j->pz_off[i]);
    sdk_wire_str(&pk, "error");
    sdk_error e;
    snprintf(e.code, sizeof e.code, "%s", code);
    snprintf(e.msg, sizeof e.msg, "%s", msg);
    sdk_wire_pack_error(&pk, &e);
    job_item(j, i, sb.data, sb.size);
    msgpack_sbuffer_destroy(&sb);
}

/* ---- talking to workers -------------------------------------------------- */

static void wwrite_cb(uv_write_t *w, int status)
{
    (void)status; /* a broken pipe shows up as the worker's exit */
    free(w);
}

/* Send the first n bytes of r (NULL: out of memory) to w; r is the write's. */
static void worker_write(worker *w, wwrite *r, size_t n)
{
    if (!r) {
        worker_kill(w, "out of memory writing to it");
        return;
    }
    /* a frame (a piece's 4-byte head above all) mostly goes at once: then
     * no request is queued for the loop, whose every write asks the kernel
     * again what to watch on the socket (an epoll_ctl) and calls back;
     * uv_try_write writes nothing while earlier writes are queued */
    uv_buf_t b = uv_buf_init(r->data, (unsigned)n);
    int k = uv_try_write((uv_stream_t *)&w->pipe, &b, 1);
    if (k == (int)n) {
        free(r);
        return;
    }
    if (k > 0) b = uv_buf_init(r->data + k, (unsigned)(n - (size_t)k)); /* the rest, queued */
    if (uv_write(&r->w, (uv_stream_t *)&w->pipe, &b, 1, wwrite_cb) != 0) {
        free(r);
        worker_kill(w, "writing to it failed");
    }
}

static void worker_send(worker *w, const char *data, size_t n)
{
    wwrite *r = malloc(sizeof *r + n);
    if (r) memcpy(r->data, data, n);
    worker_write(w, r, n);
}

/* A piece's frame is packed straight into the write's buffer, sized in
 * advance (the puzzles are most of it): no buffer grown and copied again. */
typedef struct frame_buf {
    char *p;
    size_t n, cap;
    bool bad; /* a write did not fit: the frame is not sent */
} frame_buf;

static int frame_write(void *data, const char *buf, size_t len)
{
    frame_buf *f = data;
    if (f->bad || len > f->cap - f->n) {
        f->bad = true;
        return -1;
    }
    if (len) memcpy(f->p + f->n, buf, len); /* the common params may be none (NULL) */
    f->n += len;
    return 0;
}

static void on_deadline(uv_timer_t *t)
{
    worker *w = t->data;
    if (w->state != W_BUSY) return;
    w->deadline_hit = true;
    log_warn("worker %u: deadline of %d ms exceeded, killing it", w->id, D.lim.deadline_ms);
    worker_kill(w, "deadline");
}

static void arm_deadline(worker *w)
{
    if (D.lim.deadline_ms > 0)
        uv_timer_start(&w->timer, on_deadline, (uint64_t)D.lim.deadline_ms, 0);
}

/* ---- piece sizes --------------------------------------------------------- *
 * A batch goes to the workers in pieces. Each piece is one frame each way, so
 * cheap puzzles (solve: ~15 us) want big pieces; but a worker holds a piece
 * until it is done, so expensive ones (rate on the full ladder: ms to s) want
 * small pieces, or one client's batch keeps every other request waiting.
 * The size aims at PIECE_US of work, from an estimate of the cost per puzzle
 * (a moving average per method, measured on the pieces that come back), and
 * when the job is the last work queued, at most a 1/(2 x workers) share of
 * what is left of it (guided self-scheduling: big pieces first, smaller ones
 * as the job drains, down to PIECE_MIN_US of work, so the workers finish
 * together). */
#define PIECE_US 20000.0
#define PIECE_MIN_US 500.0
#define PIECE_MAX 1024

typedef struct cost {
    char key[64]; /* job->cost_key: method, +logic, /profile */
    double us;    /* per puzzle, moving average */
} cost;
static cost costs[32];
static int ncosts, next_evict;

/* The estimate for j's kind of request (a prior when never measured). */
static double cost_get(const job *j)
{
    for (int i = 0; i < ncosts; i++)
        if (!strcmp(costs[i].key, j->cost_key)) return costs[i].us;
    /* solve: the brute-force solver, cheap; the rest: ~1 ms, a piece of 20
     * (never more than the 32 of a fixed size) */
    return !strncmp(j->cost_key, "solve/", 6) ? 50.0 : 1000.0;
}

static void cost_update(const job *j, double us)
{
    for (int i = 0; i < ncosts; i++)
        if (!strcmp(costs[i].key, j->cost_key)) {
            costs[i].us = 0.7 * costs[i].us + 0.3 * us;
            return;
        }
    int n = (int)(sizeof costs / sizeof *costs);
    int i = ncosts < n ? ncosts++ : next_evict++ % n;
    snprintf(costs[i].key, sizeof costs[i].key, "%s", j->cost_key);
    costs[i].us = us;
}

/* The size of j's next piece; *full: its size while j is not draining (the
 * size by cost alone). */
static int chunk_size(const job *j, int *full)
{
    int left = j->pending; /* every one from scan on */
    int workers = D.lim.workers > 0 ? D.lim.workers : 1;
    /* with other work queued, a worker that finishes early goes on with
     * it: the pieces need not shrink for the workers to finish together
     * (sudoctl keeps several requests in flight: shrinking each one's tail
     * made five times the pieces, each a round trip and a wakeup) */
    bool more = false;
    for (const job *q = queue_head; q && !more; q = q->qnext) more = q != j;
    int share = more ? PIECE_MAX : (left + 2 * workers - 1) / (2 * workers);
    double est = j->cost_us > 0 ? j->cost_us : cost_get(j);
    double by_cost = PIECE_US / (est > 1.0 ? est : 1.0);
    int k = by_cost < share ? (int)by_cost : share;
    if (full) *full = by_cost < PIECE_MAX ? (by_cost < 1 ? 1 : (int)by_cost) : PIECE_MAX;
    /* the shrinking stops at PIECE_MIN_US of work: below that a piece's
     * round trip and wakeups cost more than the workers' finishing apart
     * (a solve batch's tail went down to pieces of 1: 29 pieces for a
     * request of 4096 rather than 10). Not much more: on a loaded machine
     * a bigger last piece left the other worker idle longer (2 ms: the
     * same CPU, less wall throughput) */
    double floor_by_cost = PIECE_MIN_US / (est > 1.0 ? est : 1.0);
    if (k < floor_by_cost) k = floor_by_cost < left ? (int)floor_by_cost : left;
    return k < 1 ? 1 : k > PIECE_MAX ? PIECE_MAX : k;
}

/* The job the next piece comes from: the connections take turns (the one
 * served longest ago first), and each connection's requests go in order. So a
 * client's small request waits for at most one piece of another client's
 * batch, not for the whole batch to be handed out. A connection whose unsent
 * answers passed max_output waits. While the daemon holds more than
 * max_input_memory (requests, incomplete messages, gathered batch results),
 * no new job starts: the started ones finish and give their memory back. */
static job *pick(void)
{
    static unsigned pass;
    pass++;
    job *best = NULL;
    for (job *j = queue_head; j; j = j->qnext) {
        if (!j->c) {
            if (!best) best = j;
            continue;
        }
        if (j->c->pass == pass) continue; /* a later request of a connection seen */
        j->c->pass = pass;
        if (j->c->held) continue; /* its answers wait to be read: its work waits too */
        if (!j->started && D.input_memory > D.lim.max_input_memory) continue;
        if (!best || (best->c && j->c->last_served < best->c->last_served)) best = j;
    }
    return best;
}

/* A piece may wait behind a task on a worker when the job's puzzles cost
 * at most BEHIND_MAX_US each (solve: a few us): its pieces are then a few
 * ms of work at most (PIECE_MAX), so a piece that waits keeps no other
 * worker idle long, and a cancelled one is soon over; what it saves, a
 * round trip and two wakeups between pieces, counts only for such pieces. */
#define BEHIND_MAX_US 100.0

static bool job_cheap(const job *j)
{
    double est = j->cost_us > 0 ? j->cost_us : cost_get(j);
    return j->n >= 0 && est <= BEHIND_MAX_US;
}

static long queued_puzzles(void)
{
    long n = 0;
    for (const job *q = queue_head; q; q = q->qnext) n += q->n >= 0 ? q->pending : 1;
    return n;
}

/* Give worker w the next piece of work in the queue: its task, or with
 * `behind` a cheap batch piece that waits behind its task (there is room
 * for one). */
static bool assign(worker *w, bool behind)
{
    static uint64_t served;
    job *j = pick();
    if (!j) return false;
    /* the last pieces go to whichever worker is free first: one queued
     * behind a worker's task could have the other worker end first and
     * wait. So a piece waits behind only while as much work again stays in
     * the queue for the workers to even out (and j is not draining) */
    int full;
    if (behind && (!job_cheap(j) || chunk_size(j, &full) < full ||
                   queued_puzzles() < 2 * (full < j->pending ? full : j->pending)))
        return false;
    if (j->c) j->c->last_served = ++served;
    j->started = true;
    w->sent++;
    if (!behind && w->shm) w->shm->item = 0; /* before the worker can see the task */
    if (j->n < 0) {
        queue_remove(j);
        j->assigned = true;
        w->job = j;
        w->first = 0, w->count = 1, w->got = 0;
        worker_send(w, j->req.data, j->req.size);
    } else {
        while (j->scan < j->n && j->state[j->scan] != 0) j->scan++;
        int first = j->scan, count = 0, max = chunk_size(j, NULL);
        while (first + count < j->n && count < max && j->state[first + count] == 0) count++;
        for (int i = first; i < first + count; i++) j->state[i] = 1;
        j->scan = first + count;
        j->pending -= count;
        if (!j->pending) queue_remove(j);
        if (count == 0) { /* nothing left here after all */
            w->sent--;
            return assign(w, behind);
        }
        if (behind) {
            w->behind = j;
            w->behind_first = first, w->behind_count = count;
        } else {
            w->job = j;
            w->first = first, w->count = count, w->got = 0;
        }
        size_t pzb = j->gen ? 0 : j->pz_off[first + count] - j->pz_off[first];
        /* the frame's length, the array, the method (< 16), the map head, the
         * common params, "puzzles" or first/count, the array head, the mode */
        size_t cap = 4 + 1 + 17 + 5 + j->common.size + 40 + 5 + pzb + 2;
        /* in a shared piece area when it fits, a 4-byte head on the
         * socket: the area the last piece did not take (the worker may
         * still read that one: it is the task this piece waits behind) */
        bool shared = w->ring_size && cap - 4 <= SHM_PIECE_SIZE;
        if (shared) w->area_b = !w->area_b;
        wwrite *r = malloc(sizeof *r + (shared ? 4 : cap));
        frame_buf f = {r ? r->data : NULL, 4, r ? cap : 0, false};
        if (shared) /* the length is not written there */
            f.p = w->piece + (w->area_b ? SHM_PIECE_SIZE : 0) - 4;
        msgpack_packer pk;
        msgpack_packer_init(&pk, &f, frame_write);
        msgpack_pack_array(&pk, 3);
        sdk_wire_str(&pk, j->method);
        msgpack_pack_map(&pk, (size_t)j->ncommon + (j->gen ? 2 : 1));
        frame_write(&f, j->common.data, j->common.size);
        if (j->gen) {
            sdk_wire_kv_int(&pk, "first", j->gen_first + first);
            sdk_wire_kv_int(&pk, "count", count);
        } else {
            sdk_wire_str(&pk, "puzzles");
            msgpack_pack_array(&pk, (size_t)count);
            frame_write(&f, j->pz_at + j->pz_off[first], pzb);
        }
        msgpack_pack_uint8(&pk, 1);
        if (r && !f.bad) {
            uint32_t flags = shared ? SHM_FRAME | (w->area_b ? SHM_AREA_B : 0) : 0;
            uint32_t len = htonl((uint32_t)(f.n - 4) | flags);
            memcpy(r->data, &len, 4);
        } else if (r) { /* cannot happen: cap counts every byte */
            free(r);
            r = NULL;
        }
        worker_write(w, r, shared ? 4 : f.n);
    }
    if (behind) return true;
    w->task_seq = w->sent;
    w->t0 = uv_hrtime();
    w->state = W_BUSY;
    arm_deadline(w);
    return true;
}

/* The piece behind w's task becomes its task (the worker ended the task). */
static void behind_promote(worker *w)
{
    w->job = w->behind;
    w->first = w->behind_first, w->count = w->behind_count, w->got = 0;
    w->behind = NULL;
    w->task_seq++;
    w->t0 = uv_hrtime();
}

/* Puzzles from..to-1 of j that were on a worker and not answered go back to
 * the queue (to another worker). */
static void piece_requeue(job *j, int from, int to)
{
    int requeue = to;
    for (int i = from; i < to; i++)
        if (j->state[i] == 1) {
            j->state[i] = 0;
            j->pending++;
            if (i < requeue) requeue = i;
        }
    if (requeue < to) {
        if (j->scan > requeue) j->scan = requeue;
        queue_push(j);
    }
}

/* w is gone before it began the piece behind its task: the piece goes back
 * to the queue whole. */
static void behind_requeue(worker *w)
{
    job *j = w->behind;
    if (!j) return;
    w->behind = NULL;
    if (j->answered)
        job_release(j);
    else
        piece_requeue(j, w->behind_first, w->behind_first + w->behind_count);
}

static bool worker_serves(const worker *w)
{
    return !w->retiring && !w->cancelled && w->gen == D.generation;
}

/* Idle workers get a task each; then each worker on a cheap batch piece
 * gets the next piece behind it (job_cheap), so that it goes on without
 * waiting for the daemon to hear of the end and answer with a new piece. */
static void dispatch(void)
{
    if (life_plugins_stale()) return; /* the new generation serves them */
    for (worker *w = pool; w && queue_head; w = w->next)
        if (w->state == W_IDLE && worker_serves(w) && !assign(w, false)) return;
    for (worker *w = pool; w && queue_head; w = w->next)
        if (w->state == W_BUSY && worker_serves(w) && !w->behind && w->job && !w->job->answered &&
            job_cheap(w->job) && !assign(w, true))
            return;
}

void workers_dispatch(void)
{
    dispatch();
}

void workers_trim_shared(void)
{
    /* an idle worker reads no piece and writes no answer until it gets the
     * next piece, which comes after this */
    for (worker *w = pool; w; w = w->next)
        if (w->shm && w->ring_size && w->state == W_IDLE)
            madvise(w->piece, 2 * SHM_PIECE_SIZE + w->ring_size, MADV_REMOVE);
}

/* The worker finished its task (normally). */
static void task_done(worker *w)
{
    uv_timer_stop(&w->timer);
    w->job = NULL;
    if (w->cancelled) return; /* killed: it takes no more work (its exit replaces it) */
    if (w->behind) {          /* the worker is on it already */
        behind_promote(w);
        arm_deadline(w);
        dispatch();
        return;
    }
    w->state = W_IDLE;
    if (w->retiring) {
        uv_process_kill(&w->proc, SIGTERM);
        return;
    }
    dispatch();
}

static void ring_frames(worker *w, const char *body, size_t n);

static void on_frame(worker *w, int kind, const char *body, size_t n)
{
    job *j = w->job;
    switch (kind) {
    case FRAME_READY:
        if (w->state != W_STARTING) break;
        uv_timer_stop(&w->timer);
        w->state = W_IDLE;
        if (w->shm) w->shm->loading[0] = 0;
        log_debug("worker %u ready (pid %d, generation %u)", w->id, w->proc.pid, w->gen);
        if (w->retiring) {
            uv_process_kill(&w->proc, SIGTERM);
        } else if (reload_trying(w->gen)) {
            reload_worker_ready(w->gen, body, n); /* the last one makes it serve */
        } else {
            spawn_failures = 0;
            dispatch();
        }
        return;
    case FRAME_RESULT:
    case FRAME_ERROR:
        if (kind == FRAME_ERROR && w->state == W_STARTING) { /* its config does not load */
            char code[32] = SDK_E_CONFIG, msg[256] = "the config does not load";
            sdk_wire_reader r;
            const msgpack_object *o;
            sdk_error e;
            if (sdk_wire_reader_init(&r, n + 4096) && sdk_wire_reader_feed(&r, body, n) &&
                sdk_wire_reader_next(&r, &o, &e) == 1) {
                sdk_wire_copy_str(sdk_wire_get(o, "code"), code, sizeof code);
                sdk_wire_copy_str(sdk_wire_get(o, "message"), msg, sizeof msg);
            }
            sdk_wire_reader_free(&r);
            w->killed_why = "its config does not load";
            if (reload_trying(w->gen))
                reload_worker_failed(w->gen, code, msg);
            else
                log_err("worker %u cannot load the accepted config: %s", w->id, msg);
            return; /* it exits */
        }
        if (!j) break;
        w->job = NULL; /* so that job_finish sees it is not in flight here */
        if (!j->answered) {
            if (j->n < 0)
                job_reply_raw(j, kind == FRAME_ERROR, body, n);
            else if (kind == FRAME_ERROR) { /* a top-level error from a chunk: the whole request */
                char code[32] = SDK_E_INTERNAL, msg[256] = "";
                sdk_wire_reader r;
                const msgpack_object *o;
                sdk_error e;
                if (sdk_wire_reader_init(&r, n + 4096) && sdk_wire_reader_feed(&r, body, n) &&
                    sdk_wire_reader_next(&r, &o, &e) == 1) {
                    sdk_wire_copy_str(sdk_wire_get(o, "code"), code, sizeof code);
                    sdk_wire_copy_str(sdk_wire_get(o, "message"), msg, sizeof msg);
                }
                sdk_wire_reader_free(&r);
                job_reply_error(j, code, msg);
            } else {
                job_reply_error(j, SDK_E_INTERNAL, "worker answered a chunk as a whole");
            }
        } else {
            job_release(j);
        }
        task_done(w);
        return;
    case FRAME_ITEM:
        if (!j || j->n < 0 || w->got >= w->count) break;
        if (!j->answered) job_item(j, w->first + w->got, body, n);
        w->got++;
        if (!j->answered && j->res_bytes > D.lim.max_answer) {
            char msg[160];
            snprintf(msg, sizeof msg,
                     "the results of this batch pass max_answer (%zu bytes) at puzzle %d of %d: "
                     "send it in smaller batches",
                     D.lim.max_answer, w->first + w->got, j->n);
            job_reply_error(j, SDK_E_TOO_LARGE, msg);
        }
        return; /* worker_read arms the deadline again: it is per puzzle */
    case FRAME_RING:
        ring_frames(w, body, n);
        return;
    case FRAME_END:
        if (!j || j->n < 0) break;
        w->job = NULL;
        if (w->got == w->count && w->count > 0) { /* learn the cost per puzzle */
            double us = (double)(uv_hrtime() - w->t0) / 1000.0 / w->count;
            cost_update(j, us);
            j->cost_us = j->cost_us > 0 ? 0.5 * j->cost_us + 0.5 * us : us;
        }
        if (j->answered) {
            job_release(j);
        } else {
            for (int i = w->first + w->got; i < w->first + w->count; i++)
                job_item_error(j, i, SDK_E_INTERNAL, "the worker skipped this puzzle");
            job_progress(j);
            if (j->done == j->n) job_reply_batch(j);
        }
        task_done(w);
        return;
    default:
        break;
    }
    log_err("worker %u sent an unexpected frame (kind %d); killing it", w->id, kind);
    worker_kill(w, "it sent an unexpected frame");
}

static void worker_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    worker *w = h->data;
    (void)suggested;
    if (w->cap - w->len < 64 * 1024) {
        size_t cap = w->cap ? w->cap * 2 : 128 * 1024;
        while (cap - w->len < 64 * 1024) cap *= 2;
        char *p = realloc(w->buf, cap);
        if (!p) {
            *buf = uv_buf_init(NULL, 0);
            return;
        }
        w->buf = p;
        w->cap = cap;
    }
    *buf = uv_buf_init(w->buf + w->len, (unsigned)(w->cap - w->len));
}

/* A burst's answers to the batch piece on w (FRAME_ITEMs one after the
 * other, the frames at buf + off), stored as on_frame and job_item store
 * them, in one loop: the job's counters kept in locals, no call but the
 * copy. It stops before anything else (another frame, an answer over
 * max_answer, a puzzle not on the worker, a full block) and leaves that to
 * on_frame. Returns where it stopped; *items when it took any. */
static size_t item_run(worker *w, const char *buf, size_t len, size_t off, bool *items)
{
    job *j = w->job;
    if (!j || j->n < 0 || j->answered) return off;
    res_block *b = j->blocks;
    size_t bytes = 0, room = D.lim.max_answer -
                             (j->res_bytes < D.lim.max_answer ? j->res_bytes : D.lim.max_answer);
    int got = w->got, first = w->first, count = w->count, taken = 0;
    while (len - off >= FRAME_HEAD && got < count && buf[off + 4] == FRAME_ITEM) {
        uint32_t n;
        memcpy(&n, buf + off, 4);
        n = ntohl(n);
        int i = first + got;
        if (len - off - FRAME_HEAD < n || n > room - bytes || j->state[i] != 1 || !b ||
            b->cap - b->used < n)
            break;
        char *to = b->data + b->used;
        memcpy(to, buf + off + FRAME_HEAD, n);
        b->used += n;
        j->res[i] = to;
        j->res_len[i] = n;
        j->state[i] = 2;
        bytes += n;
        got++, taken++;
        off += FRAME_HEAD + n;
    }
    if (taken) {
        j->res_bytes += bytes;
        j->held += bytes; /* results gathered count in the daemon-wide budget until sent */
        D.input_memory += bytes;
        j->done += taken;
        w->got = got;
        *items = true;
    }
    return off;
}

/* The whole frames at buf (len bytes) to on_frame, while the worker lives;
 * how many bytes they took. *items: the last one was an answer of a piece
 * still on w. */
static size_t worker_frames(worker *w, const char *buf, size_t len, bool *items)
{
    size_t off = 0;
    while (len - off >= FRAME_HEAD && w->state != W_EXITED) {
        if (buf[off + 4] == FRAME_ITEM) {
            size_t past = item_run(w, buf, len, off, items);
            if (past != off) {
                off = past;
                continue;
            }
        }
        uint32_t blen;
        memcpy(&blen, buf + off, 4);
        blen = ntohl(blen);
        if (len - off < FRAME_HEAD + (size_t)blen) break;
        if (blen > D.lim.max_answer + ((size_t)1 << 20)) {
            log_err("worker %u sent a frame of %u bytes (max_answer is %zu); killing it", w->id,
                    blen, D.lim.max_answer);
            worker_kill(w, "it sent an answer larger than max_answer");
            return len;
        }
        int kind = (unsigned char)buf[off + 4];
        on_frame(w, kind, buf + off + FRAME_HEAD, blen);
        *items = kind == FRAME_ITEM || (kind == FRAME_RING && *items);
        off += FRAME_HEAD + blen;
    }
    return off;
}

/* FRAME_RING: frames the worker put in the shared ring (worker_shm). Read
 * there in place, then the ring's room is the worker's again. A bad place
 * (out of the ring, going back) kills the worker, as a bad frame does. */
static void ring_frames(worker *w, const char *body, size_t n)
{
    uint64_t at;
    uint32_t len;
    uint64_t read = w->ring_read;
    if (n == 12) memcpy(&at, body, 8), memcpy(&len, body + 8, 4);
    if (n != 12 || !w->ring_size || w->in_ring || at < read ||
        at % w->ring_size + len > w->ring_size) {
        log_err("worker %u named a bad place in its ring; killing it", w->id);
        worker_kill(w, "it sent an unexpected frame");
        return;
    }
    bool items = false;
    w->in_ring = true;
    size_t used = worker_frames(w, w->ring + at % w->ring_size, len, &items);
    w->in_ring = false;
    if (used != len && w->state != W_EXITED) {
        log_err("worker %u left a part frame in its ring; killing it", w->id);
        worker_kill(w, "it sent an unexpected frame");
        return;
    }
    w->ring_read = at + len;
    __atomic_store_n(&w->shm->ring_read, w->ring_read, __ATOMIC_RELEASE);
}

static void worker_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
    (void)buf;
    worker *w = s->data;
    if (n < 0) {
        uv_read_stop(s);
        if (w->state != W_EXITED) uv_process_kill(&w->proc, SIGKILL); /* make sure */
        return;
    }
    w->len += (size_t)n;
    bool items = false; /* the last frames were answers of a piece still on w */
    size_t off = worker_frames(w, w->buf, w->len, &items);
    if (off > w->len) off = w->len;
    /* the deadline is per puzzle: it starts again with the last answer read
     * (once per read, not once per answer) */
    if (items && w->state == W_BUSY && w->job) arm_deadline(w);
    if (off) {
        memmove(w->buf, w->buf + off, w->len - off);
        w->len -= off;
    }
    if (w->cap > (1u << 20) && w->len < (64u << 10)) { /* give back a big buffer */
        char *p = realloc(w->buf, 128 * 1024);
        if (p) w->buf = p, w->cap = 128 * 1024;
    }
}

/* ---- lifecycle ----------------------------------------------------------- */

static void worker_handle_closed(uv_handle_t *h)
{
    worker *w = h->data;
    if (--w->open_handles > 0) return;
    if (w->shm) munmap(w->shm, w->shm_size);
    free(w->buf);
    free(w);
}

static void worker_unlink(worker *w)
{
    for (worker **pp = &pool; *pp; pp = &(*pp)->next)
        if (*pp == w) {
            *pp = w->next;
            return;
        }
}

/* Signals a fault in the code running raises: a crash of the technique (when
 * the kernel sent them, not someone with kill). */
static bool fault_signal(int sig)
{
    return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGABRT ||
           sig == SIGTRAP || sig == SIGSYS;
}

/* Why w died during a task, as an error code and message (and counted):
 * the deadline; out of worker_memory; a crash of the technique the probe
 * names; or killed from outside (the OOM killer's SIGKILL, an operator's
 * kill: the sender when the worker could see it). */
static const char *describe_death(worker *w, int64_t status, int sig, char *msg, size_t n)
{
    const char *tech = w->shm ? sdk_service_probe_current(&w->shm->probe) : NULL;
    char in[96] = "";
    if (tech) snprintf(in, sizeof in, " (in technique %s)", tech);
    if (w->deadline_hit) {
        snprintf(msg, n, "deadline of %d ms exceeded%s", D.lim.deadline_ms, in);
        return SDK_E_DEADLINE;
    }
    char how[96];
    if (sig)
        snprintf(how, sizeof how, "signal %d, %s", sig, strsignal(sig));
    else
        snprintf(how, sizeof how, "exit status %d", (int)status);
    if (sig == SIGKILL && w->killed_why) {
        snprintf(msg, n, "sudokud killed the worker: %s%s", w->killed_why, in);
        return SDK_E_INTERNAL;
    }
    bool sent = w->shm && w->shm->signo == sig && sig && w->shm->sender_pid != w->proc.pid &&
                w->shm->sender_pid != 0;
    if (w->shm && w->shm->out_of_memory && !sent) {
        crashes++;
        snprintf(msg, n, "%s%s ran out of memory: worker_memory is %zu MiB (%s)",
                 tech ? "plugin " : "the worker", tech ? tech : "", D.lim.worker_memory >> 20, how);
        return SDK_E_MEMORY;
    }
    if (sent || (sig && !fault_signal(sig))) {
        killed_outside++;
        char who[96];
        if (sent)
            snprintf(who, sizeof who, "by pid %d (uid %d)", (int)w->shm->sender_pid,
                     (int)w->shm->sender_uid);
        else if (sig == SIGKILL)
            snprintf(who, sizeof who, "from outside sudokud (the kernel's OOM killer?)");
        else
            snprintf(who, sizeof who, "from outside sudokud");
        snprintf(msg, n, "the worker was killed %s (%s)%s", who, how,
                 tech ? ", not by a crash of its technique" : "");
        if (tech) {
            size_t k = strlen(msg);
            snprintf(msg + k, n - k, "%s", in);
        }
        return SDK_E_KILLED;
    }
    crashes++;
    if (tech)
        snprintf(msg, n, "plugin %s crashed (%s)", tech, how);
    else
        snprintf(msg, n, "worker crashed outside any technique (%s)", how);
    return SDK_E_CRASH;
}

/* The worker died with a task: blame the technique the probe names. */
static void task_failed(worker *w, int64_t status, int sig)
{
    uint32_t begun = w->shm ? __atomic_load_n(&w->shm->begun, __ATOMIC_ACQUIRE) : 0;
    if (w->behind && begun == w->task_seq + 1) {
        /* it ended its task (we did not read the end) and began the piece
         * behind: the task's answers that did not reach us go back to the
         * queue, and the death is the piece's */
        job *ended = w->job;
        int from = w->first + w->got, to = w->first + w->count;
        behind_promote(w);
        if (ended->answered) {
            job_release(ended);
        } else {
            piece_requeue(ended, from, to);
            if (ended->done == ended->n) job_reply_batch(ended);
        }
    }
    behind_requeue(w); /* not begun: whole, to another worker */
    job *j = w->job;
    w->job = NULL;
    char msg[256];
    const char *code = describe_death(w, status, sig, msg, sizeof msg);
    log_warn("worker %u (pid %d): %s", w->id, w->proc.pid, msg);
    if (j->answered) {
        job_release(j);
        return;
    }
    if (j->n < 0) {
        job_reply_error(j, code, msg);
        return;
    }
    /* the worker was on puzzle `item`; the ones before it that did not reach
     * us were answered but not sent: they go back to the queue with the rest */
    int item = w->shm && begun == w->task_seq ? w->shm->item : w->got;
    if (item < w->got || item >= w->count) item = w->got;
    int bad = w->first + item;
    if (bad < w->first + w->count) job_item_error(j, bad, code, msg);
    piece_requeue(j, w->first + w->got, w->first + w->count); /* again, elsewhere */
    if (j->done == j->n) job_reply_batch(j);
}

static worker *spawn_worker(unsigned gen, int config_fd);

static void on_respawn(uv_timer_t *t)
{
    (void)t;
    spawn_missing();
}

static void spawn_missing(void)
{
    if (D.draining) return;
    int live = 0;
    for (worker *w = pool; w; w = w->next)
        if (w->state != W_EXITED && !w->retiring && w->gen == D.generation) live++;
    while (live < D.lim.workers) {
        if (!spawn_worker(D.generation, D.config_fd)) break;
        live++;
    }
}

/* Workers keep dying while they start (the retries go on, slower and
 * slower): when no worker of the generation is up to serve, the requests in
 * the queue get an error now rather than wait for one that may never come. */
#define SPAWN_FAILURES_FAIL 3
static void fail_queue_if_stuck(void)
{
    if (spawn_failures < SPAWN_FAILURES_FAIL) return;
    for (worker *w = pool; w; w = w->next)
        if ((w->state == W_IDLE || w->state == W_BUSY) && !w->retiring && w->gen == D.generation)
            return;
    char msg[128];
    snprintf(msg, sizeof msg, "no worker could start (%d tries in a row; see the daemon's log)",
             spawn_failures);
    while (queue_head) job_reply_error(queue_head, SDK_E_INTERNAL, msg);
}

/* ---- a worker's stderr -------------------------------------------------- *
 * Plugins may print; a worker's own messages go there too. Each line is
 * logged with the worker's id, daemon-wide at most STDERR_BURST lines at
 * once and STDERR_RATE a second after that; what is dropped is counted and
 * said when lines flow again. */
#define STDERR_BURST 100.0
#define STDERR_RATE 10.0
static double err_tokens = STDERR_BURST;
static uint64_t err_refill_ms, err_dropped;

static void stderr_line(worker *w)
{
    uint64_t now = now_ms();
    err_tokens += (double)(now - err_refill_ms) * STDERR_RATE / 1000.0;
    if (err_tokens > STDERR_BURST) err_tokens = STDERR_BURST;
    err_refill_ms = now;
    if (err_tokens < 1.0) {
        err_dropped++;
    } else {
        err_tokens -= 1.0;
        if (err_dropped) {
            log_warn("(%llu lines of worker stderr not logged: more than %.0f a second)",
                     (unsigned long long)err_dropped, STDERR_RATE);
            err_dropped = 0;
        }
        log_warn("worker %u stderr: %.*s", w->id, (int)w->nline, w->line);
    }
    w->nline = 0;
}

static void err_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    static char chunk[4096];
    (void)h, (void)suggested;
    *buf = uv_buf_init(chunk, sizeof chunk);
}

static void err_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
    worker *w = s->data;
    if (n < 0) {
        if (w->nline) stderr_line(w);
        uv_read_stop(s);
        return;
    }
    for (ssize_t i = 0; i < n; i++) {
        char ch = buf->base[i];
        if (ch == '\n') {
            if (w->dropping)
                w->dropping = false, w->nline = 0;
            else
                stderr_line(w);
        } else if (w->dropping) {
            continue;
        } else if (w->nline < sizeof w->line) {
            w->line[w->nline++] = ch;
        } else { /* a long line: its first part is logged, the rest dropped */
            stderr_line(w);
            w->dropping = true;
        }
    }
}

static void worker_exited(uv_process_t *p, int64_t status, int sig)
{
    worker *w = p->data;
    int prev = w->state;
    w->state = W_EXITED;
    uv_timer_stop(&w->timer);
    bool trying = reload_trying(w->gen) && !w->retiring;
    if (w->job && w->cancelled) { /* killed by us: neither a crash nor killed from outside */
        job *j = w->job;
        w->job = NULL;
        log_debug("worker %u (pid %d) stopped: its request was cancelled", w->id, p->pid);
        if (j->answered) job_release(j);
    } else if (w->job) {
        task_failed(w, status, sig);
    } else if (!w->retiring && !D.draining && prev != W_STARTING && !w->cancelled) {
        char msg[256];
        describe_death(w, status, sig, msg, sizeof msg);
        log_warn("worker %u (pid %d) exited without a task: %s", w->id, p->pid, msg);
    } else {
        log_debug("worker %u (pid %d) retired", w->id, p->pid);
    }
    behind_requeue(w); /* killed (cancelled) with a piece behind its task */
    worker_unlink(w);
    uv_close((uv_handle_t *)&w->proc, worker_handle_closed);
    uv_close((uv_handle_t *)&w->pipe, worker_handle_closed);
    uv_close((uv_handle_t *)&w->err, worker_handle_closed);
    uv_close((uv_handle_t *)&w->timer, worker_handle_closed);
    if (trying && prev == W_STARTING) { /* a reload's new worker: its config is refused */
        reload_loader_died(w->gen, w->shm, (int)status, sig);
        return;
    }
    if (D.draining || w->retiring || w->gen != D.generation) {
        dispatch(); /* what went back to the queue, to the serving workers */
        daemon_check_drained();
        return;
    }
    if (prev == W_STARTING) {
        /* died before it was ready: do not spin */
        spawn_failures++;
        uint64_t delay = 100u << (spawn_failures < 6 ? spawn_failures : 6);
        log_err("worker %u died while starting (%s%s%s); next try in %llu ms", w->id,
                w->killed_why ? w->killed_why : "exited",
                w->shm && w->shm->loading[0] ? ", loading " : "",
                w->shm ? (const char *)w->shm->loading : "", (unsigned long long)delay);
        respawn_wanted = 1;
        uv_timer_start(&respawn_timer, on_respawn, delay, 0);
        fail_queue_if_stuck();
        return;
    }
    spawn_missing();
    dispatch();
}

static void on_load_timeout(uv_timer_t *t)
{
    worker *w = t->data;
    if (w->state != W_STARTING || w->retiring || reload_trying(w->gen))
        return; /* reload.c: those */
    log_err("worker %u did not load its config within %d ms; killing it", w->id,
            D.lim.load_timeout_ms);
    worker_kill(w, "it did not load its config in time (load_timeout_ms)");
}

/* The answers' ring a new worker gets (daemon.h): SHM_RING_SIZE, or what
 * SHM_RING_ENV says in KiB (0: none, the socket only; at least 4 KiB). */
static size_t shared_ring_size(void)
{
    const char *e = getenv(SHM_RING_ENV);
    if (!e || !*e) return SHM_RING_SIZE;
    long k = strtol(e, NULL, 10);
    return k <= 0           ? 0
           : k < 4          ? (size_t)4 << 10
           : k > (64 << 10) ? (size_t)64 << 20
                            : (size_t)k << 10;
}

static worker *spawn_worker(unsigned gen, int config_fd)
{
    worker *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->id = next_worker_id++;
    w->gen = gen;
    w->config_fd = config_fd;
    w->state = W_STARTING;
    w->ring_size = shared_ring_size();
    w->shm_size = w->ring_size ? SHM_RING_OFF + w->ring_size : sizeof *w->shm;
    int fd = memfd_create("sudokud-probe", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0 || ftruncate(fd, (off_t)w->shm_size) != 0) {
        log_err("probe memory: %s", strerror(errno));
        if (fd >= 0) close(fd);
        free(w);
        return NULL;
    }
    /* its size fixed: nobody holding the file makes our reads fault */
    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
    void *m = mmap(NULL, w->shm_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED) {
        log_err("probe memory: %s", strerror(errno));
        close(fd);
        free(w);
        return NULL;
    }
    w->shm = m;
    if (w->ring_size) {
        w->piece = (char *)m + SHM_PIECE_OFF;
        w->ring = (char *)m + SHM_RING_OFF;
    }
    w->shm->probe.current = -1;
    uv_pipe_init(D.loop, &w->pipe, 0);
    uv_pipe_init(D.loop, &w->err, 0);
    uv_timer_init(D.loop, &w->timer);
    w->pipe.data = w->err.data = w->timer.data = w->proc.data = w;
    uv_stdio_container_t stdio[5];
    stdio[0].flags = UV_CREATE_PIPE | UV_READABLE_PIPE | UV_WRITABLE_PIPE;
    stdio[0].data.stream = (uv_stream_t *)&w->pipe;
    stdio[1].flags = UV_IGNORE;
    stdio[2].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
    stdio[2].data.stream = (uv_stream_t *)&w->err;
    stdio[3].flags = UV_INHERIT_FD;
    stdio[3].data.fd = fd;
    /* the config the daemon accepted (a sealed copy), never the file: it may
     * have changed since, or turned bad */
    char snap[32];
    snprintf(snap, sizeof snap, "/proc/self/fd/%d", CONFIG_FD);
    stdio[4].flags = UV_INHERIT_FD;
    stdio[4].data.fd = config_fd;
    char *args[] = {D.exe, "--worker",    "--config",
                    snap,  "--log-level", (char *)log_level_name(log_level()),
                    NULL};
    uv_process_options_t o;
    memset(&o, 0, sizeof o);
    o.file = D.exe;
    o.args = args;
    o.exit_cb = worker_exited;
    o.stdio_count = 5;
    o.stdio = stdio;
    int rc = uv_spawn(D.loop, &w->proc, &o);
    close(fd);
    w->proc.data = w;
    w->open_handles = 4;
    if (rc != 0) {
        log_err("cannot start a worker (%s): %s", D.exe, uv_strerror(rc));
        uv_close((uv_handle_t *)&w->proc, worker_handle_closed);
        uv_close((uv_handle_t *)&w->pipe, worker_handle_closed);
        uv_close((uv_handle_t *)&w->err, worker_handle_closed);
        uv_close((uv_handle_t *)&w->timer, worker_handle_closed);
        return NULL;
    }
    w->next = pool;
    pool = w;
    int sndbuf = SOCKET_BUFFER;
    uv_send_buffer_size((uv_handle_t *)&w->pipe, &sndbuf);
    uv_read_start((uv_stream_t *)&w->pipe, worker_alloc, worker_read);
    uv_read_start((uv_stream_t *)&w->err, err_alloc, err_read);
    uv_timer_start(&w->timer, on_load_timeout, (uint64_t)D.lim.load_timeout_ms, 0);
    log_debug("worker %u started (pid %d, generation %u)", w->id, w->proc.pid, w->gen);
    return w;
}

workers_submit_result workers_submit(conn *c, uint32_t msgid, const char *method,
                                     const msgpack_object *params)
{
    job *j = job_new(c, msgid, method, params);
    if (!j) return WORKERS_OUT_OF_MEMORY;
    if (!job_admit(j)) return WORKERS_OVER_BUDGET;
    job_submit(j);
    return WORKERS_SUBMITTED;
}

bool workers_start(void)
{
    if (!respawn_timer_init) {
        uv_timer_init(D.loop, &respawn_timer);
        respawn_timer_init = true;
    }
    spawn_missing();
    return pool != NULL;
}

void workers_try_generation(unsigned gen, int n, int config_fd)
{
    for (int i = 0; i < n; i++)
        if (!spawn_worker(gen, config_fd)) {
            reload_worker_failed(gen, SDK_E_INTERNAL, "cannot start a worker");
            return;
        }
}

const char *workers_loading(unsigned gen)
{
    for (worker *w = pool; w; w = w->next)
        if (w->gen == gen && w->state == W_STARTING && w->shm && w->shm->loading[0])
            return (const char *)w->shm->loading;
    return "";
}

void workers_kill_generation(unsigned gen)
{
    for (worker *w = pool; w; w = w->next)
        if (w->gen == gen && w->state != W_EXITED) {
            w->retiring = true;
            worker_kill(w, "its generation was refused");
        }
}

void workers_roll(void)
{
    for (worker *w = pool; w; w = w->next) {
        if (w->gen == D.generation || w->retiring) continue;
        w->retiring = true;
        if (w->state == W_IDLE || w->state == W_STARTING) uv_process_kill(&w->proc, SIGTERM);
    }
    spawn_missing();
    dispatch();
}

void workers_stop_all(void)
{
    reload_cancel("sudokud is shutting down");
    timeouts_close();
    if (respawn_timer_init) {
        respawn_timer_init = false;
        uv_timer_stop(&respawn_timer);
        uv_close((uv_handle_t *)&respawn_timer, NULL);
    }
    for (worker *w = pool; w; w = w->next) {
        w->retiring = true;
        if (w->state != W_EXITED) uv_process_kill(&w->proc, SIGTERM);
    }
}

int workers_jobs(void)
{
    return njobs;
}

void workers_get_stats(workers_stats *s)
{
    memset(s, 0, sizeof *s);
    for (worker *w = pool; w; w = w->next) {
        s->workers += w->state == W_IDLE || w->state == W_BUSY;
        s->busy += w->state == W_BUSY;
    }
    for (job *j = queue_head; j; j = j->qnext) s->queued++;
    s->jobs = njobs;
    s->crashes = crashes;
    s->killed = killed_outside;
}
