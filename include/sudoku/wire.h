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
#include "sudoku/format.h"
#include "sudoku/step.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SDK_E_METHOD "unknown-method"
#define SDK_E_TOO_LARGE "too-large"

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
/* Bytes buffered but not yet returned as messages. */
size_t sdk_wire_reader_pending(const sdk_wire_reader *r);
/* What the incomplete message read so far costs (0: between messages). */
size_t sdk_wire_reader_partial(const sdk_wire_reader *r);
/* Between messages, give back a buffer grown past keep bytes (after a big
 * message). Objects returned earlier become invalid. */
void sdk_wire_reader_trim(sdk_wire_reader *r, size_t keep);

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

/* ---- writing ------------------------------------------------------------ */

void sdk_wire_str(msgpack_packer *pk, const char *s);
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

/* A step as PROTOCOL.md describes it. */
void sdk_wire_pack_step(msgpack_packer *pk, const sdk_step *s);
/* "base", "cover", ... for an sdk_role; "none" when unknown. */
const char *sdk_wire_role_name(int role);
/* A chain node as "r2c2/+1", "r2c46/-1". */
char *sdk_wire_node_text(const sdk_node *nd, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
