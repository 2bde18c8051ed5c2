/* test_wire.c - the msgpack-rpc codec: framing in pieces, limits, garbage,
 * message shapes, typed lookups, the packed form of a step and its way back
 * (pack, unpack, compare every field), the role table, the socket path and
 * the heap marked for huge pages. */
#include "testutil.h"
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sudoku/technique.h"
#include "sudoku/wire.h"

typedef struct packed {
    msgpack_sbuffer buf;
    msgpack_packer pk;
} packed;

static void packed_init(packed *p)
{
    msgpack_sbuffer_init(&p->buf);
    msgpack_packer_init(&p->pk, &p->buf, msgpack_sbuffer_write);
}

/* Decode exactly one message from bytes (the reader keeps it alive). */
static const msgpack_object *decode(sdk_wire_reader *r, const char *data, size_t n)
{
    sdk_error err;
    const msgpack_object *o = NULL;
    assert_true(sdk_wire_reader_init(r, 1 << 20));
    assert_true(sdk_wire_reader_feed(r, data, n));
    assert_int_equal(sdk_wire_reader_next(r, &o, &err), 1);
    return o;
}

static void pack_request(packed *p, uint32_t msgid, const char *method, const char *puzzle)
{
    sdk_wire_request_head(&p->pk, msgid, method);
    msgpack_pack_array(&p->pk, 1);
    msgpack_pack_map(&p->pk, 2);
    sdk_wire_kv_str(&p->pk, "puzzle", puzzle);
    sdk_wire_kv_bool(&p->pk, "no_guess", true);
}

static void test_request_in_pieces(void **state)
{
    (void)state;
    packed p;
    packed_init(&p);
    pack_request(
        &p, 77, "rate",
        "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..");
    pack_request(&p, 78, "solve", "x");
    sdk_wire_reader r;
    assert_true(sdk_wire_reader_init(&r, 1 << 20));
    sdk_error err;
    const msgpack_object *o;
    int got = 0;
    for (size_t i = 0; i < p.buf.size; i++) {
        assert_true(sdk_wire_reader_feed(&r, p.buf.data + i, 1));
        int rc;
        while ((rc = sdk_wire_reader_next(&r, &o, &err)) == 1) {
            sdk_rpc_msg m;
            bool known;
            assert_true(sdk_rpc_parse(o, &m, &known, &err));
            assert_true(known);
            assert_int_equal(m.type, SDK_RPC_REQUEST);
            assert_int_equal(m.msgid, 77 + got);
            assert_true(sdk_rpc_method_is(&m, got == 0 ? "rate" : "solve"));
            assert_false(sdk_rpc_method_is(&m, "rat"));
            assert_non_null(m.params);
            const char *s = NULL;
            uint32_t n = 0;
            assert_true(sdk_wire_get_str(m.params, "puzzle", &s, &n, &err));
            assert_int_equal(n, got == 0 ? 81 : 1);
            bool ng = false;
            assert_true(sdk_wire_get_bool(m.params, "no_guess", &ng, &err));
            assert_true(ng);
            got++;
        }
        assert_int_equal(rc, 0);
    }
    assert_int_equal(got, 2);
    assert_int_equal(sdk_wire_reader_pending(&r), 0);
    sdk_wire_reader_free(&r);
    msgpack_sbuffer_destroy(&p.buf);
}

static void test_zero_copy_space(void **state)
{
    (void)state;
    packed p;
    packed_init(&p);
    pack_request(&p, 5, "hint", "abc");
    sdk_wire_reader r;
    assert_true(sdk_wire_reader_init(&r, 1 << 20));
    size_t room = 0;
    char *space = sdk_wire_reader_space(&r, p.buf.size, &room);
    assert_non_null(space);
    assert_true(room >= p.buf.size);
    memcpy(space, p.buf.data, p.buf.size);
    sdk_wire_reader_commit(&r, p.buf.size);
    const msgpack_object *o;
    sdk_error err;
    assert_int_equal(sdk_wire_reader_next(&r, &o, &err), 1);
    assert_int_equal(sdk_wire_reader_next(&r, &o, &err), 0);
    sdk_wire_reader_free(&r);
    msgpack_sbuffer_destroy(&p.buf);
}

static void test_too_large(void **state)
{
    (void)state;
    char big[300];
    memset(big, '.', sizeof big - 1);
    big[sizeof big - 1] = 0;
    packed p;
    packed_init(&p);
    pack_request(&p, 1, "rate", big);
    sdk_wire_reader r;
    assert_true(sdk_wire_reader_init(&r, 100));
    sdk_error err = {"", ""};
    const msgpack_object *o;
    int rc = 0;
    for (size_t i = 0; i < p.buf.size && rc == 0; i += 50) {
        size_t n = p.buf.size - i < 50 ? p.buf.size - i : 50;
        assert_true(sdk_wire_reader_feed(&r, p.buf.data + i, n));
        rc = sdk_wire_reader_next(&r, &o, &err);
    }
    assert_int_equal(rc, -1);
    assert_string_equal(err.code, SDK_E_TOO_LARGE);
    assert_non_null(strstr(err.msg, "100 bytes"));
    sdk_wire_reader_free(&r);

    /* the same message arriving in one piece */
    assert_true(sdk_wire_reader_init(&r, 100));
    assert_true(sdk_wire_reader_feed(&r, p.buf.data, p.buf.size));
    assert_int_equal(sdk_wire_reader_next(&r, &o, &err), -1);
    assert_string_equal(err.code, SDK_E_TOO_LARGE);
    sdk_wire_reader_free(&r);

    /* a message of exactly the limit (as metered: bytes and parse memory)
     * passes, in pieces or not */
    size_t cost = sdk_wire_message_cost(p.buf.data, p.buf.size);
    assert_true(cost > p.buf.size && cost < p.buf.size + 1024);
    for (size_t step = 1; step <= p.buf.size; step += p.buf.size - 1) {
        assert_true(sdk_wire_reader_init(&r, cost));
        rc = 0;
        for (size_t i = 0; i < p.buf.size && rc == 0; i += step) {
            size_t n = p.buf.size - i < step ? p.buf.size - i : step;
            assert_true(sdk_wire_reader_feed(&r, p.buf.data + i, n));
            rc = sdk_wire_reader_next(&r, &o, &err);
        }
        assert_int_equal(rc, 1);
        sdk_wire_reader_free(&r);
    }
    /* one byte over the limit, fed byte by byte */
    assert_true(sdk_wire_reader_init(&r, cost - 1));
    rc = 0;
    for (size_t i = 0; i < p.buf.size && rc == 0; i++) {
        assert_true(sdk_wire_reader_feed(&r, p.buf.data + i, 1));
        rc = sdk_wire_reader_next(&r, &o, &err);
    }
    assert_int_equal(rc, -1);
    assert_string_equal(err.code, SDK_E_TOO_LARGE);
    sdk_wire_reader_free(&r);
    msgpack_sbuffer_destroy(&p.buf);
}

/* Headers that claim more than the limit are refused at the header, before
 * the parser allocates for them (an array of 2^28 elements would be 6 GiB);
 * elements are counted at their parse size, not their one wire byte; deep
 * nesting is a bad request, not "out of memory". */
