/* test_wire_step_bytes.c - sdk_wire_pack_step writes a step into a buffer of
 * its own, byte by byte, and sdk_node_text writes a node without snprintf
 * (both for explain's speed). Here a reference written the plain way, with
 * msgpack-c's pack calls and snprintf, packs thousands of random steps
 * (out-of-range cells and digits, long texts, counts past the fix forms,
 * nested steps) and every byte must be the same. */
#include "testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/links.h"
#include "sudoku/technique.h"
#include "sudoku/wire.h"

/* ---- the reference: one msgpack-c call per item ------------------------- */

static char *ref_node_text(const sdk_node *nd, char *buf, size_t n)
{
    char cells[40];
    int nc = nd->ncell > 3 ? 3 : nd->ncell;
    size_t k = 0;
#define PUT(...) (k += (size_t)snprintf(cells + k, sizeof cells - k, __VA_ARGS__))
    if (nc <= 1) {
        int c = nc ? nd->cell[0] % 81 : 0;
        PUT("r%dc%d", c / 9 + 1, c % 9 + 1);
    } else {
        int row[3], col[3];
        for (int i = 0; i < nc; i++) row[i] = nd->cell[i] / 9, col[i] = nd->cell[i] % 9;
        bool three = nc == 3;
        if (row[1] == row[0] && (!three || row[2] == row[0])) {
            PUT("r%dc", nd->cell[0] / 9 + 1);
            for (int i = 0; i < nc; i++) PUT("%d", nd->cell[i] % 9 + 1);
        } else if (col[1] == col[0] && (!three || col[2] == col[0])) {
            PUT("r");
            for (int i = 0; i < nc; i++) PUT("%d", nd->cell[i] / 9 + 1);
            PUT("c%d", nd->cell[0] % 9 + 1);
        } else {
            for (int i = 0; i < nc; i++)
                PUT("%sr%dc%d", i ? "," : "", nd->cell[i] / 9 + 1, nd->cell[i] % 9 + 1);
        }
    }
#undef PUT
    snprintf(buf, n, "%s/%c%d", cells, nd->on ? '+' : '-', nd->digit);
    return buf;
}

static void ref_cand(msgpack_packer *pk, sdk_cand c, bool place)
{
    char buf[16];
    int cell = c.cell > 80 ? 0 : c.cell;
    snprintf(buf, sizeof buf, place ? "r%dc%d=%d" : "r%dc%d<>%d", cell / 9 + 1, cell % 9 + 1,
             c.digit);
    sdk_wire_str(pk, buf);
}

static const char *ref_kind(int kind)
{
    static const char *const names[] = {"cell", "house", "group", "als"};
    return kind >= 0 && kind < 4 ? names[kind] : "cell";
}

static void ref_inner(msgpack_packer *pk, const sdk_step *s)
{
    int ni = s->ninner > SDK_STEP_MAX_INNER ? SDK_STEP_MAX_INNER : s->ninner;
    sdk_wire_str(pk, "inner");
    msgpack_pack_array(pk, (size_t)ni);
    for (int i = 0; i < ni; i++) {
        const sdk_inner *in = &s->inner[i];
        const char *id = in->tech && in->tech->id ? in->tech->id : "unknown";
        msgpack_pack_map(pk, 5 + (in->truncated ? 1 : 0));
        sdk_wire_kv_str(pk, "technique", id);
        sdk_wire_kv_str(pk, "name", in->tech && in->tech->name ? in->tech->name : id);
        const char *t = in->text < SDK_STEP_INNER_TEXT ? s->inner_text + in->text : "";
        size_t tl = strnlen(t, SDK_STEP_INNER_TEXT - in->text);
        sdk_wire_str(pk, "text");
        msgpack_pack_str(pk, tl);
        msgpack_pack_str_body(pk, t, tl);
        int np = in->nplace > SDK_INNER_MAX_EFFECT ? SDK_INNER_MAX_EFFECT : in->nplace;
        int ne = in->nelim > SDK_INNER_MAX_EFFECT - np ? SDK_INNER_MAX_EFFECT - np : in->nelim;
        sdk_wire_str(pk, "placements");
        msgpack_pack_array(pk, (size_t)np);
        for (int k = 0; k < np; k++) ref_cand(pk, in->effect[k], true);
        sdk_wire_str(pk, "eliminations");
        msgpack_pack_array(pk, (size_t)ne);
        for (int k = 0; k < ne; k++) ref_cand(pk, in->effect[np + k], false);
        if (in->truncated) sdk_wire_kv_bool(pk, "truncated", true);
    }
    int nc = s->nclaim > SDK_STEP_MAX_CLAIM ? SDK_STEP_MAX_CLAIM : s->nclaim;
    sdk_wire_str(pk, "because");
    msgpack_pack_array(pk, (size_t)nc);
    for (int i = 0; i < nc; i++) {
        const sdk_claim *c = &s->claim[i];
        msgpack_pack_map(pk, 2);
        sdk_wire_str(pk, "candidate");
        ref_cand(pk, c->cand, c->place);
        sdk_wire_str(pk, "steps");
        int n = 0;
        for (int k = 0; k < ni; k++) n += (int)(c->steps >> k & 1);
        msgpack_pack_array(pk, (size_t)n);
        for (int k = 0; k < ni; k++)
            if (c->steps >> k & 1) msgpack_pack_uint8(pk, (uint8_t)k);
    }
}

