/* rpc.h - sudoctl's MessagePack-RPC client over a Unix stream socket.
 *
 * Pipelined: rpc_send() queues a request and returns its msgid at once; many
 * requests may be in flight; rpc_wait() drives the socket (writes what is
 * queued, reads what arrives) and hands back one complete message at a time,
 * responses in whatever order the daemon sends them. The caller matches them
 * to its requests by msgid.
 */
#ifndef SUDOCTL_RPC_H
#define SUDOCTL_RPC_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <msgpack.h>

#include "sudoku/wire.h"

/* The largest message accepted from the daemon (a batch's answer). */
#define RPC_MAX_MESSAGE ((size_t)1 << 30)

typedef struct rpc_conn rpc_conn;

/* A received message. For a response: kind 1, msgid, error and result (type
 * NIL when absent). For a notification: kind 2, method in `method`, params in
 * `result`. The objects live in `up` until rpc_msg_free(). */
typedef struct rpc_msg {
    int kind;
    uint32_t msgid;
    msgpack_object error, result;
    const char *method; /* notification name (not NUL-terminated: method_len) */
    size_t method_len;
    msgpack_unpacked up;
    /* With rpc_read_compact: a response {results: [[solution, guesses],
     * ...]} (solve's `compact` answers, every one of them) read without
     * building objects: n_compact answers, answer i the array of 2 at
     * compact + compact_at[i] (rpc_msg_compact reads it; result is NIL
     * then, and rpc_msg_result gives each as an object). They are read
     * where they arrived, in the connection's buffer, which the next
     * rpc_wait may reuse: a message kept longer is made to own its bytes
     * first (rpc_msg_keep). */
    const char *compact;
    uint32_t *compact_at;
    char *compact_own; /* the bytes compact points into, when kept */
    uint32_t n_compact;
} rpc_msg;

/* Connect to the socket at path. NULL on failure with errno set. */
rpc_conn *rpc_connect(const char *path);
void rpc_close(rpc_conn *c);

/* Queue a request. params is a packed msgpack map (the one element of the
 * params array); NULL sends an empty map. Returns the msgid. */
uint32_t rpc_send(rpc_conn *c, const char *method, const char *params, size_t len);
/* The same, the caller packing the params map next with *pk, straight into
 * the queue (no copy). */
uint32_t rpc_send_packer(rpc_conn *c, const char *method, msgpack_packer *pk);
/* Queue len bytes at buf as they are (a part of the message being packed
 * with pk, which rpc_send_packer made): they are sent from there, not
 * copied, so they must stay unchanged until the request is answered (or
 * the connection closed). */
void rpc_send_lent(msgpack_packer *pk, const char *buf, size_t len);
/* Does the queue still send from the len bytes at buf (lent, not written)? */
bool rpc_lends(const rpc_conn *c, const char *buf, size_t len);
/* The lender's buffers are going away: whatever is still queued is dropped
 * (the connection then fails: a message may be cut short). */
void rpc_drop_lent(rpc_conn *c);
/* Bytes queued but not written yet. */
size_t rpc_pending_out(const rpc_conn *c);

/* Set by a signal handler (SIGINT): waits return -2 at once. */
extern volatile sig_atomic_t rpc_interrupted;

/* Wait for the next message, writing queued bytes meanwhile. timeout_ms < 0
 * waits forever. Returns 1 with *m filled (free it with rpc_msg_free), 0 on
 * timeout, -1 when the connection failed or closed (rpc_error() says why),
 * -2 when rpc_interrupted was set. */
int rpc_wait(rpc_conn *c, rpc_msg *m, int timeout_ms);
/* Write queued bytes without waiting for a message (non-blocking, a bounded
 * wait of timeout_ms). Returns -1 on failure. */
int rpc_flush(rpc_conn *c, int timeout_ms);
const char *rpc_error(const rpc_conn *c);

void rpc_msg_free(rpc_msg *m);

/* Read answers made only of compact solve results without msgpack's object
 * tree (rpc_msg.compact): a batch of easy puzzles' answers read at a
 * fraction of the cost. Off by default. */
void rpc_read_compact(rpc_conn *c, bool on);
/* Compact answer i of m (i < m->n_compact): the solution's 81 digits (not
 * NUL-terminated) and the guesses. */
void rpc_msg_compact(const rpc_msg *m, uint32_t i, const char **solution, uint64_t *guesses);
/* m is kept past the next rpc_wait: its compact answers are copied out of
 * the connection's buffer (nothing to do for other messages). False when
 * out of memory (m then has no compact answers left). */
bool rpc_msg_keep(rpc_msg *m);
/* Result i of a response's results array, or NULL when it has none; for a
 * compact answer built in *tmp (3 objects: the array and its two items). */
const msgpack_object *rpc_msg_result(const rpc_msg *m, uint32_t i, msgpack_object tmp[3]);

/* Synchronous call: send and wait for its response (notifications and other
 * responses are dropped). Returns 1, 0 (timeout), -1 (connection). */
int rpc_call(rpc_conn *c, const char *method, const char *params, size_t len, rpc_msg *m,
             int timeout_ms);

#endif
