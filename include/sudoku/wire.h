/* sudoku/wire.h - the MessagePack-RPC codec shared by sudokud and sudoctl.
 *
 * Framing (a streaming reader with a message size limit), parsing the three
 * msgpack-rpc message kinds, map lookups with types checked, and packing
 * requests, responses, errors and steps exactly as docs/PROTOCOL.md says.
 * Every decoding function fills an sdk_error (code + message) on failure; none
 * trusts its input.
 */
#ifndef SUDOKU_WIRE_H
#define SUDOKU_WIRE_H

#include <msgpack.h>
#include "sudoku/error.h"
#include "sudoku/format.h"
#include "sudoku/step.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { SDK_RPC_REQUEST = 0, SDK_RPC_RESPONSE = 1, SDK_RPC_NOTIFY = 2 };

/* ---- framing ------------------------------------------------------------ */

/* The meter (wire_meter.c): what a message costs to parse, counted from its
 * bytes as they arrive, before msgpack-c allocates anything for them: its
 * bytes, the lengths it claims, one msgpack_object per array element and a
 * msgpack_object_kv per map entry. Nesting is bounded too. */
#define SDK_WIRE_MAX_DEPTH 32
typedef struct sdk_wire_meter {
    uint64_t left[SDK_WIRE_MAX_DEPTH]; /* elements still due per open container */
    int depth;
    uint8_t kind, need, nhead; /* a header being read: type byte, bytes still due */
    uint8_t head[8];
    uint64_t skip;    /* body bytes still to pass */
    size_t cost;      /* of the message being read */
    size_t last_cost; /* of the last whole message */
    bool in_msg;      /* a message has begun and is not whole */
    bool broken;      /* a byte that is never msgpack: the parser will say so */
} sdk_wire_meter;

void sdk_wire_meter_reset(sdk_wire_meter *m);
/* Meter n more bytes: *complete counts the messages that became whole. -1
 * with err (too-large, or bad-request for nesting) when a message passes max. */
int sdk_wire_meter_scan(sdk_wire_meter *m, const void *data, size_t n, size_t max, size_t *complete,
                        sdk_error *err);
/* What one whole message costs (SIZE_MAX when data is not one whole message). */
size_t sdk_wire_message_cost(const void *data, size_t n);

/* A streaming reader: bytes in (in any pieces), whole messages out. Its
 * limit (max) is on the meter's count: no message can make it hold much more
 * than that (the buffer grows by doubling), whatever its headers claim. */
typedef struct sdk_wire_reader {
    msgpack_unpacker up;
    msgpack_unpacked msg; /* the last message returned by next() */
    size_t max;           /* largest message accepted, as metered */
    bool ok;
    sdk_wire_meter meter;
    size_t ready; /* whole messages metered, not yet returned */
    bool failed;  /* the meter refused a message: fail after the ready ones */
    sdk_error fail;
    /* next() reads whole messages with sdk_wire_unpack (fast_zone holds
     * their objects): set by a caller that is done with a message before it
     * reads more (space, commit, feed), as the strings point into the
     * buffer without holding it; take() reads with msgpack's parser */
    bool fast;
    bool fast_last; /* the last next() read its message fast (hand_over may take it) */
    msgpack_zone *fast_zone;
    msgpack_object fast_msg;
} sdk_wire_reader;

bool sdk_wire_reader_init(sdk_wire_reader *r, size_t max_message);
void sdk_wire_reader_free(sdk_wire_reader *r);
/* Room to read into without copying: returns a buffer of at least `want` bytes
 * (its real size in *len), or NULL when out of memory. Then commit(n). */
char *sdk_wire_reader_space(sdk_wire_reader *r, size_t want, size_t *len);
void sdk_wire_reader_commit(sdk_wire_reader *r, size_t n);
/* Copy bytes in. False when out of memory. */
bool sdk_wire_reader_feed(sdk_wire_reader *r, const void *data, size_t n);
/* The next whole message: 1 with *obj (valid until the next call to next() or
 * free()), 0 when more bytes are needed, -1 on an error the stream cannot
 * recover from (err: bad-request "not msgpack ..." or too-large). */
int sdk_wire_reader_next(sdk_wire_reader *r, const msgpack_object **obj, sdk_error *err);
/* The same, but the message becomes the caller's: it lives in *out (which
 * must be initialised) until msgpack_unpacked_destroy(out). */
int sdk_wire_reader_take(sdk_wire_reader *r, msgpack_unpacked *out, sdk_error *err);
/* One msgpack object at p + *off (len bytes in all) into o, its objects
 * in z, as msgpack_unpack makes it (strings and binaries point into p), and
 * *off past it; an array whose elements are all strings (a batch's
 * puzzles) is read by a loop over their heads, a tenth of the generic
 * parser's work. False when the bytes are not one whole object (nothing
 * meaningful in o then). */
