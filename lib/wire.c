/* wire.c - the MessagePack-RPC codec shared by sudokud and sudoctl: framing,
 * message shapes, typed map lookups, packing of responses and steps and
 * unpacking steps again, the role table and the default socket path. */
#include "sudoku/wire.h"
#include "sudoku/links.h"
#include "sudoku/technique.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- framing ------------------------------------------------------------ */

bool sdk_wire_reader_init(sdk_wire_reader *r, size_t max_message)
{
    memset(r, 0, sizeof *r);
    r->max = max_message ? max_message : (size_t)16 << 20;
    sdk_wire_meter_reset(&r->meter);
    msgpack_unpacked_init(&r->msg);
    r->ok = msgpack_unpacker_init(&r->up, 16 * 1024);
    return r->ok;
}

void sdk_wire_reader_free(sdk_wire_reader *r)
{
    if (r->fast_zone) msgpack_zone_free(r->fast_zone);
    r->fast_zone = NULL;
    if (!r->ok) return;
    msgpack_unpacked_destroy(&r->msg);
    msgpack_unpacker_destroy(&r->up);
    r->ok = false;
}

char *sdk_wire_reader_space(sdk_wire_reader *r, size_t want, size_t *len)
{
    r->fast_last = false; /* the buffer may move */
    if (!msgpack_unpacker_reserve_buffer(&r->up, want ? want : 4096)) return NULL;
    *len = msgpack_unpacker_buffer_capacity(&r->up);
    return msgpack_unpacker_buffer(&r->up);
}

void sdk_wire_reader_commit(sdk_wire_reader *r, size_t n)
{
    /* meter the new bytes before the parser may see them */
    if (!r->failed && sdk_wire_meter_scan(&r->meter, msgpack_unpacker_buffer(&r->up), n, r->max,
                                          &r->ready, &r->fail) < 0)
        r->failed = true;
    msgpack_unpacker_buffer_consumed(&r->up, n);
}

size_t sdk_wire_reader_partial(const sdk_wire_reader *r)
{
    return r->meter.in_msg ? r->meter.cost : 0;
}

void sdk_wire_reader_trim(sdk_wire_reader *r, size_t keep)
{
    if (!r->ok || r->meter.in_msg || r->ready || r->failed || sdk_wire_reader_pending(r) ||
        msgpack_unpacker_buffer_capacity(&r->up) + r->up.used <= keep)
        return;
    size_t max = r->max;
    bool fast = r->fast;
    sdk_wire_reader_free(r);
    sdk_wire_reader_init(r, max);
    r->fast = fast;
}

size_t sdk_wire_reader_capacity(const sdk_wire_reader *r)
{
    return r->ok ? msgpack_unpacker_buffer_capacity(&r->up) + r->up.used : 0;
}

size_t sdk_wire_reader_hand_over(sdk_wire_reader *r, msgpack_unpacker *held)
{
    if (!r->ok || !r->fast_last) return 0;
    size_t size = sdk_wire_reader_capacity(r);
    size_t rest = sdk_wire_reader_pending(r);
    /* the old unpacker moves out whole: msgpack_unpacker_destroy frees its
     * zone, context and (its count dropping to 0) buffer, and reads nothing
     * else of it; a new one is made in place, where its context points */
    *held = r->up;
    if (!msgpack_unpacker_init(&r->up, size)) {
        r->up = *held;
        return 0;
    }
    if (!msgpack_unpacker_reserve_buffer(&r->up, rest)) { /* rest < size: not met */
        msgpack_unpacker_destroy(&r->up);
        r->up = *held;
        return 0;
    }
    if (rest) memcpy(msgpack_unpacker_buffer(&r->up), held->buffer + held->off, rest);
    msgpack_unpacker_buffer_consumed(&r->up, rest);
    r->fast_last = false;
    return size;
}

bool sdk_wire_reader_feed(sdk_wire_reader *r, const void *data, size_t n)
{
    size_t room;
    char *p = sdk_wire_reader_space(r, n, &room);
    if (!p) return false;
    memcpy(p, data, n);
    sdk_wire_reader_commit(r, n);
    return true;
}

int sdk_wire_reader_next(sdk_wire_reader *r, const msgpack_object **obj, sdk_error *err)
{
    /* the parser only sees what the meter let through: whole messages, and
     * the metered start of the next (or a byte it will call not msgpack) */
    r->fast_last = false;
    if (r->ready == 0 && !r->meter.broken) {
        if (!r->failed) return 0;
        *err = r->fail;
        return -1;
    }
    /* a whole message at the front, and the parser between messages (its
     * context fresh): read it with sdk_wire_unpack, and pass the parser
     * over it; else (a message it does not take) msgpack's parser */
    if (r->fast && r->ready && r->up.parsed == 0) {
        if (r->fast_zone)
            msgpack_zone_clear(r->fast_zone);
        else
            r->fast_zone = msgpack_zone_new(MSGPACK_ZONE_CHUNK_SIZE);
        size_t at = r->up.off;
        if (r->fast_zone &&
            sdk_wire_unpack(r->up.buffer, r->up.used, &at, r->fast_zone, &r->fast_msg)) {
            r->up.off = at;
            r->ready--;
            r->fast_last = true;
            *obj = &r->fast_msg;
            return 1;
        }
    }
    msgpack_unpack_return rc = msgpack_unpacker_next(&r->up, &r->msg);
    switch (rc) {
    case MSGPACK_UNPACK_SUCCESS:
    case MSGPACK_UNPACK_EXTRA_BYTES:
        if (r->ready) r->ready--;
        *obj = &r->msg.data;
        return 1;
    case MSGPACK_UNPACK_CONTINUE:
        return 0;
    case MSGPACK_UNPACK_NOMEM_ERROR:
        sdk_error_set(err, SDK_E_TOO_LARGE, "message needs more memory than available");
        return -1;
    default:
        sdk_error_set(err, SDK_E_REQUEST, "not msgpack: parse error near byte %zu",
                      msgpack_unpacker_parsed_size(&r->up));
        return -1;
    }
}