static void test_lying_headers(void **state)
{
    (void)state;
    sdk_wire_reader r;
    sdk_error err = {"", ""};
    const msgpack_object *o;
    const char *heads[] = {"\xdd\x10\x00\x00\x00", "\xdf\x10\x00\x00\x00", "\xdb\x7f\xff\xff\xff",
                           "\xc6\x7f\xff\xff\xff", "\x94\x00\x01\xdd\xff\xff\xff\xff"};
    const size_t lens[] = {5, 5, 5, 5, 8};
    for (size_t i = 0; i < sizeof heads / sizeof *heads; i++) {
        assert_true(sdk_wire_reader_init(&r, 16 << 20));
        assert_true(sdk_wire_reader_feed(&r, heads[i], lens[i]));
        assert_int_equal(sdk_wire_reader_next(&r, &o, &err), -1);
        assert_string_equal(err.code, SDK_E_TOO_LARGE);
        sdk_wire_reader_free(&r);
    }
    /* an array of 2^24 nils: 16 MB of wire bytes is 400 MB parsed: refused
     * after about limit / 24 of them */
    assert_true(sdk_wire_reader_init(&r, 1 << 20));
    assert_true(sdk_wire_reader_feed(&r, "\xdd\x01\x00\x00\x00", 5));
    assert_int_equal(sdk_wire_reader_next(&r, &o, &err), -1);
    assert_string_equal(err.code, SDK_E_TOO_LARGE);
    sdk_wire_reader_free(&r);
    /* a small array of nils passes; the partial cost is reported meanwhile */
    assert_true(sdk_wire_reader_init(&r, 1 << 20));
    assert_true(sdk_wire_reader_feed(&r, "\xdc\x01\x00\xc0\xc0", 5));
    assert_int_equal(sdk_wire_reader_next(&r, &o, &err), 0);
    assert_true(sdk_wire_reader_partial(&r) >= 256 * sizeof(msgpack_object));
    char nils[254];
    memset(nils, 0xc0, sizeof nils);
    assert_true(sdk_wire_reader_feed(&r, nils, sizeof nils));
    assert_int_equal(sdk_wire_reader_next(&r, &o, &err), 1);
    assert_int_equal(o->via.array.size, 256);
    assert_int_equal(sdk_wire_reader_partial(&r), 0);
    sdk_wire_reader_free(&r);
    /* nesting: 10,000 levels */
    char deep[10000];
    memset(deep, 0x91, sizeof deep);
    assert_true(sdk_wire_reader_init(&r, 1 << 20));
    assert_true(sdk_wire_reader_feed(&r, deep, sizeof deep));
    assert_int_equal(sdk_wire_reader_next(&r, &o, &err), -1);
    assert_string_equal(err.code, SDK_E_REQUEST);
    assert_non_null(strstr(err.msg, "nested deeper than 32 levels"));
    sdk_wire_reader_free(&r);
    /* 32 levels are fine */
    assert_true(sdk_wire_reader_init(&r, 1 << 20));
    assert_true(sdk_wire_reader_feed(&r, deep, 31));
    assert_true(sdk_wire_reader_feed(&r, "\x90", 1));
    assert_int_equal(sdk_wire_reader_next(&r, &o, &err), 1);
    sdk_wire_reader_free(&r);
    /* good messages before a refused one are still returned */
    assert_true(sdk_wire_reader_init(&r, 4096));
    assert_true(sdk_wire_reader_feed(&r, "\x93\x01\x02\x03\x92\x04\x05\xdd\x10\x00\x00\x00", 12));
    assert_int_equal(sdk_wire_reader_next(&r, &o, &err), 1);
    assert_int_equal(sdk_wire_reader_next(&r, &o, &err), 1);
    assert_int_equal(o->via.array.size, 2);
    assert_int_equal(sdk_wire_reader_next(&r, &o, &err), -1);
    assert_string_equal(err.code, SDK_E_TOO_LARGE);
    sdk_wire_reader_free(&r);
}

/* A batch's answers, small arrays of scalars ([solution, guesses]), are
 * metered whole when they are all there: the same cost, and the same limit
 * decisions, as byte by byte; a small array holding a container, or one
 * cut short, goes the byte-by-byte way. */
static void test_meter_small_arrays(void **state)
{
    (void)state;
    packed p;
    packed_init(&p);
    char sol[81];
    memset(sol, '5', sizeof sol);
    msgpack_pack_array(&p.pk, 4);
    msgpack_pack_uint32(&p.pk, 1);
    msgpack_pack_uint32(&p.pk, 9);
    msgpack_pack_nil(&p.pk);
    msgpack_pack_map(&p.pk, 1);
    msgpack_pack_str(&p.pk, 7);
    msgpack_pack_str_body(&p.pk, "results", 7);
    msgpack_pack_array(&p.pk, 40);
    for (int i = 0; i < 40; i++) {
        if (i == 7) { /* a small array with an array in it */
            msgpack_pack_array(&p.pk, 2);
            msgpack_pack_array(&p.pk, 1);
            msgpack_pack_true(&p.pk);
            msgpack_pack_int8(&p.pk, -3);
            continue;
        }
        msgpack_pack_array(&p.pk, i == 9 ? 15 : 2);
        msgpack_pack_str(&p.pk, sizeof sol);
        msgpack_pack_str_body(&p.pk, sol, sizeof sol);
        msgpack_pack_uint64(&p.pk, (uint64_t)i * 100000u);
        for (int k = 2; i == 9 && k < 15; k++) msgpack_pack_uint8(&p.pk, (uint8_t)k);
    }
    size_t cost = sdk_wire_message_cost(p.buf.data, p.buf.size); /* byte by byte */
    assert_true(cost > p.buf.size && cost != SIZE_MAX);
    sdk_wire_meter m;
    sdk_wire_meter_reset(&m);
    size_t complete = 0;
    sdk_error err;
    assert_int_equal(sdk_wire_meter_scan(&m, p.buf.data, p.buf.size, cost, &complete, &err), 0);
    assert_int_equal(complete, 1);
    assert_int_equal(m.last_cost, cost);
    /* in pieces that cut answers anywhere, at the limit and one below it */
    for (size_t step = 1; step < p.buf.size; step = step * 2 + 1)
        for (size_t max = cost - 1; max <= cost; max++) {
            sdk_wire_reader r;
            assert_true(sdk_wire_reader_init(&r, max));
            const msgpack_object *o;
            int rc = 0;
            for (size_t i = 0; i < p.buf.size && rc == 0; i += step) {
                size_t n = p.buf.size - i < step ? p.buf.size - i : step;
                assert_true(sdk_wire_reader_feed(&r, p.buf.data + i, n));
                rc = sdk_wire_reader_next(&r, &o, &err);
            }
            if (max == cost) {
                assert_int_equal(rc, 1);
                assert_int_equal(o->via.array.ptr[3].via.map.ptr[0].val.via.array.size, 40);
            } else {
                assert_int_equal(rc, -1);
                assert_string_equal(err.code, SDK_E_TOO_LARGE);
            }
            sdk_wire_reader_free(&r);
        }
    msgpack_sbuffer_destroy(&p.buf);
}

/* A random object of every msgpack kind (ints of each width, floats, str,
 * bin and ext of each header size, nested arrays and maps of each header
 * size), so that the meter and msgpack-c agree on where messages end. */
static unsigned rnd_state = 12345;
static unsigned rnd(unsigned n)
{
    rnd_state = rnd_state * 1103515245u + 12345u;
    return (rnd_state >> 8) % n;
}

static void pack_random(msgpack_packer *pk, int depth)
{
    static char blob[70000];
    unsigned k = rnd(depth > 3 ? 12 : 15);
    size_t lens[] = {0, 5, 31, 32, 200, 300, 66000};
    size_t len = lens[rnd(depth > 1 ? 6 : 7)];
    switch (k) {
    case 0:
        msgpack_pack_nil(pk);
        break;
    case 1:
        msgpack_pack_true(pk);
        break;
    case 2:
        msgpack_pack_int64(pk, -(int64_t)rnd(100000) * (int64_t)rnd(100000) - 1);
        break;
    case 3:
        msgpack_pack_uint64(pk, (uint64_t)rnd(1u << 30) << rnd(34));
        break;
    case 4:
        msgpack_pack_int8(pk, -5);
        break;
    case 5:
        msgpack_pack_float(pk, 1.5f);
        break;
    case 6:
        msgpack_pack_double(pk, 2.25);
        break;
    case 7:
        msgpack_pack_str(pk, len);
        msgpack_pack_str_body(pk, blob, len);
        break;
    case 8:
        msgpack_pack_bin(pk, len);
        msgpack_pack_bin_body(pk, blob, len);
        break;
    case 9: {
        size_t el[] = {1, 2, 4, 8, 16, 0, 3, 300, 70000};
        size_t n = el[rnd(depth > 1 ? 8 : 9)];
        msgpack_pack_ext(pk, n, 7);
        msgpack_pack_ext_body(pk, blob, n);
        break;
    }
    case 10:
        msgpack_pack_uint16(pk, 300);
        break;
    case 11:
        msgpack_pack_int32(pk, -70000);
        break;
    case 12:
    case 13: {
        unsigned sizes[] = {0, 1, 3, 15, 16, 20};
        unsigned n = sizes[rnd(6)];
        msgpack_pack_array(pk, n);
        for (unsigned i = 0; i < n; i++) pack_random(pk, depth + 1);
        break;
    }
    default: {
        unsigned sizes[] = {0, 1, 2, 15, 16, 17};
        unsigned n = sizes[rnd(6)];
        msgpack_pack_map(pk, n);
        for (unsigned i = 0; i < 2 * n; i++) pack_random(pk, depth + 1);
        break;
    }
    }
}

