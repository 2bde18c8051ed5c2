/* fuzz_wire.c - libFuzzer target: the wire reader, message shapes and the
 * step codec (lib/wire.c), as sudokud and sudoctl meet untrusted bytes.
 *
 * The first byte picks the size of the pieces the rest is fed in (framing
 * must not depend on where reads split a message); every whole message is
 * checked as msgpack-rpc, its params read with the typed and the lenient
 * lookups, and whatever looks like a step (a response's result, its `steps`,
 * a request's params) unpacked. A step that unpacks must survive a round
 * trip: pack it, unpack it, and get the same step, or the target aborts;
 * and whatever msgpack writes, the reader's meter must read back whole, and
 * sdk_wire_unpack into the same objects.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sudoku/technique.h"
#include "sudoku/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Bytes past the first NUL of a C string do not travel: forget them. */
static void clear_tail(char *s, size_t n)
{
    size_t l = strnlen(s, n);
    memset(s + l, 0, n - l);
}

static void step_round_trip(const msgpack_object *o)
{
    static sdk_wire_step a, b;
    sdk_error err;
    if (!sdk_wire_unpack_step(o, &a, &err)) return;
    clear_tail(a.technique, sizeof a.technique);
    clear_tail(a.name, sizeof a.name);
    clear_tail(a.step.text, sizeof a.step.text);

    sdk_technique t = {
        .id = a.technique,
        .name = a.name,
    };
    sdk_step s = a.step;
    s.tech = &t;
    msgpack_sbuffer buf;
    msgpack_sbuffer_init(&buf);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &buf, msgpack_sbuffer_write);
    sdk_wire_pack_step(&pk, &s);
    msgpack_unpacked up;
    msgpack_unpacked_init(&up);
    if (msgpack_unpack_next(&up, buf.data, buf.size, NULL) != MSGPACK_UNPACK_SUCCESS) {
        fprintf(stderr, "fuzz_wire: a packed step does not unpack as msgpack\n");
        abort();
    }
    if (!sdk_wire_unpack_step(&up.data, &b, &err)) {
        fprintf(stderr, "fuzz_wire: a packed step is refused: %s\n", err.msg);
        abort();
    }
    if (memcmp(&a, &b, sizeof a) != 0) {
        fprintf(stderr, "fuzz_wire: a step changed on its way through the wire\n");
        abort();
    }
    msgpack_unpacked_destroy(&up);
    msgpack_sbuffer_destroy(&buf);
}

/* Every value of a map through the lenient readers (they must not trip on
 * any type), and the typed lookups on the keys requests use. */
static void read_params(const msgpack_object *params)
{
    sdk_error err;
    bool b = false;
    long x = 0;
    const char *s;
    uint32_t n;
    char text[64];
    sdk_wire_get_bool(params, "all", &b, &err);
    sdk_wire_get_int(params, "max_trace", 1, 1000000, &x, &err);
    sdk_wire_get_int(params, "msgid", -5, 5, &x, &err);
    sdk_wire_get_str(params, "profile", &s, &n, &err);
    sdk_wire_copy_str(sdk_wire_get(params, "puzzle"), text, sizeof text);
    for (uint32_t i = 0; params && i < params->via.map.size; i++) {
        const msgpack_object *v = &params->via.map.ptr[i].val;
        (void)sdk_wire_num(v, 0);
        (void)sdk_wire_int(v, 0);
        (void)sdk_wire_bool(v, false);
        (void)sdk_wire_len(v);
        sdk_wire_text(v, text, sizeof text);
        sdk_wire_text(v, text, 1);
        if (v->type == MSGPACK_OBJECT_STR) {
            (void)sdk_wire_role_parse(v->via.str.ptr, v->via.str.size);
            (void)sdk_wire_cell_parse(v->via.str.ptr, v->via.str.size);
        }
    }
}

/* Two objects the same, as their packed bytes (msgpack_object_equal says a
 * NaN differs from itself). */
static bool same_objects(const msgpack_object *a, const msgpack_object *b)
{
    msgpack_sbuffer x, y;
    msgpack_sbuffer_init(&x);
    msgpack_sbuffer_init(&y);
    msgpack_packer px, py;
    msgpack_packer_init(&px, &x, msgpack_sbuffer_write);
    msgpack_packer_init(&py, &y, msgpack_sbuffer_write);
    msgpack_pack_object(&px, *a);
    msgpack_pack_object(&py, *b);
    bool same = x.size == y.size && (!x.size || memcmp(x.data, y.data, x.size) == 0);
    msgpack_sbuffer_destroy(&x);
    msgpack_sbuffer_destroy(&y);
    return same;
}

