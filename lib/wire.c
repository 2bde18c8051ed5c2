/* wire.c - the MessagePack-RPC codec shared by sudokud and sudoctl: framing,
 * message shapes, typed map lookups, and packing of responses and steps. */
#include "sudoku/wire.h"
#include "sudoku/technique.h"

#include <stdio.h>
#include <string.h>

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
    if (!r->ok) return;
    msgpack_unpacked_destroy(&r->msg);
    msgpack_unpacker_destroy(&r->up);
    r->ok = false;
}

char *sdk_wire_reader_space(sdk_wire_reader *r, size_t want, size_t *len)
{
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
    sdk_wire_reader_free(r);
    sdk_wire_reader_init(r, max);
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
    if (r->ready == 0 && !r->meter.broken) {
        if (!r->failed) return 0;
        *err = r->fail;
        return -1;
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

size_t sdk_wire_reader_pending(const sdk_wire_reader *r)
{
    return r->up.used - r->up.off;
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
    size_t n = strlen(s);
    return o && o->type == MSGPACK_OBJECT_STR && o->via.str.size == n &&
           memcmp(o->via.str.ptr, s, n) == 0;
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

/* ---- writing ------------------------------------------------------------ */

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

static const char *const role_names[SDK_ROLE_COUNT] = {
    [SDK_ROLE_NONE] = "none",     [SDK_ROLE_BASE] = "base",       [SDK_ROLE_COVER] = "cover",
    [SDK_ROLE_FIN] = "fin",       [SDK_ROLE_ENDOFIN] = "endofin", [SDK_ROLE_PIVOT] = "pivot",
    [SDK_ROLE_PINCER] = "pincer", [SDK_ROLE_ON] = "on",           [SDK_ROLE_OFF] = "off",
    [SDK_ROLE_ALS] = "als",       [SDK_ROLE_TARGET] = "target",
};

const char *sdk_wire_role_name(int role)
{
    return role >= 0 && role < SDK_ROLE_COUNT && role_names[role] ? role_names[role] : "none";
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

static const char *cell_text(int cell, char *buf)
{
    if (cell < 0 || cell > 80) cell = 0;
    snprintf(buf, 8, "r%dc%d", cell / 9 + 1, cell % 9 + 1);
    return buf;
}

char *sdk_wire_node_text(const sdk_node *nd, char *buf, size_t n)
{
    /* "r2c2" or, for a group in one row / column, "r2c46" / "r46c2". */
    char cells[32];
    int nc = nd->ncell > 3 ? 3 : nd->ncell;
    if (nc <= 1) {
        cell_text(nc ? nd->cell[0] : 0, cells);
    } else {
        bool same_row = true, same_col = true;
        for (int i = 1; i < nc; i++) {
            same_row &= nd->cell[i] / 9 == nd->cell[0] / 9;
            same_col &= nd->cell[i] % 9 == nd->cell[0] % 9;
        }
        int k = 0;
        if (same_row) {
            k += snprintf(cells + k, sizeof cells - k, "r%dc", nd->cell[0] / 9 + 1);
            for (int i = 0; i < nc; i++)
                k += snprintf(cells + k, sizeof cells - k, "%d", nd->cell[i] % 9 + 1);
        } else if (same_col) {
            k += snprintf(cells + k, sizeof cells - k, "r");
            for (int i = 0; i < nc; i++)
                k += snprintf(cells + k, sizeof cells - k, "%d", nd->cell[i] / 9 + 1);
            snprintf(cells + k, sizeof cells - k, "c%d", nd->cell[0] % 9 + 1);
        } else {
            char c[8];
            for (int i = 0; i < nc; i++)
                k += snprintf(cells + k, sizeof cells - k, "%s%s", i ? "," : "",
                              cell_text(nd->cell[i], c));
        }
    }
    snprintf(buf, n, "%s/%c%d", cells, nd->on ? '+' : '-', nd->digit);
    return buf;
}

void sdk_wire_pack_step(msgpack_packer *pk, const sdk_step *s)
{
    char buf[64];
    const char *id = s->tech && s->tech->id ? s->tech->id : "unknown";
    const char *name = s->tech && s->tech->name ? s->tech->name : id;
    msgpack_pack_map(pk, 9 + (s->truncated ? 1 : 0));
    sdk_wire_kv_str(pk, "technique", id);
    sdk_wire_kv_str(pk, "name", name);
    sdk_wire_kv_tenths(pk, "difficulty", s->difficulty);

    sdk_wire_str(pk, "placements");
    int np = s->nplace > SDK_STEP_MAX_PLACE ? SDK_STEP_MAX_PLACE : s->nplace;
    msgpack_pack_array(pk, (size_t)np);
    for (int i = 0; i < np; i++) {
        char c[8];
        snprintf(buf, sizeof buf, "%s=%d", cell_text(s->place[i].cell, c), s->place[i].digit);
        sdk_wire_str(pk, buf);
    }
    sdk_wire_str(pk, "eliminations");
    int ne = s->nelim > SDK_STEP_MAX_ELIM ? SDK_STEP_MAX_ELIM : s->nelim;
    msgpack_pack_array(pk, (size_t)ne);
    for (int i = 0; i < ne; i++) {
        char c[8];
        snprintf(buf, sizeof buf, "%s<>%d", cell_text(s->elim[i].cell, c), s->elim[i].digit);
        sdk_wire_str(pk, buf);
    }
    sdk_wire_str(pk, "text");
    size_t tl = strnlen(s->text, SDK_STEP_TEXT);
    msgpack_pack_str(pk, tl);
    msgpack_pack_str_body(pk, s->text, tl);

    sdk_wire_str(pk, "marks");
    int nm = s->nmark > SDK_STEP_MAX_MARK ? SDK_STEP_MAX_MARK : s->nmark;
    msgpack_pack_array(pk, (size_t)nm);
    for (int i = 0; i < nm; i++) {
        msgpack_pack_array(pk, 3);
        msgpack_pack_uint8(pk, s->mark[i].cell);
        msgpack_pack_uint8(pk, s->mark[i].digit);
        sdk_wire_str(pk, sdk_wire_role_name(s->mark[i].role));
    }
    sdk_wire_str(pk, "houses");
    int nh = s->nhouse > SDK_STEP_MAX_HOUSE ? SDK_STEP_MAX_HOUSE : s->nhouse;
    msgpack_pack_array(pk, (size_t)nh);
    for (int i = 0; i < nh; i++) {
        msgpack_pack_array(pk, 2);
        msgpack_pack_uint8(pk, s->house[i].house);
        sdk_wire_str(pk, sdk_wire_role_name(s->house[i].role));
    }
    sdk_wire_str(pk, "links");
    int nl = s->nlink > SDK_STEP_MAX_LINK ? SDK_STEP_MAX_LINK : s->nlink;
    msgpack_pack_array(pk, (size_t)nl);
    for (int i = 0; i < nl; i++) {
        const sdk_link *l = &s->link[i];
        /* the set a link runs through: an ALS ("als"), or the box segment a
         * digit is locked in for a dynamic group link ("cells") */
        bool als = l->kind == SDK_LINK_ALS && l->nals > 0;
        bool group = l->kind == SDK_LINK_GROUP && l->nals > 0;
        msgpack_pack_map(pk, 4 + (als || group ? 1 : 0));
        sdk_wire_kv_str(pk, "from", sdk_wire_node_text(&l->from, buf, sizeof buf));
        sdk_wire_kv_str(pk, "to", sdk_wire_node_text(&l->to, buf, sizeof buf));
        sdk_wire_kv_bool(pk, "strong", l->strong != 0);
        sdk_wire_kv_str(pk, "kind", link_kind_name(l->kind));
        if (als || group) {
            int na = l->nals > 9 ? 9 : l->nals;
            sdk_wire_str(pk, als ? "als" : "cells");
            msgpack_pack_array(pk, (size_t)na);
            for (int k = 0; k < na; k++) msgpack_pack_uint8(pk, l->als[k]);
        }
    }
    if (s->truncated) sdk_wire_kv_bool(pk, "truncated", true);
}