static void test_meter_agrees(void **state)
{
    (void)state;
    packed p;
    packed_init(&p);
    int n = 300;
    for (int i = 0; i < n; i++) pack_random(&p.pk, 0);
    /* in pieces of every size from 1 byte */
    for (size_t step = 1; step < 5000; step = step * 3 + 1) {
        sdk_wire_reader r;
        assert_true(sdk_wire_reader_init(&r, 64 << 20));
        sdk_error err = {"", ""};
        const msgpack_object *o;
        int got = 0, rc;
        for (size_t i = 0; i < p.buf.size; i += step) {
            size_t k = p.buf.size - i < step ? p.buf.size - i : step;
            assert_true(sdk_wire_reader_feed(&r, p.buf.data + i, k));
            while ((rc = sdk_wire_reader_next(&r, &o, &err)) == 1) got++;
            assert_int_equal(rc, 0);
        }
        assert_int_equal(got, n);
        assert_int_equal(sdk_wire_reader_partial(&r), 0);
        sdk_wire_reader_free(&r);
    }
    msgpack_sbuffer_destroy(&p.buf);
}

static void test_garbage(void **state)
{
    (void)state;
    sdk_wire_reader r;
    assert_true(sdk_wire_reader_init(&r, 1 << 20));
    const char junk[] = "\x94\x00\x01\xc1\xc1"; /* 0xc1 is never valid msgpack */
    assert_true(sdk_wire_reader_feed(&r, junk, sizeof junk - 1));
    sdk_error err = {"", ""};
    const msgpack_object *o;
    assert_int_equal(sdk_wire_reader_next(&r, &o, &err), -1);
    assert_string_equal(err.code, SDK_E_REQUEST);
    assert_non_null(strstr(err.msg, "not msgpack"));
    sdk_wire_reader_free(&r);
}

/* The reader walks headers before msgpack allocates: a few bytes that
 * declare a huge container are refused at once, whatever the pieces. */
static void test_declared_huge(void **state)
{
    (void)state;
    static const struct {
        const char *bytes;
        size_t n;
    } bombs[] = {
        {"\x94\x00\x01\xa5solve\xdf\xdf\xdf\xdf\xdf", 14}, /* params: a map of 3.7e9 entries */
        {"\xdd\xff\xff\xff\xff", 5},                       /* an array of 4.3e9 elements */
        {"\x91\xdb\x7f\xff\xff\xff", 6},                   /* a string of 2 GiB */
        /* small enough for malloc, too big for the limit: msgpack alone
         * would allocate 2 MB and wait for more */
        {"\x81\xa1k\xde\xff\xff", 6},
    };
    for (size_t i = 0; i < sizeof bombs / sizeof bombs[0]; i++) {
        sdk_wire_reader r;
        assert_true(sdk_wire_reader_init(&r, 1000));
        assert_true(sdk_wire_reader_feed(&r, bombs[i].bytes, bombs[i].n));
        sdk_error err = {"", ""};
        const msgpack_object *o;
        assert_int_equal(sdk_wire_reader_next(&r, &o, &err), -1);
        assert_string_equal(err.code, SDK_E_TOO_LARGE);
        sdk_wire_reader_free(&r);
    }
}

/* Every msgpack type, at every width, passes the walk and reads back whole,
 * fed in one piece and byte by byte. */
static void test_every_type(void **state)
{
    (void)state;
    static char blob[70000];
    memset(blob, 'x', sizeof blob);
    packed p;
    packed_init(&p);
    msgpack_packer *pk = &p.pk;
    msgpack_pack_array(pk, 43);
    msgpack_pack_nil(pk);
    msgpack_pack_true(pk);
    msgpack_pack_false(pk);
    const int64_t ints[] = {0,  127, 128, 255,  256,  65535,  65536,  4294967295LL,  4294967296LL,
                            -1, -32, -33, -128, -129, -32768, -32769, -2147483648LL, -2147483649LL};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) msgpack_pack_int64(pk, ints[i]);
    msgpack_pack_uint64(pk, UINT64_MAX);
    msgpack_pack_float(pk, 1.5f);
    msgpack_pack_double(pk, 2.5);
    const size_t lens[] = {0, 31, 32, 255, 256, 65535, 65536};
    for (size_t i = 0; i < 7; i++) { /* fixstr, str 8, str 16, str 32 */
        msgpack_pack_str(pk, lens[i]);
        msgpack_pack_str_body(pk, blob, lens[i]);
    }
    const size_t blens[] = {1, 256, 65536};
    for (size_t i = 0; i < 3; i++) { /* bin 8, 16, 32 */
        msgpack_pack_bin(pk, blens[i]);
        msgpack_pack_bin_body(pk, blob, blens[i]);
    }
    const size_t elens[] = {1, 2, 4, 8, 16, 3, 256, 65536}; /* fixext 1..16, ext 8, 16, 32 */
    for (size_t i = 0; i < 8; i++) {
        msgpack_pack_ext(pk, elens[i], 7);
        msgpack_pack_ext_body(pk, blob, elens[i]);
    }
    msgpack_pack_array(pk, 0); /* the 43rd element: an empty fixarray */
    /* then array 16, array 32 (as msgpack writes them: 16 and 65536 long)
     * and map 16, all in a second message */
    packed q;
    packed_init(&q);
    msgpack_pack_array(&q.pk, 3);
    msgpack_pack_array(&q.pk, 16);
    for (int i = 0; i < 16; i++) msgpack_pack_nil(&q.pk);
    msgpack_pack_array(&q.pk, 65536);
    for (int i = 0; i < 65536; i++) msgpack_pack_nil(&q.pk);
    msgpack_pack_map(&q.pk, 16);
    for (int i = 0; i < 16; i++) msgpack_pack_int(&q.pk, i), msgpack_pack_int(&q.pk, -i);
    for (size_t step = 0; step < 4; step++) { /* whole, bytewise; then with next()'s fast path */
        sdk_wire_reader r;
        assert_true(sdk_wire_reader_init(&r, 1 << 22)); /* 65536 objects: 1.5 MB parsed */
        r.fast = step >= 2;
        sdk_error err = {"", ""};
        const msgpack_object *o;
        int got = 0;
        const packed *msgs[] = {&p, &q};
        for (int m = 0; m < 2; m++) {
            size_t piece = step % 2 ? 1 : msgs[m]->buf.size;
            int rc = 0;
            for (size_t i = 0; i < msgs[m]->buf.size; i += piece) {
                assert_true(sdk_wire_reader_feed(&r, msgs[m]->buf.data + i, piece));
                rc = sdk_wire_reader_next(&r, &o, &err);
                if (rc != 0) break;
            }
            if (rc != 1) fail_msg("message %d, pieces of %zu: %d %s", m, step, rc, err.msg);
            assert_int_equal(o->type, MSGPACK_OBJECT_ARRAY);
            assert_int_equal(o->via.array.size, m ? 3 : 43);
            msgpack_unpacked u; /* the same objects as msgpack's own parser */
            msgpack_unpacked_init(&u);
            assert_int_equal(msgpack_unpack_next(&u, msgs[m]->buf.data, msgs[m]->buf.size, NULL),
                             MSGPACK_UNPACK_SUCCESS);
            assert_true(msgpack_object_equal(u.data, *o));
            msgpack_unpacked_destroy(&u);
            got++;
        }
        assert_int_equal(got, 2);
        assert_int_equal(sdk_wire_reader_pending(&r), 0);
        sdk_wire_reader_free(&r);
    }
    msgpack_sbuffer_destroy(&p.buf);
    msgpack_sbuffer_destroy(&q.buf);
}

/* sdk_wire_unpack: the objects msgpack's parser makes, with arrays of
 * strings (every head size, among other elements or alone, empty, nested)
 * read by its loop; any strict prefix is not a whole object. */