int sdk_wire_reader_take(sdk_wire_reader *r, msgpack_unpacked *out, sdk_error *err)
{
    const msgpack_object *obj;
    bool fast = r->fast; /* a message handed over holds its buffer: msgpack's parser */
    r->fast = false;
    int rc = sdk_wire_reader_next(r, &obj, err);
    r->fast = fast;
    if (rc != 1) return rc;
    /* hand over the message's zone: the reader starts its next one afresh */
    msgpack_unpacked_destroy(out);
    *out = r->msg;
    msgpack_unpacked_init(&r->msg);
    return 1;
}

size_t sdk_wire_reader_pending(const sdk_wire_reader *r)
{
    return r->up.used - r->up.off;
}

/* ---- unpacking with arrays of strings read fast -------------------------- */

/* A big-endian count of k bytes at u. */
static uint32_t be_count(const unsigned char *u, int k)
{
    uint32_t n = 0;
    for (int i = 0; i < k; i++) n = n << 8 | u[i];
    return n;
}

/* An array or map header at u[at] (len bytes in all): its element count
 * and header size; 0 when it is no such header. */
static int container_head(const unsigned char *u, size_t len, size_t at, bool map, uint32_t *n)
{
    unsigned char b = u[at], fix = map ? 0x80 : 0x90, c16 = map ? 0xde : 0xdc;
    if ((b & 0xf0) == fix) return *n = b & 15, 1;
    if (b == c16 && len - at >= 3) return *n = be_count(u + at + 1, 2), 3;
    if (b == c16 + 1 && len - at >= 5) return *n = be_count(u + at + 1, 4), 5;
    return 0;
}

/* n strings from p + *off: true with their objects in e and *off past
 * them; false (*off unchanged) when one is not a whole string. */
static bool string_run(const char *p, size_t len, size_t *off, uint32_t n, msgpack_object *e)
{
    const unsigned char *u = (const unsigned char *)p;
    size_t at = *off;
    for (uint32_t i = 0; i < n; i++) {
        if (at >= len) return false;
        unsigned char b = u[at];
        uint32_t l;
        if ((b & 0xe0) == 0xa0)
            l = b & 31, at += 1;
        else if (b == 0xd9 && len - at >= 2)
            l = u[at + 1], at += 2;
        else if (b == 0xda && len - at >= 3)
            l = be_count(u + at + 1, 2), at += 3;
        else if (b == 0xdb && len - at >= 5)
            l = be_count(u + at + 1, 4), at += 5;
        else
            return false;
        if (l > len - at) return false;
        e[i].type = MSGPACK_OBJECT_STR;
        e[i].via.str.size = l;
        e[i].via.str.ptr = p + at;
        at += l;
    }
    *off = at;
    return true;
}

static bool unpack_at(const char *p, size_t len, size_t *off, msgpack_zone *z, msgpack_object *o,
                      int depth)
{
    const unsigned char *u = (const unsigned char *)p;
    size_t at = *off;
    uint32_t n;
    int h;
    if (at >= len || depth > SDK_WIRE_MAX_DEPTH) return false;
    if ((h = container_head(u, len, at, false, &n))) { /* an array */
        at += (size_t)h;
        if (n > len - at) return false; /* an element takes a byte at least */
        msgpack_object *e = n ? msgpack_zone_malloc(z, sizeof *e * n) : NULL;
        if (n && !e) return false;
        if (!string_run(p, len, &at, n, e))
            for (uint32_t i = 0; i < n; i++)
                if (!unpack_at(p, len, &at, z, &e[i], depth + 1)) return false;
        o->type = MSGPACK_OBJECT_ARRAY;
        o->via.array.size = n;
        o->via.array.ptr = e;
    } else if ((h = container_head(u, len, at, true, &n))) { /* a map */
        at += (size_t)h;
        if (n > (len - at) / 2) return false;
        msgpack_object_kv *kv = n ? msgpack_zone_malloc(z, sizeof *kv * n) : NULL;
        if (n && !kv) return false;
        for (uint32_t i = 0; i < n; i++)
            if (!unpack_at(p, len, &at, z, &kv[i].key, depth + 1) ||
                !unpack_at(p, len, &at, z, &kv[i].val, depth + 1))
                return false;
        o->type = MSGPACK_OBJECT_MAP;
        o->via.map.size = n;
        o->via.map.ptr = kv;
    } else { /* anything else: msgpack's own parser, one object */
        msgpack_unpack_return rc = msgpack_unpack(p, len, &at, z, o);
        if (rc != MSGPACK_UNPACK_SUCCESS && rc != MSGPACK_UNPACK_EXTRA_BYTES) return false;
    }
    *off = at;
    return true;
}

bool sdk_wire_unpack(const char *p, size_t len, size_t *off, msgpack_zone *z, msgpack_object *o)
{
    return unpack_at(p, len, off, z, o, 0);
}

/* ---- messages ----------------------------------------------------------- */

static bool get_uint32(const msgpack_object *o, uint32_t *out)
{
    if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 > UINT32_MAX) return false;
    *out = (uint32_t)o->via.u64;
    return true;
}