/* What msgpack writes, the reader must read back whole: pack the message
 * again and feed it to a fresh reader (the reader walks every header before
 * msgpack sees a byte, so it must know every type msgpack writes). */
static void reread(const msgpack_object *o)
{
    msgpack_sbuffer buf;
    msgpack_sbuffer_init(&buf);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &buf, msgpack_sbuffer_write);
    msgpack_pack_object(&pk, *o);
    sdk_wire_reader r;
    sdk_error err = {"", ""};
    const msgpack_object *back;
    /* the reader's limit is on what a message costs to parse, as metered */
    size_t cost = sdk_wire_message_cost(buf.data, buf.size);
    if (cost == SIZE_MAX) {
        fprintf(stderr, "fuzz_wire: the meter does not read a message msgpack wrote\n");
        abort();
    }
    if (sdk_wire_reader_init(&r, cost) && sdk_wire_reader_feed(&r, buf.data, buf.size)) {
        int rc = sdk_wire_reader_next(&r, &back, &err);
        if (rc != 1 || sdk_wire_reader_pending(&r) != 0) {
            fprintf(stderr, "fuzz_wire: a message msgpack wrote (%zu bytes) reads as %d: %s\n",
                    buf.size, rc, err.msg);
            abort();
        }
    }
    sdk_wire_reader_free(&r);
    /* and sdk_wire_unpack (the reader's fast path) makes the same objects */
    msgpack_zone *z = msgpack_zone_new(MSGPACK_ZONE_CHUNK_SIZE);
    msgpack_object fast;
    size_t off = 0;
    if (z && sdk_wire_unpack(buf.data, buf.size, &off, z, &fast) &&
        (off != buf.size || !same_objects(&fast, o))) {
        fprintf(stderr, "fuzz_wire: sdk_wire_unpack reads a message otherwise than msgpack\n");
        abort();
    }
    if (z) msgpack_zone_free(z);
    msgpack_sbuffer_destroy(&buf);
}

static void one_message(const msgpack_object *o)
{
    reread(o);
    sdk_rpc_msg m;
    bool known;
    sdk_error err;
    if (!sdk_rpc_parse(o, &m, &known, &err)) return;
    (void)sdk_rpc_method_is(&m, "solve");
    if (m.params) {
        read_params(m.params);
        step_round_trip(m.params);
    }
    if (m.type == SDK_RPC_RESPONSE && m.result) {
        step_round_trip(m.result);
        const msgpack_object *steps = sdk_wire_get(m.result, "steps");
        for (uint32_t i = 0;
             steps && steps->type == MSGPACK_OBJECT_ARRAY && i < steps->via.array.size; i++)
            step_round_trip(&steps->via.array.ptr[i]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;
    size_t piece = data[0] == 0 ? size : data[0];
    data++, size--;
    sdk_wire_reader r, f; /* f: the same bytes through next()'s fast path */
    if (!sdk_wire_reader_init(&r, 1 << 16)) return 0;
    if (!sdk_wire_reader_init(&f, 1 << 16)) {
        sdk_wire_reader_free(&r);
        return 0;
    }
    f.fast = true;
    sdk_error err, ferr;
    bool dead = false;
    for (size_t off = 0; off < size && !dead; off += piece) {
        size_t n = size - off < piece ? size - off : piece;
        if (!sdk_wire_reader_feed(&r, data + off, n) || !sdk_wire_reader_feed(&f, data + off, n))
            break;
        for (;;) {
            msgpack_unpacked up;
            msgpack_unpacked_init(&up);
            int rc = sdk_wire_reader_take(&r, &up, &err);
            const msgpack_object *fo;
            int frc = sdk_wire_reader_next(&f, &fo, &ferr);
            if (frc != rc || (rc == 1 && !same_objects(&up.data, fo))) {
                fprintf(stderr, "fuzz_wire: the fast reader reads otherwise (%d, %d)\n", rc, frc);
                abort();
            }
            if (rc == 1) one_message(&up.data);
            msgpack_unpacked_destroy(&up);
            if (rc < 0) dead = true; /* the stream cannot be resynchronised */
            if (rc != 1) break;
        }
    }
    (void)sdk_wire_reader_pending(&r);
    sdk_wire_reader_free(&r);
    sdk_wire_reader_free(&f);
    return 0;
}