static void test_unpack_fast(void **state)
{
    (void)state;
    static char blob[70000];
    memset(blob, 'p', sizeof blob);
    packed p;
    packed_init(&p);
    msgpack_packer *pk = &p.pk;
    msgpack_pack_array(pk, 4);
    msgpack_pack_uint8(pk, 0);
    msgpack_pack_uint32(pk, 9);
    msgpack_pack_str_with_body(pk, "solve", 5);
    msgpack_pack_map(pk, 6);
    msgpack_pack_str_with_body(pk, "puzzles", 7); /* strings of every head size */
    const size_t lens[] = {0, 31, 32, 81, 255, 256, 65535, 65536};
    msgpack_pack_array(pk, 8);
    for (size_t i = 0; i < 8; i++) msgpack_pack_str_with_body(pk, blob, lens[i]);
    msgpack_pack_str_with_body(pk, "mixed", 5); /* strings, then not */
    msgpack_pack_array(pk, 3);
    msgpack_pack_str_with_body(pk, blob, 81);
    msgpack_pack_str_with_body(pk, blob, 3);
    msgpack_pack_int(pk, -7);
    msgpack_pack_str_with_body(pk, "empty", 5);
    msgpack_pack_array(pk, 0);
    msgpack_pack_str_with_body(pk, "nested", 6); /* arrays of string arrays, a map inside */
    msgpack_pack_array(pk, 2);
    msgpack_pack_array(pk, 17); /* array 16 */
    for (int i = 0; i < 17; i++) msgpack_pack_str_with_body(pk, blob, (size_t)i);
    msgpack_pack_map(pk, 1);
    msgpack_pack_bin_with_body(pk, blob, 2);
    msgpack_pack_array(pk, 1);
    msgpack_pack_str_with_body(pk, blob, 1);
    msgpack_pack_str_with_body(pk, "compact", 7);
    msgpack_pack_true(pk);
    msgpack_pack_int(pk, 5); /* a key that is no string */
    msgpack_pack_double(pk, 0.5);
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    assert_int_equal(msgpack_unpack_next(&u, p.buf.data, p.buf.size, NULL), MSGPACK_UNPACK_SUCCESS);
    msgpack_zone *z = msgpack_zone_new(MSGPACK_ZONE_CHUNK_SIZE);
    msgpack_object o;
    size_t off = 0;
    assert_true(sdk_wire_unpack(p.buf.data, p.buf.size, &off, z, &o));
    assert_int_equal(off, p.buf.size);
    assert_true(msgpack_object_equal(u.data, o));
    /* the puzzles point into the bytes, as msgpack's do */
    const msgpack_object *pz = &o.via.array.ptr[3].via.map.ptr[0].val;
    assert_int_equal(pz->via.array.size, 8);
    assert_ptr_equal(pz->via.array.ptr[3].via.str.ptr,
                     u.data.via.array.ptr[3].via.map.ptr[0].val.via.array.ptr[3].via.str.ptr);
    /* two messages one after the other: the first, and off between them */
    size_t one = p.buf.size;
    char *two = malloc(2 * one);
    assert_non_null(two);
    memcpy(two, p.buf.data, one);
    memcpy(two + one, p.buf.data, one);
    off = 0;
    assert_true(sdk_wire_unpack(two, 2 * one, &off, z, &o));
    assert_int_equal(off, one);
    assert_true(sdk_wire_unpack(two, 2 * one, &off, z, &o));
    assert_int_equal(off, 2 * one);
    assert_true(msgpack_object_equal(u.data, o));
    free(two);
    for (size_t cut = 0; cut < one; cut += cut < 400 ? 1 : 997) {
        off = 0;
        assert_false(sdk_wire_unpack(p.buf.data, cut, &off, z, &o));
    }
    msgpack_zone_free(z);
    msgpack_unpacked_destroy(&u);
    msgpack_sbuffer_destroy(&p.buf);
}

/* Build a message from a small recipe and check what rpc_parse says. */
static void check_shape(void (*build)(msgpack_packer *), bool ok, bool known, const char *needle)
{
    packed p;
    packed_init(&p);
    build(&p.pk);
    sdk_wire_reader r;
    const msgpack_object *o = decode(&r, p.buf.data, p.buf.size);
    sdk_rpc_msg m;
    bool k = !known;
    sdk_error err = {"", ""};
    assert_int_equal(sdk_rpc_parse(o, &m, &k, &err), ok);
    assert_int_equal(k, known);
    if (!ok) {
        assert_string_equal(err.code, SDK_E_REQUEST);
        assert_non_null(strstr(err.msg, needle));
    }
    sdk_wire_reader_free(&r);
    msgpack_sbuffer_destroy(&p.buf);
}

static void b_not_array(msgpack_packer *pk)
{
    sdk_wire_str(pk, "hello");
}
static void b_bad_type(msgpack_packer *pk)
{
    msgpack_pack_array(pk, 4);
    msgpack_pack_int(pk, 7);
    msgpack_pack_int(pk, 1);
    sdk_wire_str(pk, "rate");
    msgpack_pack_array(pk, 0);
}
static void b_neg_msgid(msgpack_packer *pk)
{
    msgpack_pack_array(pk, 4);
    msgpack_pack_int(pk, 0);
    msgpack_pack_int(pk, -3);
    sdk_wire_str(pk, "rate");
    msgpack_pack_array(pk, 0);
}
static void b_method_int(msgpack_packer *pk)
{
    msgpack_pack_array(pk, 4);
    msgpack_pack_int(pk, 0);
    msgpack_pack_int(pk, 9);
    msgpack_pack_int(pk, 3);
    msgpack_pack_array(pk, 0);
}
static void b_params_two(msgpack_packer *pk)
{
    sdk_wire_request_head(pk, 9, "rate");
    msgpack_pack_array(pk, 2);
    msgpack_pack_map(pk, 0);
    msgpack_pack_map(pk, 0);
}
static void b_params_str(msgpack_packer *pk)
{
    sdk_wire_request_head(pk, 9, "rate");
    msgpack_pack_array(pk, 1);
    sdk_wire_str(pk, "x");
}
static void b_params_empty(msgpack_packer *pk)
{
    sdk_wire_request_head(pk, 9, "status");
    msgpack_pack_array(pk, 0);
}
static void b_notify(msgpack_packer *pk)
{
    sdk_wire_notify_head(pk, "progress");
    msgpack_pack_array(pk, 1);
    msgpack_pack_map(pk, 0);
}

static void test_shapes(void **state)
{
    (void)state;
    check_shape(b_not_array, false, false, "array");
    check_shape(b_bad_type, false, false, "type");
    check_shape(b_neg_msgid, false, false, "msgid");
    check_shape(b_method_int, false, true, "method");
    check_shape(b_params_two, false, true, "one map");
    check_shape(b_params_str, false, true, "one map");
    check_shape(b_params_empty, true, true, "");
    check_shape(b_notify, true, false, "");
}

static void test_response_error(void **state)
{
    (void)state;
    packed p;
    packed_init(&p);
    sdk_error e;
    sdk_error_set(&e, SDK_E_BUSY, "queue full (%d requests)", 12);
    sdk_wire_response_error(&p.pk, 4000000000u, &e);
    sdk_wire_reader r;
    const msgpack_object *o = decode(&r, p.buf.data, p.buf.size);
    sdk_rpc_msg m;
    bool known;
    sdk_error err;
    assert_true(sdk_rpc_parse(o, &m, &known, &err));
    assert_int_equal(m.type, SDK_RPC_RESPONSE);
    assert_int_equal(m.msgid, 4000000000u);
    assert_non_null(m.error);
    assert_int_equal(m.result->type, MSGPACK_OBJECT_NIL);
    char code[32], msg[64];
    assert_true(sdk_wire_copy_str(sdk_wire_get(m.error, "code"), code, sizeof code));
    assert_true(sdk_wire_copy_str(sdk_wire_get(m.error, "message"), msg, sizeof msg));
    assert_string_equal(code, "busy");
    assert_string_equal(msg, "queue full (12 requests)");
    assert_false(sdk_wire_copy_str(sdk_wire_get(m.error, "message"), msg, 5)); /* too small */
    sdk_wire_reader_free(&r);
    msgpack_sbuffer_destroy(&p.buf);
}

static void test_typed_lookups(void **state)
{
    (void)state;
    packed p;
    packed_init(&p);
    msgpack_pack_map(&p.pk, 4);
    sdk_wire_kv_str(&p.pk, "all", "yes");
    sdk_wire_kv_int(&p.pk, "max_trace", 5000);
    sdk_wire_kv_int(&p.pk, "neg", -4);
    sdk_wire_str(&p.pk, "nothing");
    msgpack_pack_nil(&p.pk);
    sdk_wire_reader r;
    const msgpack_object *o = decode(&r, p.buf.data, p.buf.size);
    sdk_error err = {"", ""};
    bool b = false;
    assert_false(sdk_wire_get_bool(o, "all", &b, &err));
    assert_string_equal(err.code, SDK_E_REQUEST);
    assert_non_null(strstr(err.msg, "'all'"));
    b = true;
    assert_true(sdk_wire_get_bool(o, "absent", &b, &err));
    assert_true(b);                                         /* untouched */
    assert_true(sdk_wire_get_bool(o, "nothing", &b, &err)); /* nil counts as absent */
    long x = 1;
    assert_true(sdk_wire_get_int(o, "max_trace", 1, 10000, &x, &err));
    assert_int_equal(x, 5000);
    assert_false(sdk_wire_get_int(o, "max_trace", 1, 100, &x, &err));
    assert_non_null(strstr(err.msg, "between 1 and 100"));
    assert_false(sdk_wire_get_int(o, "neg", 0, 100, &x, &err));
    assert_true(sdk_wire_get_int(o, "neg", -10, 100, &x, &err));
    assert_int_equal(x, -4);
    assert_false(sdk_wire_get_int(o, "all", 0, 1, &x, &err));
    assert_non_null(strstr(err.msg, "integer"));
    const char *s;
    uint32_t n;
    assert_false(sdk_wire_get_str(o, "neg", &s, &n, &err));
    assert_null(sdk_wire_get(o, "missing"));
    assert_null(sdk_wire_get(sdk_wire_get(o, "all"), "x")); /* not a map */
    sdk_wire_reader_free(&r);
    msgpack_sbuffer_destroy(&p.buf);
}