bool sdk_rpc_parse(const msgpack_object *o, sdk_rpc_msg *m, bool *msgid_known, sdk_error *err)
{
    memset(m, 0, sizeof *m);
    *msgid_known = false;
    if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size < 3) {
        sdk_error_set(err, SDK_E_REQUEST, "a message must be an array [type, ...]");
        return false;
    }
    const msgpack_object *a = o->via.array.ptr;
    uint32_t n = o->via.array.size;
    if (a[0].type != MSGPACK_OBJECT_POSITIVE_INTEGER || a[0].via.u64 > 2) {
        sdk_error_set(err, SDK_E_REQUEST, "message type must be 0, 1 or 2");
        return false;
    }
    m->type = (int)a[0].via.u64;
    const msgpack_object *method = NULL, *params = NULL;
    if (m->type == SDK_RPC_NOTIFY) {
        if (n != 3) {
            sdk_error_set(err, SDK_E_REQUEST, "a notification is [2, method, params]");
            return false;
        }
        method = &a[1];
        params = &a[2];
    } else {
        if (n != 4) {
            sdk_error_set(err, SDK_E_REQUEST, "a %s is an array of 4",
                          m->type == SDK_RPC_REQUEST ? "request" : "response");
            return false;
        }
        if (!get_uint32(&a[1], &m->msgid)) {
            sdk_error_set(err, SDK_E_REQUEST, "msgid must be an unsigned 32-bit integer");
            return false;
        }
        *msgid_known = true;
        if (m->type == SDK_RPC_RESPONSE) {
            m->error = a[2].type == MSGPACK_OBJECT_NIL ? NULL : &a[2];
            m->result = &a[3];
            if (m->error && m->error->type != MSGPACK_OBJECT_MAP) {
                sdk_error_set(err, SDK_E_REQUEST, "response error must be nil or a map");
                return false;
            }
            return true;
        }
        method = &a[2];
        params = &a[3];
    }
    if (method->type != MSGPACK_OBJECT_STR || method->via.str.size == 0) {
        sdk_error_set(err, SDK_E_REQUEST, "method must be a non-empty string");
        return false;
    }
    m->method = method->via.str.ptr;
    m->method_len = method->via.str.size;
    if (params->type == MSGPACK_OBJECT_NIL) return true;
    if (params->type == MSGPACK_OBJECT_MAP) { /* tolerated: a bare map */
        m->params = params;
        return true;
    }
    if (params->type != MSGPACK_OBJECT_ARRAY || params->via.array.size > 1) {
        sdk_error_set(err, SDK_E_REQUEST, "params must be an array holding one map");
        return false;
    }
    if (params->via.array.size == 1) {
        const msgpack_object *p = &params->via.array.ptr[0];
        if (p->type != MSGPACK_OBJECT_MAP) {
            sdk_error_set(err, SDK_E_REQUEST, "params must be an array holding one map");
            return false;
        }
        m->params = p;
    }
    return true;
}

bool sdk_rpc_method_is(const sdk_rpc_msg *m, const char *name)
{
    size_t n = strlen(name);
    return m->method && m->method_len == n && memcmp(m->method, name, n) == 0;
}

/* ---- reading maps ------------------------------------------------------- */

bool sdk_wire_str_is(const msgpack_object *o, const char *s)
{
    if (!o || o->type != MSGPACK_OBJECT_STR) return false;
    /* no strlen first: most keys a lookup passes differ in the first bytes */
    const char *p = o->via.str.ptr;
    uint32_t n = o->via.str.size;
    for (uint32_t i = 0; i < n; i++)
        if (!s[i] || s[i] != p[i]) return false;
    return s[n] == 0;
}

const msgpack_object *sdk_wire_get(const msgpack_object *map, const char *key)
{
    if (!map || map->type != MSGPACK_OBJECT_MAP) return NULL;
    for (uint32_t i = 0; i < map->via.map.size; i++)
        if (sdk_wire_str_is(&map->via.map.ptr[i].key, key)) return &map->via.map.ptr[i].val;
    return NULL;
}

static const msgpack_object *present(const msgpack_object *map, const char *key)
{
    const msgpack_object *v = sdk_wire_get(map, key);
    return v && v->type != MSGPACK_OBJECT_NIL ? v : NULL;
}

bool sdk_wire_get_bool(const msgpack_object *map, const char *key, bool *out, sdk_error *err)
{
    const msgpack_object *v = present(map, key);
    if (!v) return true;
    if (v->type != MSGPACK_OBJECT_BOOLEAN) {
        sdk_error_set(err, SDK_E_REQUEST, "'%s' must be a boolean", key);
        return false;
    }
    *out = v->via.boolean;
    return true;
}

bool sdk_wire_get_int(const msgpack_object *map, const char *key, long lo, long hi, long *out,
                      sdk_error *err)
{
    const msgpack_object *v = present(map, key);
    if (!v) return true;
    long x;
    if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
        x = v->via.u64 > (uint64_t)hi ? hi + 1 : (long)v->via.u64;
    else if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        x = v->via.i64 < lo ? lo - 1 : (long)v->via.i64;
    else {
        sdk_error_set(err, SDK_E_REQUEST, "'%s' must be an integer", key);
        return false;
    }
    if (x < lo || x > hi) {
        sdk_error_set(err, SDK_E_REQUEST, "'%s' must be between %ld and %ld", key, lo, hi);
        return false;
    }
    *out = x;
    return true;
}

bool sdk_wire_get_str(const msgpack_object *map, const char *key, const char **out, uint32_t *len,
                      sdk_error *err)
{
    const msgpack_object *v = present(map, key);
    if (!v) return true;
    if (v->type != MSGPACK_OBJECT_STR) {
        sdk_error_set(err, SDK_E_REQUEST, "'%s' must be a string", key);
        return false;
    }
    *out = v->via.str.ptr;
    *len = v->via.str.size;
    return true;
}

bool sdk_wire_copy_str(const msgpack_object *o, char *buf, size_t n)
{
    if (!o || o->type != MSGPACK_OBJECT_STR || n == 0 || o->via.str.size >= n) return false;
    memcpy(buf, o->via.str.ptr, o->via.str.size);
    buf[o->via.str.size] = 0;
    return true;
}

double sdk_wire_num(const msgpack_object *o, double def)
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

long long sdk_wire_int(const msgpack_object *o, long long def)
{
    if (!o) return def;
    switch (o->type) {
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        return o->via.u64 > (uint64_t)LLONG_MAX ? LLONG_MAX : (long long)o->via.u64;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        return o->via.i64;
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64:
        /* out of range (or NaN) is undefined as a cast: clamp first */
        if (!(o->via.f64 > (double)LLONG_MIN && o->via.f64 < (double)LLONG_MAX)) return def;
        return (long long)o->via.f64;
    default:
        return def;
    }
}

bool sdk_wire_bool(const msgpack_object *o, bool def)
{
    if (!o) return def;
    if (o->type == MSGPACK_OBJECT_BOOLEAN) return o->via.boolean;
    if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER) return o->via.u64 != 0;
    return def;
}

size_t sdk_wire_len(const msgpack_object *o)
{
    if (!o) return 0;
    if (o->type == MSGPACK_OBJECT_ARRAY) return o->via.array.size;
    if (o->type == MSGPACK_OBJECT_MAP) return o->via.map.size;
    return 0;
}

const char *sdk_wire_text(const msgpack_object *o, char *buf, size_t n)
{
    if (!n) return buf;
    buf[0] = 0;
    if (!o || o->type != MSGPACK_OBJECT_STR) return buf;
    size_t l = o->via.str.size < n - 1 ? o->via.str.size : n - 1;
    memcpy(buf, o->via.str.ptr, l);
    buf[l] = 0;
    return buf;
}