static void ref_step(msgpack_packer *pk, const sdk_step *s)
{
    char buf[64];
    const char *id = s->tech && s->tech->id ? s->tech->id : "unknown";
    const char *name = s->tech && s->tech->name ? s->tech->name : id;
    bool nested = s->ninner || s->nclaim;
    msgpack_pack_map(pk, 9 + (s->truncated ? 1 : 0) + (nested ? 2 : 0));
    sdk_wire_kv_str(pk, "technique", id);
    sdk_wire_kv_str(pk, "name", name);
    sdk_wire_kv_tenths(pk, "difficulty", s->difficulty);
    sdk_wire_str(pk, "placements");
    int np = s->nplace > SDK_STEP_MAX_PLACE ? SDK_STEP_MAX_PLACE : s->nplace;
    msgpack_pack_array(pk, (size_t)np);
    for (int i = 0; i < np; i++) ref_cand(pk, s->place[i], true);
    sdk_wire_str(pk, "eliminations");
    int ne = s->nelim > SDK_STEP_MAX_ELIM ? SDK_STEP_MAX_ELIM : s->nelim;
    msgpack_pack_array(pk, (size_t)ne);
    for (int i = 0; i < ne; i++) ref_cand(pk, s->elim[i], false);
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
        bool als = l->kind == SDK_LINK_ALS && l->nals > 0;
        bool group = l->kind == SDK_LINK_GROUP && l->nals > 0;
        msgpack_pack_map(pk, 4 + (als || group ? 1 : 0));
        sdk_wire_kv_str(pk, "from", ref_node_text(&l->from, buf, sizeof buf));
        sdk_wire_kv_str(pk, "to", ref_node_text(&l->to, buf, sizeof buf));
        sdk_wire_kv_bool(pk, "strong", l->strong != 0);
        sdk_wire_kv_str(pk, "kind", ref_kind(l->kind));
        if (als || group) {
            int na = l->nals > 9 ? 9 : l->nals;
            sdk_wire_str(pk, als ? "als" : "cells");
            msgpack_pack_array(pk, (size_t)na);
            for (int k = 0; k < na; k++) msgpack_pack_uint8(pk, l->als[k]);
        }
    }
    if (s->truncated) sdk_wire_kv_bool(pk, "truncated", true);
    if (nested) ref_inner(pk, s);
}

/* ---- random steps -------------------------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng >> 11) % n;
}

/* Mostly in range, now and then anything a byte holds. */
static uint8_t rnd_byte(unsigned usual)
{
    return (uint8_t)(rnd(8) ? rnd(usual) : rnd(256));
}

/* A count: mostly small (fix forms), now and then up to max. */
static unsigned rnd_count(unsigned max)
{
    return rnd(3) ? rnd(max < 6 ? max + 1 : 6) : rnd(max + 1);
}

static const sdk_technique tech = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "nested-forcing-chain",
    .name = "Nested Forcing Chain (a name longer than thirty-one bytes)",
    .difficulty = 95,
};

static const sdk_technique unnamed = {
    .id = "x",
};

static void rnd_text(char *t, size_t cap)
{
    size_t n = rnd(4) ? rnd(80) : rnd((unsigned)cap + 1);
    for (size_t i = 0; i < n && i < cap; i++) t[i] = (char)(' ' + rnd(95));
    if (n < cap) t[n] = 0; /* n == cap: no NUL, the packer stops at the end */
}

static void rnd_node(sdk_node *nd)
{
    nd->digit = rnd_byte(10);
    nd->on = (uint8_t)rnd(3);
    nd->ncell = (uint8_t)rnd(5);
    uint8_t base = rnd_byte(81);
    for (int i = 0; i < 3; i++) /* often one row or one column, as groups are */
        nd->cell[i] = rnd(2) ? (uint8_t)(base + (rnd(2) ? i : 9 * i)) : rnd_byte(81);
}