static int find_nothing(const sdk_ctx *c, const sdk_grid *g, sdk_sink *s)
{
    (void)c, (void)g, (void)s;
    return 0;
}

static const sdk_technique fake = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "x-wing",
    .name = "X-Wing",
    .difficulty = 32,
    .find = find_nothing,
};

static void test_step(void **state)
{
    (void)state;
    static sdk_step s;
    memset(&s, 0, sizeof s);
    s.tech = &fake;
    s.difficulty = 32;
    s.nplace = 1;
    s.place[0] = (sdk_cand){1, 5}; /* r1c2=5 */
    s.nelim = 2;
    s.elim[0] = (sdk_cand){19, 7}; /* r3c2<>7 */
    s.elim[1] = (sdk_cand){80, 9}; /* r9c9<>9 */
    s.nmark = 1;
    s.mark[0] = (sdk_mark){10, 7, SDK_ROLE_FIN};
    s.nhouse = 2;
    s.house[0] = (sdk_house_mark){1, SDK_ROLE_BASE};
    s.house[1] = (sdk_house_mark){10, SDK_ROLE_COVER};
    s.nlink = 2;
    s.link[0] = (sdk_link){
        .from = {1, 1, 1, {10}}, .to = {1, 0, 2, {12, 14}}, .strong = 1, .kind = SDK_LINK_GROUP};
    s.link[1] = (sdk_link){.from = {3, 0, 1, {0}},
                           .to = {3, 1, 2, {9, 18}},
                           .strong = 0,
                           .kind = SDK_LINK_ALS,
                           .nals = 2,
                           .als = {40, 41}};
    strcpy(s.text, "X-Wing: 7 r25 c28 => r3c2<>7");

    packed p;
    packed_init(&p);
    sdk_wire_pack_step(&p.pk, &s);
    sdk_wire_reader r;
    const msgpack_object *o = decode(&r, p.buf.data, p.buf.size);
    char buf[128];
    assert_true(sdk_wire_copy_str(sdk_wire_get(o, "technique"), buf, sizeof buf));
    assert_string_equal(buf, "x-wing");
    assert_true(sdk_wire_copy_str(sdk_wire_get(o, "name"), buf, sizeof buf));
    assert_string_equal(buf, "X-Wing");
    const msgpack_object *d = sdk_wire_get(o, "difficulty");
    assert_int_equal(d->type, MSGPACK_OBJECT_FLOAT64);
    assert_true(d->via.f64 > 3.19 && d->via.f64 < 3.21);
    const msgpack_object *pl = sdk_wire_get(o, "placements");
    assert_int_equal(pl->via.array.size, 1);
    assert_true(sdk_wire_str_is(&pl->via.array.ptr[0], "r1c2=5"));
    const msgpack_object *el = sdk_wire_get(o, "eliminations");
    assert_int_equal(el->via.array.size, 2);
    assert_true(sdk_wire_str_is(&el->via.array.ptr[0], "r3c2<>7"));
    assert_true(sdk_wire_str_is(&el->via.array.ptr[1], "r9c9<>9"));
    assert_true(sdk_wire_str_is(sdk_wire_get(o, "text"), "X-Wing: 7 r25 c28 => r3c2<>7"));
    const msgpack_object *mk = sdk_wire_get(o, "marks");
    assert_int_equal(mk->via.array.size, 1);
    assert_int_equal(mk->via.array.ptr[0].via.array.ptr[0].via.u64, 10);
    assert_int_equal(mk->via.array.ptr[0].via.array.ptr[1].via.u64, 7);
    assert_true(sdk_wire_str_is(&mk->via.array.ptr[0].via.array.ptr[2], "fin"));
    const msgpack_object *hs = sdk_wire_get(o, "houses");
    assert_int_equal(hs->via.array.size, 2);
    assert_true(sdk_wire_str_is(&hs->via.array.ptr[1].via.array.ptr[1], "cover"));
    const msgpack_object *ln = sdk_wire_get(o, "links");
    assert_int_equal(ln->via.array.size, 2);
    const msgpack_object *l0 = &ln->via.array.ptr[0];
    assert_true(sdk_wire_str_is(sdk_wire_get(l0, "from"), "r2c2/+1"));
    assert_true(sdk_wire_str_is(sdk_wire_get(l0, "to"), "r2c46/-1"));
    assert_int_equal(sdk_wire_get(l0, "strong")->via.boolean, true);
    assert_true(sdk_wire_str_is(sdk_wire_get(l0, "kind"), "group"));
    assert_null(sdk_wire_get(l0, "als"));
    const msgpack_object *l1 = &ln->via.array.ptr[1];
    assert_true(sdk_wire_str_is(sdk_wire_get(l1, "to"), "r23c1/+3"));
    assert_true(sdk_wire_str_is(sdk_wire_get(l1, "kind"), "als"));
    assert_int_equal(sdk_wire_get(l1, "als")->via.array.size, 2);
    assert_int_equal(sdk_wire_get(l1, "als")->via.array.ptr[1].via.u64, 41);
    assert_null(sdk_wire_get(o, "truncated"));
    sdk_wire_reader_free(&r);
    msgpack_sbuffer_destroy(&p.buf);
}

static void test_role_names(void **state)
{
    (void)state;
    assert_string_equal(sdk_wire_role_name(SDK_ROLE_PINCER), "pincer");
    assert_string_equal(sdk_wire_role_name(SDK_ROLE_TARGET), "target");
    assert_string_equal(sdk_wire_role_name(99), "none");
    assert_string_equal(sdk_wire_role_name(-1), "none");
}

/* ---- a step there and back ---------------------------------------------- */

/* Pack s, unpack it again into *out; the reader keeps the bytes meanwhile. */
static void round_trip(const sdk_step *s, sdk_wire_step *out)
{
    packed p;
    packed_init(&p);
    sdk_wire_pack_step(&p.pk, s);
    sdk_wire_reader r;
    const msgpack_object *o = decode(&r, p.buf.data, p.buf.size);
    sdk_error err = {"", ""};
    if (!sdk_wire_unpack_step(o, out, &err)) fail_msg("unpack: %s", err.msg);
    sdk_wire_reader_free(&r);
    msgpack_sbuffer_destroy(&p.buf);
}

static void assert_node_equal(const sdk_node *a, const sdk_node *b)
{
    assert_int_equal(a->digit, b->digit);
    assert_int_equal(a->on, b->on);
    assert_int_equal(a->ncell, b->ncell);
    for (int i = 0; i < a->ncell; i++) assert_int_equal(a->cell[i], b->cell[i]);
}