/* ---- writing ------------------------------------------------------------ */

size_t sdk_wire_str_head(unsigned char h[5], uint32_t len)
{
    if (len < 32) {
        h[0] = (unsigned char)(0xa0 | len);
        return 1;
    }
    size_t n = len < 256 ? 1 : len < 65536 ? 2 : 4;
    h[0] = n == 1 ? 0xd9 : n == 2 ? 0xda : 0xdb;
    for (size_t k = 0; k < n; k++) h[1 + k] = (unsigned char)(len >> (8 * (n - 1 - k)));
    return 1 + n;
}

void sdk_wire_str(msgpack_packer *pk, const char *s)
{
    size_t n = strlen(s);
    msgpack_pack_str(pk, n);
    msgpack_pack_str_body(pk, s, n);
}

void sdk_wire_kv_str(msgpack_packer *pk, const char *key, const char *val)
{
    sdk_wire_str(pk, key);
    sdk_wire_str(pk, val);
}

void sdk_wire_kv_int(msgpack_packer *pk, const char *key, long val)
{
    sdk_wire_str(pk, key);
    msgpack_pack_long(pk, val);
}

void sdk_wire_kv_bool(msgpack_packer *pk, const char *key, bool val)
{
    sdk_wire_str(pk, key);
    if (val)
        msgpack_pack_true(pk);
    else
        msgpack_pack_false(pk);
}

void sdk_wire_kv_tenths(msgpack_packer *pk, const char *key, int tenths)
{
    sdk_wire_str(pk, key);
    msgpack_pack_double(pk, tenths / 10.0);
}

void sdk_wire_pack_error(msgpack_packer *pk, const sdk_error *e)
{
    msgpack_pack_map(pk, 2);
    sdk_wire_kv_str(pk, "code", e->code[0] ? e->code : SDK_E_INTERNAL);
    sdk_wire_kv_str(pk, "message", e->msg);
}

void sdk_wire_request_head(msgpack_packer *pk, uint32_t msgid, const char *method)
{
    msgpack_pack_array(pk, 4);
    msgpack_pack_uint8(pk, SDK_RPC_REQUEST);
    msgpack_pack_uint32(pk, msgid);
    sdk_wire_str(pk, method);
}

void sdk_wire_response_head(msgpack_packer *pk, uint32_t msgid)
{
    msgpack_pack_array(pk, 4);
    msgpack_pack_uint8(pk, SDK_RPC_RESPONSE);
    msgpack_pack_uint32(pk, msgid);
    msgpack_pack_nil(pk);
}

void sdk_wire_response_error(msgpack_packer *pk, uint32_t msgid, const sdk_error *e)
{
    msgpack_pack_array(pk, 4);
    msgpack_pack_uint8(pk, SDK_RPC_RESPONSE);
    msgpack_pack_uint32(pk, msgid);
    sdk_wire_pack_error(pk, e);
    msgpack_pack_nil(pk);
}

void sdk_wire_notify_head(msgpack_packer *pk, const char *method)
{
    msgpack_pack_array(pk, 3);
    msgpack_pack_uint8(pk, SDK_RPC_NOTIFY);
    sdk_wire_str(pk, method);
}

/* The one role table: sdk_role -> its wire name. */
static const char *const role_names[SDK_ROLE_COUNT] = {
    [SDK_ROLE_NONE] = "none",     [SDK_ROLE_BASE] = "base",       [SDK_ROLE_COVER] = "cover",
    [SDK_ROLE_FIN] = "fin",       [SDK_ROLE_ENDOFIN] = "endofin", [SDK_ROLE_PIVOT] = "pivot",
    [SDK_ROLE_PINCER] = "pincer", [SDK_ROLE_ON] = "on",           [SDK_ROLE_OFF] = "off",
    [SDK_ROLE_ALS] = "als",       [SDK_ROLE_TARGET] = "target",
};

/* ---- steps ------------------------------------------------------------- */

const char *sdk_wire_role_name(int role)
{
    return role >= 0 && role < SDK_ROLE_COUNT && role_names[role] ? role_names[role] : "none";
}

int sdk_wire_role_parse(const char *name, size_t len)
{
    for (int r = 0; r < SDK_ROLE_COUNT; r++)
        if (role_names[r] && strlen(role_names[r]) == len && memcmp(role_names[r], name, len) == 0)
            return r;
    if (len == 8 && memcmp(name, "endo-fin", 8) == 0) return SDK_ROLE_ENDOFIN;
    return -1;
}

int sdk_wire_cell_parse(const char *s, size_t n)
{
    if (n >= 4 && (s[0] == 'r' || s[0] == 'R') && s[1] >= '1' && s[1] <= '9' &&
        (s[2] == 'c' || s[2] == 'C') && s[3] >= '1' && s[3] <= '9')
        return (s[1] - '1') * 9 + (s[3] - '1');
    return -1;
}

static const char *link_kind_name(int kind)
{
    switch (kind) {
    case SDK_LINK_CELL:
        return "cell";
    case SDK_LINK_HOUSE:
        return "house";
    case SDK_LINK_GROUP:
        return "group";
    case SDK_LINK_ALS:
        return "als";
    default:
        return "cell";
    }
}

/* ---- packing a step ------------------------------------------------------
 *
 * An explain answer is mostly steps, and a step is many small items: a
 * key and a value per field, a string per candidate, four keys and two
 * node texts per chain link. Handed to msgpack one by one, each costs a
 * call of the packer's callback (and the candidates an snprintf), which
 * made packing a chain step cost ~55,000 instructions. So a step is
 * written into a buffer on the stack and handed over a few KiB at a time,
 * in exactly msgpack-c's bytes: the smallest header for a length, a
 * positive fixint or uint 8 for a byte, float 64 for a double. */

typedef struct step_out {
    msgpack_packer *pk;
    size_t n;
    unsigned char b[4096];
} step_out;

static void out_flush(step_out *o)
{
    if (o->n) o->pk->callback(o->pk->data, (const char *)o->b, o->n);
    o->n = 0;
}