bool sdk_wire_unpack(const char *p, size_t len, size_t *off, msgpack_zone *z, msgpack_object *o);
/* Bytes buffered but not yet returned as messages. */
size_t sdk_wire_reader_pending(const sdk_wire_reader *r);
/* What the incomplete message read so far costs (0: between messages). */
size_t sdk_wire_reader_partial(const sdk_wire_reader *r);
/* Between messages, give back a buffer grown past keep bytes (after a big
 * message). Objects returned earlier become invalid. */
void sdk_wire_reader_trim(sdk_wire_reader *r, size_t keep);
/* The bytes the reader's buffer holds room for (used or not). */
size_t sdk_wire_reader_capacity(const sdk_wire_reader *r);
/* Right after next() returned a message read fast: the buffer that holds it
 * becomes the caller's, in *held, so a big message's bytes are kept without
 * a copy. The objects next() returned stay valid (until next() is called
 * again, as before; the bytes they point to, until held is destroyed). The
 * caller frees it with msgpack_unpacker_destroy(held) and touches it no
 * other way. The reader goes on in a new buffer as large (no regrowing for
 * the next message like it), holding the bytes that came after the
 * message. Returns the size of the buffer handed over; 0 when there is none
 * to hand over (the message was not read fast) or no memory: then nothing
 * changed. */
size_t sdk_wire_reader_hand_over(sdk_wire_reader *r, msgpack_unpacker *held);

/* ---- messages ----------------------------------------------------------- */

typedef struct sdk_rpc_msg {
    int type;           /* SDK_RPC_* */
    uint32_t msgid;     /* request, response */
    const char *method; /* request, notification (not NUL-terminated) */
    uint32_t method_len;
    const msgpack_object *params; /* the params map (NULL when params is []) */
    const msgpack_object *error;  /* response: NULL when nil */
    const msgpack_object *result; /* response */
} sdk_rpc_msg;

/* Check the shape of a msgpack-rpc message. Requests need params to be an
 * array of at most one map. On failure err says why; *msgid_known tells
 * whether m->msgid could be read (so an error response can carry it). */
bool sdk_rpc_parse(const msgpack_object *o, sdk_rpc_msg *m, bool *msgid_known, sdk_error *err);
bool sdk_rpc_method_is(const sdk_rpc_msg *m, const char *name);

/* ---- reading maps ------------------------------------------------------- */

/* The value of key in a map (NULL when absent or o is not a map). */
const msgpack_object *sdk_wire_get(const msgpack_object *map, const char *key);
bool sdk_wire_str_is(const msgpack_object *o, const char *s);
/* Typed lookups. Absent (or nil) keys leave *out as it is and return true;
 * a present key of the wrong type returns false with a bad-request error
 * naming the key. */
bool sdk_wire_get_bool(const msgpack_object *map, const char *key, bool *out, sdk_error *err);
bool sdk_wire_get_int(const msgpack_object *map, const char *key, long lo, long hi, long *out,
                      sdk_error *err);
/* A string: *out points into the message (not NUL-terminated), *len its size. */
bool sdk_wire_get_str(const msgpack_object *map, const char *key, const char **out, uint32_t *len,
                      sdk_error *err);
/* Copy a string object into buf (NUL-terminated); false when not a string
 * or longer than n - 1. */
bool sdk_wire_copy_str(const msgpack_object *o, char *buf, size_t n);

/* Lenient reads for showing a result, where a missing or odd value is shown
 * as a default rather than refused. A number of any msgpack numeric type, or
 * def when o is NULL or not a number: */
double sdk_wire_num(const msgpack_object *o, double def);
long long sdk_wire_int(const msgpack_object *o, long long def);
/* A boolean (or a non-zero unsigned integer), or def. */
bool sdk_wire_bool(const msgpack_object *o, bool def);
/* The size of an array or a map, else 0. */
size_t sdk_wire_len(const msgpack_object *o);
/* A string object copied into buf (NUL-terminated, cut at n - 1 bytes); ""
 * when o is NULL or not a string. Returns buf. */
const char *sdk_wire_text(const msgpack_object *o, char *buf, size_t n);

/* ---- writing ------------------------------------------------------------ */

void sdk_wire_str(msgpack_packer *pk, const char *s);
/* The head msgpack gives a string of len bytes (fixstr, str 8/16/32), the
 * same bytes msgpack_pack_str writes: into h, its length returned (1-5).
 * For code that lays strings out itself, without a packer. */