/* Every field the wire carries, compared one by one. */
static void assert_step_equal(const sdk_step *s, const sdk_wire_step *w)
{
    const sdk_step *u = &w->step;
    assert_string_equal(w->technique, s->tech->id);
    assert_string_equal(w->name, s->tech->name);
    assert_null(u->tech);
    assert_int_equal(u->difficulty, s->difficulty);
    assert_int_equal(u->nplace, s->nplace);
    for (int i = 0; i < s->nplace; i++) {
        assert_int_equal(u->place[i].cell, s->place[i].cell);
        assert_int_equal(u->place[i].digit, s->place[i].digit);
    }
    assert_int_equal(u->nelim, s->nelim);
    for (int i = 0; i < s->nelim; i++) {
        assert_int_equal(u->elim[i].cell, s->elim[i].cell);
        assert_int_equal(u->elim[i].digit, s->elim[i].digit);
    }
    assert_int_equal(u->nmark, s->nmark);
    for (int i = 0; i < s->nmark; i++) {
        assert_int_equal(u->mark[i].cell, s->mark[i].cell);
        assert_int_equal(u->mark[i].digit, s->mark[i].digit);
        assert_int_equal(u->mark[i].role, s->mark[i].role);
    }
    assert_int_equal(u->nhouse, s->nhouse);
    for (int i = 0; i < s->nhouse; i++) {
        assert_int_equal(u->house[i].house, s->house[i].house);
        assert_int_equal(u->house[i].role, s->house[i].role);
    }
    assert_int_equal(u->nlink, s->nlink);
    for (int i = 0; i < s->nlink; i++) {
        const sdk_link *a = &s->link[i], *b = &u->link[i];
        assert_node_equal(&a->from, &b->from);
        assert_node_equal(&a->to, &b->to);
        assert_int_equal(a->strong, b->strong);
        assert_int_equal(a->kind, b->kind);
        assert_int_equal(a->nals, b->nals);
        for (int k = 0; k < a->nals; k++) assert_int_equal(a->als[k], b->als[k]);
    }
    assert_string_equal(u->text, s->text);
    assert_int_equal(u->truncated, s->truncated);
    assert_int_equal(u->ninner, s->ninner);
    for (int i = 0; i < s->ninner; i++) {
        const sdk_inner *a = &s->inner[i], *b = &u->inner[i];
        assert_string_equal(sdk_step_inner_text(u, i), sdk_step_inner_text(s, i));
        assert_int_equal(a->nplace, b->nplace);
        assert_int_equal(a->nelim, b->nelim);
        assert_int_equal(a->truncated, b->truncated);
        for (int k = 0; k < a->nplace + a->nelim; k++) {
            assert_int_equal(a->effect[k].cell, b->effect[k].cell);
            assert_int_equal(a->effect[k].digit, b->effect[k].digit);
        }
    }
    assert_int_equal(u->nclaim, s->nclaim);
    for (int i = 0; i < s->nclaim; i++) {
        assert_int_equal(u->claim[i].cand.cell, s->claim[i].cand.cell);
        assert_int_equal(u->claim[i].cand.digit, s->claim[i].cand.digit);
        assert_int_equal(u->claim[i].place, s->claim[i].place);
        assert_true(u->claim[i].steps == s->claim[i].steps);
    }
}

static const sdk_technique fake_long = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "grouped-continuous-nice-loop",
    .name = "Grouped Continuous Nice Loop",
    .difficulty = 75,
    .find = find_nothing,
};

/* A node of one cell, or a group of 2-3 cells in one row, one column or
 * neither (written "r1c1,r2c3"). */
static sdk_node random_node(void)
{
    sdk_node nd = {.digit = (uint8_t)(1 + rand() % 9), .on = (uint8_t)(rand() % 2)};
    int shape = rand() % 4, c0 = rand() % 81;
    nd.ncell = (uint8_t)(shape == 0 ? 1 : 2 + rand() % 2);
    for (int i = 0; i < nd.ncell; i++) {
        int c = shape == 1   ? c0 / 9 * 9 + rand() % 9
                : shape == 2 ? rand() % 9 * 9 + c0 % 9
                             : rand() % 81;
        nd.cell[i] = (uint8_t)(i == 0 ? c0 : c);
    }
    return nd;
}

static void random_step(sdk_step *s)
{
    memset(s, 0, sizeof *s);
    s->tech = rand() % 2 ? &fake : &fake_long;
    s->difficulty = rand() % 200;
    s->nplace = (uint16_t)(rand() % 4);
    for (int i = 0; i < s->nplace; i++)
        s->place[i] = (sdk_cand){(uint8_t)(rand() % 81), (uint8_t)(1 + rand() % 9)};
    s->nelim = (uint16_t)(rand() % 2 ? rand() % 12 : rand() % (SDK_STEP_MAX_ELIM + 1));
    for (int i = 0; i < s->nelim; i++)
        s->elim[i] = (sdk_cand){(uint8_t)(rand() % 81), (uint8_t)(1 + rand() % 9)};
    s->nmark = (uint16_t)(rand() % (SDK_STEP_MAX_MARK + 1));
    for (int i = 0; i < s->nmark; i++)
        s->mark[i] = (sdk_mark){(uint8_t)(rand() % 81), (uint8_t)(rand() % 10),
                                (uint8_t)(rand() % SDK_ROLE_COUNT)};
    s->nhouse = (uint8_t)(rand() % (SDK_STEP_MAX_HOUSE + 1));
    for (int i = 0; i < s->nhouse; i++)
        s->house[i] = (sdk_house_mark){(uint8_t)(rand() % 27), (uint8_t)(rand() % SDK_ROLE_COUNT)};
    s->nlink = (uint16_t)(rand() % 3 ? rand() % 20 : rand() % (SDK_STEP_MAX_LINK + 1));
    for (int i = 0; i < s->nlink; i++) {
        sdk_link *l = &s->link[i];
        l->from = random_node();
        l->to = random_node();
        l->strong = (uint8_t)(rand() % 2);
        l->kind = (uint8_t)(rand() % 4);
        /* the set travels with ALS and group links only */
        if (l->kind == SDK_LINK_ALS || (l->kind == SDK_LINK_GROUP && rand() % 2)) {
            l->nals = (uint8_t)(1 + rand() % 9);
            for (int k = 0; k < l->nals; k++) l->als[k] = (uint8_t)(rand() % 81);
        }
    }
    int len = rand() % 3 ? rand() % 80 : SDK_STEP_TEXT - 1;
    for (int i = 0; i < len; i++) s->text[i] = (char)(' ' + rand() % 95);
    s->truncated = (uint8_t)(rand() % 2);
    if (rand() % 3) return;
    /* a nested step: inner steps (sdk_step_inner fills them from a step) and
     * claims over them, up to the limits */
    static sdk_step in;
    int n = rand() % 2 ? 1 + rand() % 8 : SDK_STEP_MAX_INNER;
    for (int i = 0; i < n; i++) {
        memset(&in, 0, sizeof in);
        in.tech = &fake;
        in.nplace = (uint16_t)(rand() % 2);
        in.place[0] = (sdk_cand){(uint8_t)(rand() % 81), (uint8_t)(1 + rand() % 9)};
        in.nelim = (uint16_t)(rand() % 16);
        for (int k = 0; k < in.nelim; k++)
            in.elim[k] = (sdk_cand){(uint8_t)(rand() % 81), (uint8_t)(1 + rand() % 9)};
        int tl = rand() % 70;
        for (int k = 0; k < tl; k++) in.text[k] = (char)(' ' + rand() % 95);
        assert_int_equal(sdk_step_inner(s, &in), i);
    }
    s->truncated = 0;
    int nc = rand() % (SDK_STEP_MAX_CLAIM + 1);
    for (int i = 0; i < nc; i++) {
        uint64_t m = ((uint64_t)rand() << 32 | (uint64_t)rand()) & ((1ULL << (n - 1)) * 2 - 1);
        sdk_step_claim(s, rand() % 81, 1 + rand() % 9, rand() % 2, m);
    }
}

static void test_step_round_trip(void **state)
{
    (void)state;
    static sdk_step s;
    static sdk_wire_step w;
    /* the hand-made step of test_step, with a whole-cell mark, a row group,
     * a column group, a group of neither and a truncated flag */
    memset(&s, 0, sizeof s);
    s.tech = &fake;
    s.difficulty = 32;
    s.nplace = 1;
    s.place[0] = (sdk_cand){1, 5};
    s.nelim = 2;
    s.elim[0] = (sdk_cand){19, 7};
    s.elim[1] = (sdk_cand){80, 9};
    s.nmark = 2;
    s.mark[0] = (sdk_mark){10, 7, SDK_ROLE_FIN};
    s.mark[1] = (sdk_mark){44, 0, SDK_ROLE_ENDOFIN};
    s.nhouse = 1;
    s.house[0] = (sdk_house_mark){26, SDK_ROLE_COVER};
    s.nlink = 3;
    s.link[0] = (sdk_link){.from = {1, 1, 1, {10}},
                           .to = {1, 0, 2, {12, 14}},
                           .strong = 1,
                           .kind = SDK_LINK_GROUP,
                           .nals = 3,
                           .als = {12, 13, 14}};
    s.link[1] = (sdk_link){.from = {3, 0, 3, {0, 9, 18}},
                           .to = {3, 1, 2, {0, 20}},
                           .kind = SDK_LINK_ALS,
                           .nals = 2,
                           .als = {40, 41}};
    s.link[2] = (sdk_link){.from = {9, 1, 1, {80}}, .to = {9, 0, 1, {72}}, .kind = SDK_LINK_HOUSE};
    strcpy(s.text, "X-Wing: 7 r25 c28 => r3c2<>7");
    s.truncated = 1;
    round_trip(&s, &w);
    assert_step_equal(&s, &w);

    /* and a thousand random ones, up to every limit of sdk_step */
    srand(8);
    for (int i = 0; i < 1000; i++) {
        random_step(&s);
        round_trip(&s, &w);
        assert_step_equal(&s, &w);
    }
}