/* Where k more bytes go (k at most a quarter of the buffer). */
static unsigned char *out_room(step_out *o, size_t k)
{
    if (o->n + k > sizeof o->b) out_flush(o);
    return o->b + o->n;
}

/* A map's or an array's head: the fix form below 16, else 16 or 32 bits. */
static void out_head(step_out *o, unsigned char fix, unsigned char head16, size_t n)
{
    unsigned char *p = out_room(o, 5);
    if (n < 16) {
        p[0] = (unsigned char)(fix | n);
        o->n += 1;
    } else if (n < 65536) {
        p[0] = head16;
        p[1] = (unsigned char)(n >> 8);
        p[2] = (unsigned char)n;
        o->n += 3;
    } else {
        p[0] = (unsigned char)(head16 + 1);
        for (int k = 0; k < 4; k++) p[1 + k] = (unsigned char)(n >> (24 - 8 * k));
        o->n += 5;
    }
}

static void out_map(step_out *o, size_t n)
{
    out_head(o, 0x80, 0xde, n);
}

static void out_array(step_out *o, size_t n)
{
    out_head(o, 0x90, 0xdc, n);
}

static void out_str(step_out *o, const char *s, size_t k)
{
    unsigned char h[5];
    size_t hn = sdk_wire_str_head(h, (uint32_t)k);
    if (hn + k > sizeof o->b / 4) { /* a long text: straight to the packer */
        out_flush(o);
        o->pk->callback(o->pk->data, (const char *)h, hn);
        o->pk->callback(o->pk->data, s, k);
        return;
    }
    unsigned char *p = out_room(o, hn + k);
    memcpy(p, h, hn);
    memcpy(p + hn, s, k);
    o->n += hn + k;
}

static void out_cstr(step_out *o, const char *s)
{
    out_str(o, s, strlen(s));
}

/* A key: a string literal, its length known when compiled. */
#define OUT_KEY(o, lit) out_str(o, lit, sizeof lit - 1)

static void out_uint8(step_out *o, uint8_t v)
{
    unsigned char *p = out_room(o, 2);
    if (v < 128) {
        p[0] = v;
        o->n += 1;
    } else {
        p[0] = 0xcc;
        p[1] = v;
        o->n += 2;
    }
}

static void out_bool(step_out *o, bool v)
{
    *out_room(o, 1) = v ? 0xc3 : 0xc2;
    o->n++;
}

static void out_double(step_out *o, double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    unsigned char *p = out_room(o, 9);
    p[0] = 0xcb;
    for (int k = 0; k < 8; k++) p[1 + k] = (unsigned char)(u >> (56 - 8 * k));
    o->n += 9;
}

/* "r3c2=5" (place) or "r3c2<>5": a cell out of range is written as r1c1. */
static void out_cand(step_out *o, sdk_cand c, bool place)
{
    char t[12];
    int cell = c.cell > 80 ? 0 : c.cell;
    size_t k = strlen(sdk_cell_name(cell, t)); /* "r3c2" */
    if (place) {
        t[k++] = '=';
    } else {
        t[k++] = '<';
        t[k++] = '>';
    }
    if (c.digit >= 100) t[k++] = (char)('0' + c.digit / 100);
    if (c.digit >= 10) t[k++] = (char)('0' + c.digit / 10 % 10);
    t[k++] = (char)('0' + c.digit % 10);
    out_str(o, t, k);
}

/* A nested step's inner steps ("inner": technique, name, text, placements,
 * eliminations, truncated?) and, per candidate its contradiction needs gone
 * or placed, the inner steps that do it ("because": candidate, steps). */
static void pack_inner(step_out *o, const sdk_step *s)
{
    int ni = s->ninner > SDK_STEP_MAX_INNER ? SDK_STEP_MAX_INNER : s->ninner;
    OUT_KEY(o, "inner");
    out_array(o, (size_t)ni);
    for (int i = 0; i < ni; i++) {
        const sdk_inner *in = &s->inner[i];
        const char *id = in->tech && in->tech->id ? in->tech->id : "unknown";
        out_map(o, 5 + (in->truncated ? 1 : 0));
        OUT_KEY(o, "technique");
        out_cstr(o, id);
        OUT_KEY(o, "name");
        out_cstr(o, in->tech && in->tech->name ? in->tech->name : id);
        const char *t = in->text < SDK_STEP_INNER_TEXT ? s->inner_text + in->text : "";
        OUT_KEY(o, "text");
        out_str(o, t, strnlen(t, SDK_STEP_INNER_TEXT - in->text));
        int np = in->nplace > SDK_INNER_MAX_EFFECT ? SDK_INNER_MAX_EFFECT : in->nplace;
        int ne = in->nelim > SDK_INNER_MAX_EFFECT - np ? SDK_INNER_MAX_EFFECT - np : in->nelim;
        OUT_KEY(o, "placements");
        out_array(o, (size_t)np);
        for (int k = 0; k < np; k++) out_cand(o, in->effect[k], true);
        OUT_KEY(o, "eliminations");
        out_array(o, (size_t)ne);
        for (int k = 0; k < ne; k++) out_cand(o, in->effect[np + k], false);
        if (in->truncated) {
            OUT_KEY(o, "truncated");
            out_bool(o, true);
        }
    }
    int nc = s->nclaim > SDK_STEP_MAX_CLAIM ? SDK_STEP_MAX_CLAIM : s->nclaim;
    OUT_KEY(o, "because");
    out_array(o, (size_t)nc);
    for (int i = 0; i < nc; i++) {
        const sdk_claim *c = &s->claim[i];
        out_map(o, 2);
        OUT_KEY(o, "candidate");
        out_cand(o, c->cand, c->place);
        OUT_KEY(o, "steps");
        int n = 0;
        for (int k = 0; k < ni; k++) n += (int)(c->steps >> k & 1);
        out_array(o, (size_t)n);
        for (int k = 0; k < ni; k++)
            if (c->steps >> k & 1) out_uint8(o, (uint8_t)k);
    }
}

