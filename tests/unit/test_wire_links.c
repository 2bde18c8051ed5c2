/* test_wire_links.c - a step's links on the wire: group nodes keep their
 * cells ("r2c46/-1"), the set of an ALS link ("als") and of a dynamic group
 * link ("cells") goes along, and the links decoded from the wire give the
 * same consequence lines (sdk_links_trace_lines) as the step itself. */
#include "testutil.h"
#include <string.h>
#include "sudoku/links.h"
#include "sudoku/wire.h"

static const msgpack_object *decode(sdk_wire_reader *r, const char *data, size_t n)
{
    sdk_error err;
    const msgpack_object *o = NULL;
    assert_true(sdk_wire_reader_init(r, 1 << 20));
    assert_true(sdk_wire_reader_feed(r, data, n));
    assert_int_equal(sdk_wire_reader_next(r, &o, &err), 1);
    return o;
}

/* Decode one wire link as sudoctl does. */
static void wire_link(const msgpack_object *l, sdk_link *out)
{
    char a[64], b[64], k[16];
    memset(out, 0, sizeof *out);
    assert_true(sdk_wire_copy_str(sdk_wire_get(l, "from"), a, sizeof a));
    assert_true(sdk_wire_copy_str(sdk_wire_get(l, "to"), b, sizeof b));
    assert_true(sdk_wire_copy_str(sdk_wire_get(l, "kind"), k, sizeof k));
    assert_true(sdk_node_parse(a, &out->from));
    assert_true(sdk_node_parse(b, &out->to));
    out->kind = (uint8_t)sdk_link_kind_parse(k);
    out->strong = sdk_wire_get(l, "strong")->via.boolean;
    const msgpack_object *set = sdk_wire_get(l, "als");
    if (!set) set = sdk_wire_get(l, "cells");
    for (uint32_t i = 0; set && i < set->via.array.size; i++)
        out->als[out->nals++] = (uint8_t)set->via.array.ptr[i].via.u64;
}

static void test_group_and_als_sets(void **state)
{
    (void)state;
    sdk_step s;
    memset(&s, 0, sizeof s);
    s.difficulty = 70;
    strcpy(s.text, "Forcing Chain");
    /* r2c2=1 -> r2c46<>1 (group node) -> r1c5=1 (house); then a dynamic group
     * link through the box segment r3c46 (digit 4 locked there), then an ALS
     * link */
    s.link[0] =
        (sdk_link){.from = {1, 1, 1, {10}}, .to = {1, 0, 2, {12, 14}}, .kind = SDK_LINK_GROUP};
    s.link[1] = (sdk_link){
        .from = {1, 0, 2, {12, 14}}, .to = {1, 1, 1, {4}}, .strong = 1, .kind = SDK_LINK_GROUP};
    s.link[2] = (sdk_link){.from = {1, 1, 1, {4}},
                           .to = {4, 0, 1, {3}},
                           .kind = SDK_LINK_GROUP,
                           .nals = 2,
                           .als = {21, 23}};
    s.link[3] = (sdk_link){.from = {4, 0, 1, {3}},
                           .to = {8, 1, 1, {5}},
                           .strong = 1,
                           .kind = SDK_LINK_ALS,
                           .nals = 2,
                           .als = {3, 5}};
    s.nlink = 4;

    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    sdk_wire_pack_step(&pk, &s);
    sdk_wire_reader r;
    const msgpack_object *o = decode(&r, sb.data, sb.size);
    const msgpack_object *ln = sdk_wire_get(o, "links");
    assert_int_equal(ln->via.array.size, 4);
    const msgpack_object *l = ln->via.array.ptr;
    assert_true(sdk_wire_str_is(sdk_wire_get(&l[0], "to"), "r2c46/-1"));
    assert_true(sdk_wire_str_is(sdk_wire_get(&l[1], "from"), "r2c46/-1"));
    assert_null(sdk_wire_get(&l[0], "cells")); /* a static group link: no set */
    assert_null(sdk_wire_get(&l[1], "als"));
    const msgpack_object *cells = sdk_wire_get(&l[2], "cells");
    assert_non_null(cells);
    assert_null(sdk_wire_get(&l[2], "als"));
    assert_int_equal(cells->via.array.size, 2);
    assert_int_equal(cells->via.array.ptr[0].via.u64, 21);
    assert_int_equal(cells->via.array.ptr[1].via.u64, 23);
    assert_non_null(sdk_wire_get(&l[3], "als"));
    assert_null(sdk_wire_get(&l[3], "cells"));

    /* decoded from the wire: the same consequence line as the step's own */
    sdk_step back;
    memset(&back, 0, sizeof back);
    for (uint32_t i = 0; i < ln->via.array.size; i++) wire_link(&l[i], &back.link[back.nlink++]);
    char want[2048], got[2048];
    sdk_step_trace_text(&s, want, sizeof want);
    sdk_step_trace_text(&back, got, sizeof got);
    assert_string_equal(got, want);
    assert_non_null(strstr(got, "r2c46/-1"));
    assert_non_null(strstr(got, "(GROUP:r3c46)"));
    assert_non_null(strstr(got, "(ALS:r1c46)"));
    sdk_wire_reader_free(&r);
    msgpack_sbuffer_destroy(&sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_group_and_als_sets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