/* Unpack a step packed by hand: first the key, then the value via fn. */
typedef void (*pack_fn)(msgpack_packer *pk);

static bool unpack_with(pack_fn value, const char *key, sdk_wire_step *w, sdk_error *err)
{
    packed p;
    packed_init(&p);
    msgpack_pack_map(&p.pk, 2);
    sdk_wire_kv_str(&p.pk, "technique", "x-wing");
    sdk_wire_str(&p.pk, key);
    value(&p.pk);
    sdk_wire_reader r;
    const msgpack_object *o = decode(&r, p.buf.data, p.buf.size);
    bool ok = sdk_wire_unpack_step(o, w, err);
    sdk_wire_reader_free(&r);
    msgpack_sbuffer_destroy(&p.buf);
    return ok;
}

static void bad_place(msgpack_packer *pk)
{
    msgpack_pack_array(pk, 1);
    sdk_wire_str(pk, "r1c2=0");
}
static void bad_elim(msgpack_packer *pk)
{
    msgpack_pack_array(pk, 1);
    sdk_wire_str(pk, "r1c2=5"); /* a placement among eliminations */
}
static void bad_mark(msgpack_packer *pk)
{
    msgpack_pack_array(pk, 1);
    msgpack_pack_array(pk, 3);
    msgpack_pack_uint8(pk, 81);
    msgpack_pack_uint8(pk, 1);
    sdk_wire_str(pk, "base");
}
static void odd_role(msgpack_packer *pk)
{
    msgpack_pack_array(pk, 2);
    for (int i = 0; i < 2; i++) {
        msgpack_pack_array(pk, 3);
        msgpack_pack_uint8(pk, 3);
        msgpack_pack_uint8(pk, 4);
        sdk_wire_str(pk, i ? "endo-fin" : "sparkly");
    }
}
static void bad_house(msgpack_packer *pk)
{
    msgpack_pack_array(pk, 1);
    msgpack_pack_array(pk, 2);
    msgpack_pack_uint8(pk, 27);
    sdk_wire_str(pk, "base");
}
static void bad_link(msgpack_packer *pk)
{
    msgpack_pack_array(pk, 1);
    msgpack_pack_map(pk, 2);
    sdk_wire_kv_str(pk, "from", "r1c1/+1");
    sdk_wire_kv_str(pk, "to", "r1c10/+1");
}
static void bad_difficulty(msgpack_packer *pk)
{
    sdk_wire_str(pk, "3.2");
}
static void too_many(msgpack_packer *pk)
{
    msgpack_pack_array(pk, SDK_STEP_MAX_PLACE + 1);
    for (int i = 0; i <= SDK_STEP_MAX_PLACE; i++) sdk_wire_str(pk, "r1c1=1");
}

static void test_step_unpack_refuses(void **state)
{
    (void)state;
    static sdk_wire_step w;
    sdk_error err = {"", ""};
    const struct {
        pack_fn fn;
        const char *key, *says;
    } bad[] = {
        {bad_place, "placements", "'placements'"},
        {bad_elim, "eliminations", "'eliminations'"},
        {bad_mark, "marks", "'marks'"},
        {bad_house, "houses", "'houses'"},
        {bad_link, "links", "'links'"},
        {bad_difficulty, "difficulty", "'difficulty'"},
        {too_many, "placements", "too many"},
        {bad_place, "name", "'name'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (unpack_with(bad[i].fn, bad[i].key, &w, &err)) fail_msg("%s: accepted", bad[i].key);
        assert_string_equal(err.code, SDK_E_REQUEST);
        if (!strstr(err.msg, bad[i].says)) fail_msg("%s: '%s'", bad[i].key, err.msg);
    }
    /* names it does not know are read as "none"; unknown keys are ignored */
    assert_true(unpack_with(odd_role, "marks", &w, &err));
    assert_int_equal(w.step.nmark, 2);
    assert_int_equal(w.step.mark[0].role, SDK_ROLE_NONE);
    assert_int_equal(w.step.mark[1].role, SDK_ROLE_ENDOFIN);
    assert_true(unpack_with(odd_role, "future-field", &w, &err));
    assert_int_equal(w.step.nmark, 0);
    assert_string_equal(w.technique, "x-wing");
    /* not a map at all */
    msgpack_object nil = {.type = MSGPACK_OBJECT_NIL};
    assert_false(sdk_wire_unpack_step(&nil, &w, &err));
}

static void test_role_table(void **state)
{
    (void)state;
    for (int r = 0; r < SDK_ROLE_COUNT; r++) {
        const char *name = sdk_wire_role_name(r);
        assert_int_equal(sdk_wire_role_parse(name, strlen(name)), r);
    }
    assert_int_equal(sdk_wire_role_parse("endo-fin", 8), SDK_ROLE_ENDOFIN);
    assert_int_equal(sdk_wire_role_parse("bas", 3), -1);
    assert_int_equal(sdk_wire_role_parse("basement", 4), SDK_ROLE_BASE); /* a length, not a NUL */
    assert_int_equal(sdk_wire_cell_parse("r9c9=1", 6), 80);
    assert_int_equal(sdk_wire_cell_parse("R1C2", 4), 1);
    assert_int_equal(sdk_wire_cell_parse("r0c1", 4), -1);
    assert_int_equal(sdk_wire_cell_parse("r1c", 3), -1);
}

static void test_lenient_reads(void **state)
{
    (void)state;
    msgpack_object big = {.type = MSGPACK_OBJECT_FLOAT64, .via.f64 = 1e300};
    msgpack_object neg = {.type = MSGPACK_OBJECT_NEGATIVE_INTEGER, .via.i64 = -3};
    msgpack_object huge = {.type = MSGPACK_OBJECT_POSITIVE_INTEGER, .via.u64 = UINT64_MAX};
    msgpack_object str = {.type = MSGPACK_OBJECT_STR, .via.str = {5, "hello"}};
    assert_int_equal(sdk_wire_int(&big, 7), 7); /* no undefined cast */
    assert_int_equal(sdk_wire_int(&neg, 7), -3);
    assert_true(sdk_wire_int(&huge, 7) == LLONG_MAX);
    assert_int_equal(sdk_wire_int(NULL, 7), 7);
    assert_true(sdk_wire_num(&neg, 0) == -3.0);
    assert_true(sdk_wire_num(&str, 1.5) == 1.5);
    assert_true(sdk_wire_bool(&huge, false));
    assert_false(sdk_wire_bool(&str, false));
    assert_int_equal(sdk_wire_len(&str), 0);
    char buf[4];
    assert_string_equal(sdk_wire_text(&str, buf, sizeof buf), "hel");
    assert_string_equal(sdk_wire_text(&neg, buf, sizeof buf), "");
}

/* take() hands a message over: it outlives the reader's next message. */
static void test_take(void **state)
{
    (void)state;
    packed p;
    packed_init(&p);
    pack_request(&p, 1, "rate", "first");
    pack_request(&p, 2, "rate", "second");
    for (int fast = 0; fast < 2; fast++) { /* take() hands over msgpack's objects either way */
        sdk_wire_reader r;
        assert_true(sdk_wire_reader_init(&r, 1 << 20));
        r.fast = fast;
        assert_true(sdk_wire_reader_feed(&r, p.buf.data, p.buf.size));
        sdk_error err;
        msgpack_unpacked a, b;
        msgpack_unpacked_init(&a);
        msgpack_unpacked_init(&b);
        assert_int_equal(sdk_wire_reader_take(&r, &a, &err), 1);
        assert_int_equal(sdk_wire_reader_take(&r, &b, &err), 1);
        assert_int_equal(sdk_wire_reader_take(&r, &b, &err), 0);
        sdk_wire_reader_free(&r);
        assert_int_equal(a.data.via.array.ptr[1].via.u64, 1);
        assert_int_equal(b.data.via.array.ptr[1].via.u64, 2);
        const msgpack_object *pa = &a.data.via.array.ptr[3].via.array.ptr[0];
        assert_true(sdk_wire_str_is(sdk_wire_get(pa, "puzzle"), "first"));
        msgpack_unpacked_destroy(&a);
        msgpack_unpacked_destroy(&b);
    }
    msgpack_sbuffer_destroy(&p.buf);
}

/* hand_over: the buffer of the message just read fast becomes the
 * caller's, the objects read from it stay valid, and the reader goes on with
 * the bytes that followed (a whole message and the start of another) in a
 * buffer as large; it refuses what was not read fast, and a second time. */
static void test_hand_over(void **state)
{
    (void)state;
    packed p;
    packed_init(&p);
    pack_request(&p, 1, "rate", "first");
    pack_request(&p, 2, "rate", "second");
    size_t two = p.buf.size;
    pack_request(&p, 3, "rate", "third");
    sdk_wire_reader r;
    assert_true(sdk_wire_reader_init(&r, 1 << 20));
    r.fast = true;
    assert_true(sdk_wire_reader_feed(&r, p.buf.data, two + 5));
    size_t size = sdk_wire_reader_capacity(&r);
    sdk_error err;
    const msgpack_object *o;
    msgpack_unpacker held[2];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(sdk_wire_reader_next(&r, &o, &err), 1);
        assert_int_equal(sdk_wire_reader_hand_over(&r, &held[i]), size);
        assert_int_equal(sdk_wire_reader_hand_over(&r, &held[i]), 0); /* once */
        assert_int_equal(sdk_wire_reader_capacity(&r), size);
        assert_int_equal(o->via.array.ptr[1].via.u64, (uint64_t)i + 1);
        const msgpack_object *pa = &o->via.array.ptr[3].via.array.ptr[0];
        assert_true(sdk_wire_str_is(sdk_wire_get(pa, "puzzle"), i ? "second" : "first"));
        const char *at = sdk_wire_get(pa, "puzzle")->via.str.ptr;
        assert_true(at > held[i].buffer && at < held[i].buffer + held[i].used);
    }
    assert_int_equal(sdk_wire_reader_next(&r, &o, &err), 0);
    assert_true(sdk_wire_reader_feed(&r, p.buf.data + two + 5, p.buf.size - two - 5));
    assert_int_equal(sdk_wire_reader_next(&r, &o, &err), 1);
    const msgpack_object *pa = &o->via.array.ptr[3].via.array.ptr[0];
    assert_true(sdk_wire_str_is(sdk_wire_get(pa, "puzzle"), "third"));
    msgpack_unpacker_destroy(&held[0]);
    msgpack_unpacker_destroy(&held[1]);
    sdk_wire_reader_free(&r);
    /* read by msgpack's parser: nothing to hand over */
    assert_true(sdk_wire_reader_init(&r, 1 << 20));
    assert_true(sdk_wire_reader_feed(&r, p.buf.data, p.buf.size));
    assert_int_equal(sdk_wire_reader_next(&r, &o, &err), 1);
    assert_int_equal(sdk_wire_reader_hand_over(&r, &held[0]), 0);
    assert_int_equal(sdk_wire_reader_next(&r, &o, &err), 1);
    assert_int_equal(o->via.array.ptr[1].via.u64, 2);
    sdk_wire_reader_free(&r);
    msgpack_sbuffer_destroy(&p.buf);
}