size_t sdk_wire_str_head(unsigned char h[5], uint32_t len);
void sdk_wire_kv_str(msgpack_packer *pk, const char *key, const char *val);
void sdk_wire_kv_int(msgpack_packer *pk, const char *key, long val);
void sdk_wire_kv_bool(msgpack_packer *pk, const char *key, bool val);
/* A difficulty in tenths as a float (32 -> 3.2). */
void sdk_wire_kv_tenths(msgpack_packer *pk, const char *key, int tenths);
/* {"code": ..., "message": ...} */
void sdk_wire_pack_error(msgpack_packer *pk, const sdk_error *e);

/* [0, msgid, method, ...]: the caller then packs the params array. */
void sdk_wire_request_head(msgpack_packer *pk, uint32_t msgid, const char *method);
/* [1, msgid, nil, ...]: the caller then packs the result. */
void sdk_wire_response_head(msgpack_packer *pk, uint32_t msgid);
/* [1, msgid, {code, message}, nil] */
void sdk_wire_response_error(msgpack_packer *pk, uint32_t msgid, const sdk_error *e);
/* [2, method, ...]: the caller then packs the params array. */
void sdk_wire_notify_head(msgpack_packer *pk, const char *method);

/* ---- steps -------------------------------------------------------------- */

/* A step as PROTOCOL.md describes it. Chain nodes are written by
 * sdk_node_text (links.h), "r2c2/+1", "r2c46/-1". */
void sdk_wire_pack_step(msgpack_packer *pk, const sdk_step *s);

/* A step read back from the wire. The technique is known by its id and name
 * only (step.tech is NULL); the text is the one the daemon wrote. */
typedef struct sdk_wire_step {
    sdk_step step;
    char technique[64];
    char name[128];
} sdk_wire_step;

/* The inverse of sdk_wire_pack_step: every field the packer writes is read
 * back (the difficulty to tenths, candidates from "r1c2=5" / "r3c2<>7",
 * nodes with sdk_node_parse). Keys it does not know are ignored and so are
 * role and link-kind names it does not know (read as "none" and "cell"), so
 * that an older client still reads a newer daemon; a value of the wrong type
 * or out of range fails with a bad-request error naming the field. */
bool sdk_wire_unpack_step(const msgpack_object *o, sdk_wire_step *out, sdk_error *err);

/* The role table: "base", "cover", ... for an sdk_role ("none" when unknown)
 * and back (-1 when unknown; "endo-fin" is read as "endofin"). */
const char *sdk_wire_role_name(int role);
int sdk_wire_role_parse(const char *name, size_t len);
/* "r1c2" (or "R1C2") at the start of s: the cell 0..80, else -1. */
int sdk_wire_cell_parse(const char *s, size_t len);
/* The same from a wire value: a cell as an integer 0..80 or "r1c2"; a
 * candidate "r1c2=5" (*place true) or "r3c2<>7"; a role as its name or its
 * number. -1 / false / 0 (none) when o is none of these. */
int sdk_wire_cell(const msgpack_object *o);
bool sdk_wire_cand(const msgpack_object *o, int *cell, int *digit, bool *place);
int sdk_wire_role(const msgpack_object *o);

/* ---- the heap ----------------------------------------------------------- */

/* Make the next `bytes` of malloc's heap eligible for transparent huge
 * pages (wire_heap.c), before a batch's big buffers are allocated there:
 * a few page faults rather than one per 4 KiB. The caller keeps glibc's
 * mmap threshold above bytes + 2 MiB and its trim threshold above that
 * (M_MMAP_THRESHOLD, M_TRIM_THRESHOLD). Nothing more while one is held;
 * without huge pages it does nothing. */
void sdk_wire_heap_reserve(size_t bytes);
/* Give the reservation back (the batch is over). */
void sdk_wire_heap_release(void);

/* ---- the socket --------------------------------------------------------- */

/* Where a daemon listens when no --socket is given: the per-user socket
 * $XDG_RUNTIME_DIR/sudokud.sock, or the system-wide /run/sudokud/sudokud.sock
 * when system is set or XDG_RUNTIME_DIR is unset or empty. Returns out. */
#define SDK_WIRE_SYSTEM_SOCKET "/run/sudokud/sudokud.sock"
char *sdk_wire_default_socket(bool system, char *out, size_t n);
/* The per-user private folder of the default socket when there is no
 * XDG_RUNTIME_DIR: /tmp/sudokud-UID ($SUDOKUD_TMPDIR instead of /tmp). */
char *sdk_wire_private_dir(char *out, size_t n);

#ifdef __cplusplus
}
#endif
#endif