static void rnd_step(sdk_step *s)
{
    memset(s, 0, sizeof *s);
    s->tech = rnd(10) ? &tech : rnd(2) ? &unnamed : NULL;
    s->difficulty = (int)rnd(2000) - 50;
    s->nplace = (uint16_t)rnd_count(SDK_STEP_MAX_PLACE);
    for (int i = 0; i < s->nplace; i++) s->place[i] = (sdk_cand){rnd_byte(81), rnd_byte(10)};
    s->nelim = (uint16_t)rnd_count(SDK_STEP_MAX_ELIM);
    for (int i = 0; i < s->nelim; i++) s->elim[i] = (sdk_cand){rnd_byte(81), rnd_byte(10)};
    s->nmark = (uint16_t)rnd_count(SDK_STEP_MAX_MARK);
    for (int i = 0; i < s->nmark; i++)
        s->mark[i] = (sdk_mark){rnd_byte(81), rnd_byte(10), rnd_byte(SDK_ROLE_COUNT + 1)};
    s->nhouse = (uint8_t)rnd_count(SDK_STEP_MAX_HOUSE);
    for (int i = 0; i < s->nhouse; i++)
        s->house[i] = (sdk_house_mark){rnd_byte(27), rnd_byte(SDK_ROLE_COUNT)};
    s->nlink = (uint16_t)rnd_count(SDK_STEP_MAX_LINK);
    for (int i = 0; i < s->nlink; i++) {
        sdk_link *l = &s->link[i];
        rnd_node(&l->from);
        rnd_node(&l->to);
        l->strong = (uint8_t)rnd(3);
        l->kind = rnd_byte(4);
        l->nals = (uint8_t)rnd(12);
        for (int k = 0; k < 9; k++) l->als[k] = rnd_byte(81);
    }
    rnd_text(s->text, SDK_STEP_TEXT);
    s->truncated = (uint8_t)(rnd(4) == 0);
    if (rnd(3)) return;
    s->ninner = (uint8_t)rnd_count(SDK_STEP_MAX_INNER + 2);
    s->nclaim = (uint8_t)rnd_count(SDK_STEP_MAX_CLAIM + 2);
    rnd_text(s->inner_text, SDK_STEP_INNER_TEXT);
    for (int i = 0; i < SDK_STEP_MAX_INNER; i++) {
        sdk_inner *in = &s->inner[i];
        in->tech = rnd(5) ? &tech : rnd(2) ? &unnamed : NULL;
        in->text = (uint16_t)(rnd(10) ? rnd(SDK_STEP_INNER_TEXT) : SDK_STEP_INNER_TEXT + rnd(9));
        in->nplace = (uint8_t)rnd(SDK_INNER_MAX_EFFECT + 3);
        in->nelim = (uint8_t)rnd(SDK_INNER_MAX_EFFECT + 3);
        in->truncated = (uint8_t)(rnd(4) == 0);
        for (int k = 0; k < SDK_INNER_MAX_EFFECT; k++)
            in->effect[k] = (sdk_cand){rnd_byte(81), rnd_byte(10)};
    }
    for (int i = 0; i < SDK_STEP_MAX_CLAIM; i++)
        s->claim[i] = (sdk_claim){{rnd_byte(81), rnd_byte(10)},
                                  (uint8_t)rnd(2),
                                  (uint64_t)rnd(1u << 30) << 34 | rnd(1u << 30)};
}

/* ---- the tests ----------------------------------------------------------- */

static void test_random_steps(void **state)
{
    (void)state;
    static sdk_step s;
    for (int round = 0; round < 3000; round++) {
        rnd_step(&s);
        msgpack_sbuffer a, b;
        msgpack_packer pa, pb;
        msgpack_sbuffer_init(&a);
        msgpack_sbuffer_init(&b);
        msgpack_packer_init(&pa, &a, msgpack_sbuffer_write);
        msgpack_packer_init(&pb, &b, msgpack_sbuffer_write);
        ref_step(&pa, &s);
        sdk_wire_pack_step(&pb, &s);
        if (a.size != b.size || memcmp(a.data, b.data, a.size) != 0) {
            size_t at = 0;
            while (at < a.size && at < b.size && a.data[at] == b.data[at]) at++;
            fail_msg("round %d: %zu bytes expected, %zu packed, first difference at %zu", round,
                     a.size, b.size, at);
        }
        msgpack_sbuffer_destroy(&a);
        msgpack_sbuffer_destroy(&b);
    }
}

static void test_node_text_cut(void **state)
{
    (void)state;
    for (int round = 0; round < 20000; round++) {
        sdk_node nd;
        rnd_node(&nd);
        size_t n = rnd(4) ? 64 : rnd(24);
        char want[64] = "unchanged", got[64] = "unchanged";
        ref_node_text(&nd, want, n);
        sdk_node_text(&nd, got, n);
        assert_memory_equal(want, got, sizeof want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_steps),
        cmocka_unit_test(test_node_text_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