/* sdk_wire_str_head gives msgpack-c's own string heads, at every width's
 * edges. */
static void test_str_head(void **state)
{
    (void)state;
    const uint32_t lens[] = {0, 1, 31, 32, 81, 255, 256, 65535, 65536, 70000};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        msgpack_sbuffer sb;
        msgpack_packer pk;
        msgpack_sbuffer_init(&sb);
        msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
        msgpack_pack_str(&pk, lens[i]);
        unsigned char h[5];
        size_t n = sdk_wire_str_head(h, lens[i]);
        assert_int_equal(n, sb.size);
        assert_memory_equal(h, sb.data, n);
        msgpack_sbuffer_destroy(&sb);
    }
}

static void test_default_socket(void **state)
{
    (void)state;
    char buf[256];
    setenv("XDG_RUNTIME_DIR", "/run/user/1000", 1);
    assert_string_equal(sdk_wire_default_socket(false, buf, sizeof buf),
                        "/run/user/1000/sudokud.sock");
    assert_string_equal(sdk_wire_default_socket(true, buf, sizeof buf),
                        "/run/sudokud/sudokud.sock");
    /* no XDG_RUNTIME_DIR: the private per-uid folder, never the system path */
    char want[256], dir[200];
    unsetenv("SUDOKUD_TMPDIR");
    snprintf(want, sizeof want, "/tmp/sudokud-%u/sudokud.sock", (unsigned)getuid());
    snprintf(dir, sizeof dir, "/tmp/sudokud-%u", (unsigned)getuid());
    assert_string_equal(sdk_wire_private_dir(buf, sizeof buf), dir);
    setenv("XDG_RUNTIME_DIR", "", 1);
    assert_string_equal(sdk_wire_default_socket(false, buf, sizeof buf), want);
    unsetenv("XDG_RUNTIME_DIR");
    assert_string_equal(sdk_wire_default_socket(false, buf, sizeof buf), want);
    setenv("SUDOKUD_TMPDIR", "/var/tmp", 1);
    snprintf(want, sizeof want, "/var/tmp/sudokud-%u/sudokud.sock", (unsigned)getuid());
    assert_string_equal(sdk_wire_default_socket(false, buf, sizeof buf), want);
    unsetenv("SUDOKUD_TMPDIR");
}

/* The flags of the mapping that holds p (smaps' VmFlags line), in out. */
static bool vm_flags(const void *p, char *out, size_t n)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f) return false;
    char line[512];
    bool in = false, found = false;
    while (!found && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
            in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
        else if (in && !strncmp(line, "VmFlags:", 8)) {
            snprintf(out, n, "%s", line + 8);
            found = true;
        }
    }
    fclose(f);
    return found;
}

static bool has_flag(const char *flags, const char *flag)
{
    for (const char *p = flags; (p = strstr(p, flag)); p += 2)
        if ((p == flags || p[-1] == ' ') && (p[2] == ' ' || p[2] == '\n' || !p[2])) return true;
    return false;
}

/* sdk_wire_heap_reserve: the next big buffer malloc gives lies in memory
 * marked for huge pages, its first byte past the pad (at most a few bytes
 * below a 2 MiB boundary); the release marks it never again. Skipped where
 * the kernel has no transparent huge pages, or malloc is not glibc's heap
 * (a sanitizer's or valgrind's allocator). */
static void test_heap_reserve(void **state)
{
    (void)state;
    char mode[128] = "";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (f) {
        if (!fgets(mode, sizeof mode, f)) mode[0] = 0;
        fclose(f);
    }
    if (!strstr(mode, "[madvise]") && !strstr(mode, "[always]")) skip();
#if defined(__SANITIZE_ADDRESS__)
    skip();
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    skip();
#endif
#endif
    if (getenv("LD_PRELOAD") && strstr(getenv("LD_PRELOAD"), "vgpreload")) skip();
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    char flags[512];
    sdk_wire_heap_reserve((size_t)8 << 20);
    char *big = malloc((size_t)1 << 20);
    assert_non_null(big);
    assert_true(vm_flags(big + 4096, flags, sizeof flags));
    assert_true(has_flag(flags, "hg"));
    uintptr_t off = ((uintptr_t)big + 4096) & (((uintptr_t)2 << 20) - 1);
    assert_true(off < 4096 + 64); /* the pad took the small pages below */
    sdk_wire_heap_release();
    assert_true(vm_flags(big + 4096, flags, sizeof flags));
    assert_false(has_flag(flags, "hg"));
    assert_true(has_flag(flags, "nh"));
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_request_in_pieces),
        cmocka_unit_test(test_zero_copy_space),
        cmocka_unit_test(test_hand_over),
        cmocka_unit_test(test_too_large),
        cmocka_unit_test(test_lying_headers),
        cmocka_unit_test(test_meter_agrees),
        cmocka_unit_test(test_meter_small_arrays),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_declared_huge),
        cmocka_unit_test(test_every_type),
        cmocka_unit_test(test_unpack_fast),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_response_error),
        cmocka_unit_test(test_typed_lookups),
        cmocka_unit_test(test_step),
        cmocka_unit_test(test_role_names),
        cmocka_unit_test(test_step_round_trip),
        cmocka_unit_test(test_step_unpack_refuses),
        cmocka_unit_test(test_role_table),
        cmocka_unit_test(test_lenient_reads),
        cmocka_unit_test(test_take),
        cmocka_unit_test(test_default_socket),
        cmocka_unit_test(test_str_head),
        cmocka_unit_test(test_heap_reserve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