void sdk_wire_pack_step(msgpack_packer *pk, const sdk_step *s)
{
    step_out o = {.pk = pk}; /* whole: gcc -fsanitize sees b read before written */
    char buf[64];
    const char *id = s->tech && s->tech->id ? s->tech->id : "unknown";
    const char *name = s->tech && s->tech->name ? s->tech->name : id;
    bool nested = s->ninner || s->nclaim;
    out_map(&o, 9 + (s->truncated ? 1 : 0) + (nested ? 2 : 0));
    OUT_KEY(&o, "technique");
    out_cstr(&o, id);
    OUT_KEY(&o, "name");
    out_cstr(&o, name);
    OUT_KEY(&o, "difficulty");
    out_double(&o, s->difficulty / 10.0);

    OUT_KEY(&o, "placements");
    int np = s->nplace > SDK_STEP_MAX_PLACE ? SDK_STEP_MAX_PLACE : s->nplace;
    out_array(&o, (size_t)np);
    for (int i = 0; i < np; i++) out_cand(&o, s->place[i], true);
    OUT_KEY(&o, "eliminations");
    int ne = s->nelim > SDK_STEP_MAX_ELIM ? SDK_STEP_MAX_ELIM : s->nelim;
    out_array(&o, (size_t)ne);
    for (int i = 0; i < ne; i++) out_cand(&o, s->elim[i], false);
    OUT_KEY(&o, "text");
    out_str(&o, s->text, strnlen(s->text, SDK_STEP_TEXT));

    OUT_KEY(&o, "marks");
    int nm = s->nmark > SDK_STEP_MAX_MARK ? SDK_STEP_MAX_MARK : s->nmark;
    out_array(&o, (size_t)nm);
    for (int i = 0; i < nm; i++) {
        out_array(&o, 3);
        out_uint8(&o, s->mark[i].cell);
        out_uint8(&o, s->mark[i].digit);
        out_cstr(&o, sdk_wire_role_name(s->mark[i].role));
    }
    OUT_KEY(&o, "houses");
    int nh = s->nhouse > SDK_STEP_MAX_HOUSE ? SDK_STEP_MAX_HOUSE : s->nhouse;
    out_array(&o, (size_t)nh);
    for (int i = 0; i < nh; i++) {
        out_array(&o, 2);
        out_uint8(&o, s->house[i].house);
        out_cstr(&o, sdk_wire_role_name(s->house[i].role));
    }
    OUT_KEY(&o, "links");
    int nl = s->nlink > SDK_STEP_MAX_LINK ? SDK_STEP_MAX_LINK : s->nlink;
    out_array(&o, (size_t)nl);
    for (int i = 0; i < nl; i++) {
        const sdk_link *l = &s->link[i];
        /* the set a link runs through: an ALS ("als"), or the box segment a
         * digit is locked in for a dynamic group link ("cells") */
        bool als = l->kind == SDK_LINK_ALS && l->nals > 0;
        bool group = l->kind == SDK_LINK_GROUP && l->nals > 0;
        out_map(&o, 4 + (als || group ? 1 : 0));
        OUT_KEY(&o, "from");
        out_cstr(&o, sdk_node_text(&l->from, buf, sizeof buf));
        OUT_KEY(&o, "to");
        out_cstr(&o, sdk_node_text(&l->to, buf, sizeof buf));
        OUT_KEY(&o, "strong");
        out_bool(&o, l->strong != 0);
        OUT_KEY(&o, "kind");
        out_cstr(&o, link_kind_name(l->kind));
        if (als || group) {
            int na = l->nals > 9 ? 9 : l->nals;
            if (als)
                OUT_KEY(&o, "als");
            else
                OUT_KEY(&o, "cells");
            out_array(&o, (size_t)na);
            for (int k = 0; k < na; k++) out_uint8(&o, l->als[k]);
        }
    }
    if (s->truncated) {
        OUT_KEY(&o, "truncated");
        out_bool(&o, true);
    }
    if (nested) pack_inner(&o, s);
    out_flush(&o);
}

int sdk_wire_cell(const msgpack_object *o)
{
    if (o && o->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
        return o->via.u64 < 81 ? (int)o->via.u64 : -1;
    if (o && o->type == MSGPACK_OBJECT_STR)
        return sdk_wire_cell_parse(o->via.str.ptr, o->via.str.size);
    return -1;
}

bool sdk_wire_cand(const msgpack_object *o, int *cell, int *digit, bool *place)
{
    if (!o || o->type != MSGPACK_OBJECT_STR) return false;
    const char *s = o->via.str.ptr;
    size_t n = o->via.str.size;
    int c = sdk_wire_cell_parse(s, n);
    if (c < 0) return false;
    if (n == 6 && s[4] == '=' && s[5] >= '1' && s[5] <= '9') {
        *place = true;
        *digit = s[5] - '0';
    } else if (n == 7 && s[4] == '<' && s[5] == '>' && s[6] >= '1' && s[6] <= '9') {
        *place = false;
        *digit = s[6] - '0';
    } else {
        return false;
    }
    *cell = c;
    return true;
}

int sdk_wire_role(const msgpack_object *o)
{
    if (o && o->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
        return o->via.u64 < SDK_ROLE_COUNT ? (int)o->via.u64 : SDK_ROLE_NONE;
    int r = o && o->type == MSGPACK_OBJECT_STR
                ? sdk_wire_role_parse(o->via.str.ptr, o->via.str.size)
                : -1;
    return r < 0 ? SDK_ROLE_NONE : r;
}

/* ---- unpacking a step ---------------------------------------------------- */

/* Each reader takes the value of one field (NULL when absent: nothing to
 * read) and fails with err naming the field. */

static bool field_error(sdk_error *err, const char *field, const char *why)
{
    sdk_error_set(err, SDK_E_REQUEST, "step: '%s' %s", field, why);
    return false;
}

static bool read_uint(const msgpack_object *o, unsigned max, unsigned *out)
{
    if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 > max) return false;
    *out = (unsigned)o->via.u64;
    return true;
}

static bool read_role(const msgpack_object *o, uint8_t *role)
{
    if (o->type != MSGPACK_OBJECT_STR) return false;
    int r = sdk_wire_role_parse(o->via.str.ptr, o->via.str.size);
    *role = (uint8_t)(r < 0 ? SDK_ROLE_NONE : r);
    return true;
}

/* An array of at most max elements (absent: none). */
static bool read_array(const msgpack_object *o, const char *field, uint32_t max, uint32_t *n,
                       sdk_error *err)
{
    *n = 0;
    if (!o || o->type == MSGPACK_OBJECT_NIL) return true;
    if (o->type != MSGPACK_OBJECT_ARRAY) return field_error(err, field, "must be an array");
    if (o->via.array.size > max) return field_error(err, field, "has too many elements");
    *n = o->via.array.size;
    return true;
}

/* "r1c2=5" (place) or "r3c2<>7" (!place). */
static bool read_cands(const msgpack_object *o, const char *field, bool place, uint32_t max,
                       sdk_cand *out, uint16_t *count, sdk_error *err)
{
    uint32_t n;
    if (!read_array(o, field, max, &n, err)) return false;
    for (uint32_t i = 0; i < n; i++) {
        int cell, digit;
        bool p;
        if (!sdk_wire_cand(&o->via.array.ptr[i], &cell, &digit, &p) || p != place)
            return field_error(err, field,
                               place ? "must hold strings like \"r1c2=5\""
                                     : "must hold strings like \"r3c2<>7\"");
        out[i].cell = (uint8_t)cell;
        out[i].digit = (uint8_t)digit;
    }
    *count = (uint16_t)n;
    return true;
}

static bool read_marks(const msgpack_object *o, sdk_step *s, sdk_error *err)
{
    uint32_t n;
    if (!read_array(o, "marks", SDK_STEP_MAX_MARK, &n, err)) return false;
    for (uint32_t i = 0; i < n; i++) {
        const msgpack_object *e = &o->via.array.ptr[i];
        unsigned cell, digit;
        if (e->type != MSGPACK_OBJECT_ARRAY || e->via.array.size != 3 ||
            !read_uint(&e->via.array.ptr[0], 80, &cell) ||
            !read_uint(&e->via.array.ptr[1], 9, &digit) ||
            !read_role(&e->via.array.ptr[2], &s->mark[i].role))
            return field_error(err, "marks", "must hold [cell 0..80, digit 0..9, role]");
        s->mark[i].cell = (uint8_t)cell;
        s->mark[i].digit = (uint8_t)digit;
    }
    s->nmark = (uint16_t)n;
    return true;
}

static bool read_houses(const msgpack_object *o, sdk_step *s, sdk_error *err)
{
    uint32_t n;
    if (!read_array(o, "houses", SDK_STEP_MAX_HOUSE, &n, err)) return false;
    for (uint32_t i = 0; i < n; i++) {
        const msgpack_object *e = &o->via.array.ptr[i];
        unsigned house;
        if (e->type != MSGPACK_OBJECT_ARRAY || e->via.array.size != 2 ||
            !read_uint(&e->via.array.ptr[0], 26, &house) ||
            !read_role(&e->via.array.ptr[1], &s->house[i].role))
            return field_error(err, "houses", "must hold [house 0..26, role]");
        s->house[i].house = (uint8_t)house;
    }
    s->nhouse = (uint8_t)n;
    return true;
}

/* A node string into nd (sdk_node_parse wants it NUL-terminated). */
static bool read_node(const msgpack_object *o, sdk_node *nd)
{
    char text[40];
    return sdk_wire_copy_str(o, text, sizeof text) && sdk_node_parse(text, nd);
}

static bool read_link(const msgpack_object *o, sdk_link *l)
{
    memset(l, 0, sizeof *l);
    if (o->type != MSGPACK_OBJECT_MAP) return false;
    if (!read_node(sdk_wire_get(o, "from"), &l->from) || !read_node(sdk_wire_get(o, "to"), &l->to))
        return false;
    const msgpack_object *strong = sdk_wire_get(o, "strong");
    if (strong && strong->type != MSGPACK_OBJECT_BOOLEAN) return false;
    l->strong = strong && strong->via.boolean;
    const msgpack_object *kind = sdk_wire_get(o, "kind");
    char name[16] = "";
    if (kind && kind->type != MSGPACK_OBJECT_STR) return false;
    sdk_wire_text(kind, name, sizeof name);
    int k = sdk_link_kind_parse(name);
    l->kind = (uint8_t)(k < 0 ? SDK_LINK_CELL : k);
    /* the set a link runs through, under the key the packer gives it */
    const char *key = l->kind == SDK_LINK_ALS ? "als" : l->kind == SDK_LINK_GROUP ? "cells" : NULL;
    const msgpack_object *set = key ? sdk_wire_get(o, key) : NULL;
    if (!set) return true;
    if (set->type != MSGPACK_OBJECT_ARRAY || set->via.array.size > sizeof l->als) return false;
    for (uint32_t i = 0; i < set->via.array.size; i++) {
        unsigned cell;
        if (!read_uint(&set->via.array.ptr[i], 80, &cell)) return false;
        l->als[l->nals++] = (uint8_t)cell;
    }
    return true;
}

static bool read_links(const msgpack_object *o, sdk_step *s, sdk_error *err)
{
    uint32_t n;
    if (!read_array(o, "links", SDK_STEP_MAX_LINK, &n, err)) return false;
    for (uint32_t i = 0; i < n; i++)
        if (!read_link(&o->via.array.ptr[i], &s->link[i]))
            return field_error(err, "links",
                               "must hold {from, to, strong, kind, als?/cells?} with nodes "
                               "like \"r2c46/-1\" and cells 0..80");
    s->nlink = (uint16_t)n;
    return true;
}

static bool read_name(const msgpack_object *o, const char *field, char *buf, size_t n,
                      sdk_error *err)
{
    if (!o) return true;
    if (!sdk_wire_copy_str(o, buf, n))
        return field_error(err, field,
                           o->type == MSGPACK_OBJECT_STR ? "is too long" : "must be a string");
    return true;
}

/* "inner" and "because" (pack_inner); the inner steps' technique is known
 * by its text only. */
static bool read_inner(const msgpack_object *o, const msgpack_object *because, sdk_step *s,
                       sdk_error *err)
{
    uint32_t n;
    if (!read_array(o, "inner", SDK_STEP_MAX_INNER, &n, err)) return false;
    for (uint32_t i = 0; i < n; i++) {
        const msgpack_object *e = &o->via.array.ptr[i];
        if (e->type != MSGPACK_OBJECT_MAP) return field_error(err, "inner", "must hold steps");
        const msgpack_object *t = sdk_wire_get(e, "text");
        if (t && t->type != MSGPACK_OBJECT_STR)
            return field_error(err, "inner", "must hold steps with a text string");
        size_t len = t ? strnlen(t->via.str.ptr, t->via.str.size) : 0; /* as C reads it */
        if (s->inner_text_len + len + 1 > SDK_STEP_INNER_TEXT)
            return field_error(err, "inner", "has too much text");
        sdk_inner *in = &s->inner[i];
        in->text = s->inner_text_len;
        if (len) memcpy(s->inner_text + s->inner_text_len, t->via.str.ptr, len);
        s->inner_text[s->inner_text_len + len] = 0;
        s->inner_text_len = (uint16_t)(s->inner_text_len + len + 1);
        uint16_t np = 0, ne = 0;
        if (!read_cands(sdk_wire_get(e, "placements"), "inner placements", true,
                        SDK_INNER_MAX_EFFECT, in->effect, &np, err) ||
            !read_cands(sdk_wire_get(e, "eliminations"), "inner eliminations", false,
                        SDK_INNER_MAX_EFFECT - np, in->effect + np, &ne, err))
            return false;
        in->nplace = (uint8_t)np;
        in->nelim = (uint8_t)ne;
        const msgpack_object *tr = sdk_wire_get(e, "truncated");
        in->truncated = tr && tr->type == MSGPACK_OBJECT_BOOLEAN && tr->via.boolean;
    }
    s->ninner = (uint8_t)n;
    if (!read_array(because, "because", SDK_STEP_MAX_CLAIM, &n, err)) return false;
    for (uint32_t i = 0; i < n; i++) {
        const msgpack_object *e = &because->via.array.ptr[i];
        const msgpack_object *steps =
            e->type == MSGPACK_OBJECT_MAP ? sdk_wire_get(e, "steps") : NULL;
        int cell, digit;
        bool place;
        if (!steps || steps->type != MSGPACK_OBJECT_ARRAY ||
            !sdk_wire_cand(sdk_wire_get(e, "candidate"), &cell, &digit, &place))
            return field_error(err, "because",
                               "must hold {candidate: \"r6c6<>3\" or \"r6c6=3\", steps: [...]}");
        sdk_claim *c = &s->claim[i];
        c->cand = (sdk_cand){(uint8_t)cell, (uint8_t)digit};
        c->place = place;
        for (uint32_t k = 0; k < steps->via.array.size; k++) {
            unsigned x;
            if (!read_uint(&steps->via.array.ptr[k], s->ninner ? s->ninner - 1u : 0, &x) ||
                !s->ninner)
                return field_error(err, "because", "steps must be indexes into 'inner'");
            c->steps |= 1ULL << x;
        }
    }
    s->nclaim = (uint8_t)n;
    return true;
}

bool sdk_wire_unpack_step(const msgpack_object *o, sdk_wire_step *out, sdk_error *err)
{
    memset(out, 0, sizeof *out);
    sdk_step *s = &out->step;
    if (!o || o->type != MSGPACK_OBJECT_MAP) {
        sdk_error_set(err, SDK_E_REQUEST, "a step must be a map");
        return false;
    }
    if (!read_name(sdk_wire_get(o, "technique"), "technique", out->technique, sizeof out->technique,
                   err) ||
        !read_name(sdk_wire_get(o, "name"), "name", out->name, sizeof out->name, err))
        return false;
    const msgpack_object *d = sdk_wire_get(o, "difficulty");
    if (d) {
        bool num = d->type == MSGPACK_OBJECT_FLOAT32 || d->type == MSGPACK_OBJECT_FLOAT64;
        if (!num || !(d->via.f64 >= 0 && d->via.f64 <= 100000))
            return field_error(err, "difficulty", "must be a number from 0 to 100000");
        s->difficulty = (int)(d->via.f64 * 10 + 0.5); /* >= 0: rounds */
    }
    const msgpack_object *t = sdk_wire_get(o, "text");
    if (t && t->type != MSGPACK_OBJECT_STR) return field_error(err, "text", "must be a string");
    if (t) { /* cut to what a step holds: the text is for reading */
        size_t n = t->via.str.size < SDK_STEP_TEXT - 1 ? t->via.str.size : SDK_STEP_TEXT - 1;
        memcpy(s->text, t->via.str.ptr, n);
    }
    const msgpack_object *tr = sdk_wire_get(o, "truncated");
    if (tr && tr->type != MSGPACK_OBJECT_BOOLEAN)
        return field_error(err, "truncated", "must be a boolean");
    s->truncated = tr && tr->via.boolean;
    return read_cands(sdk_wire_get(o, "placements"), "placements", true, SDK_STEP_MAX_PLACE,
                      s->place, &s->nplace, err) &&
           read_cands(sdk_wire_get(o, "eliminations"), "eliminations", false, SDK_STEP_MAX_ELIM,
                      s->elim, &s->nelim, err) &&
           read_marks(sdk_wire_get(o, "marks"), s, err) &&
           read_houses(sdk_wire_get(o, "houses"), s, err) &&
           read_links(sdk_wire_get(o, "links"), s, err) &&
           read_inner(sdk_wire_get(o, "inner"), sdk_wire_get(o, "because"), s, err);
}

/* ---- the socket ------------------------------------------------------------ */

char *sdk_wire_private_dir(char *out, size_t n)
{
    /* /tmp/sudokud-UID ($SUDOKUD_TMPDIR instead of /tmp when set, as tmux has
     * TMUX_TMPDIR; not $TMPDIR, which differs between a user's shells) */
    const char *t = getenv("SUDOKUD_TMPDIR");
    snprintf(out, n, "%s/sudokud-%u", t && *t == '/' ? t : "/tmp", (unsigned)getuid());
    return out;
}

char *sdk_wire_default_socket(bool system, char *out, size_t n)
{
    const char *dir = system ? NULL : getenv("XDG_RUNTIME_DIR");
    if (system) {
        snprintf(out, n, "%s", SDK_WIRE_SYSTEM_SOCKET);
    } else if (dir && *dir) {
        snprintf(out, n, "%s/sudokud.sock", dir);
    } else {
        char priv[4096];
        snprintf(out, n, "%s/sudokud.sock", sdk_wire_private_dir(priv, sizeof priv));
    }
    return out;
}
