/* test_als.c - tests of the ALS module (lib/als.c) and the ALS plugin
 * (plugins/als): the enumeration and RCCs against brute force, the HoDoKu
 * regression library entries 0901-0904 (all instances with the entry's
 * digits must eliminate exactly the listed candidates), and soundness on hard
 * puzzles (no step ever eliminates a solution digit). The plugin source is
 * compiled into this test so its techniques are called directly. */
#include "sudoku/als.h"
#include "sudoku/solver.h"
#include "sudoku/technique.h"
#include "testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../plugins/als/als_plugin.c"

/* ---- helpers ------------------------------------------------------------ */

static const sdk_technique *tech(const char *id)
{
    for (const sdk_technique *const *t = sudoku_techniques(); *t; t++)
        if (!strcmp((*t)->id, id)) return *t;
    fail_msg("no technique %s", id);
    return NULL;
}

typedef struct collect {
    int n, cap;
    sdk_step *s;
} collect;

static int collect_emit(void *ctx, const sdk_step *s)
{
    collect *c = ctx;
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 16;
        c->s = realloc(c->s, sizeof *c->s * (size_t)c->cap);
        assert_non_null(c->s);
    }
    c->s[c->n++] = *s;
    return SDK_CONTINUE;
}

/* Run technique t on g with options text; every step goes to out. */
static void run_all(const sdk_technique *t, const char *opts, const sdk_grid *g, collect *out)
{
    sdk_options o;
    memset(&o, 0, sizeof o);
    char why[128];
    assert_true(sdk_options_parse(opts ? opts : "", &o, why, sizeof why));
    sdk_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.opts = &o;
    ctx.unique = true;
    sdk_sink sink = {collect_emit, out};
    out->n = 0;
    t->find(&ctx, g, &sink);
}

/* ---- enumeration against brute force ------------------------------------ */

static void check_enumeration(const sdk_grid *g)
{
    sdk_als_list l;
    assert_true(sdk_als_collect(g, NULL, &l) >= 0);
    /* every listed set is an ALS inside its house, listed once */
    for (int i = 0; i < l.n; i++) {
        const sdk_als *a = &l.als[i];
        assert_true(sdk_bb_subset(a->cells, sdk_house_bb[a->house]));
        assert_int_equal(sdk_bb_count(a->cells), a->ncell);
        unsigned m = 0;
        SDK_BB_FOREACH(c, a->cells)
        {
            assert_int_equal(g->value[c], 0);
            m |= g->cand[c];
        }
        assert_int_equal(m, a->digits);
        assert_int_equal(sdk_mask_count(m), a->ncell + 1);
        for (int d = 1; d <= 9; d++) {
            sdk_bb dc = sdk_bb_and(a->cells, g->digit[d - 1]);
            assert_true(sdk_bb_eq(dc, a->dcells[d - 1]));
            /* peers: exactly the outside cells holding d that see all of dc */
            for (int c = 0; c < 81; c++) {
                bool want = (a->digits & sdk_digit_bit(d)) && !sdk_bb_has(a->cells, c) &&
                            sdk_grid_has(g, c, d);
                SDK_BB_FOREACH(x, dc) want = want && sdk_sees(c, x);
                assert_int_equal(want, sdk_bb_has(a->peers[d - 1], c));
            }
        }
        for (int j = i + 1; j < l.n; j++) assert_false(sdk_bb_eq(a->cells, l.als[j].cells));
    }
    /* every subset of every house that is an ALS is listed */
    int found = 0;
    for (int h = 0; h < 27; h++) {
        for (unsigned sub = 1; sub < 512; sub++) {
            sdk_bb cells = sdk_bb_none();
            unsigned m = 0;
            bool ok = true;
            for (int k = 0; k < 9; k++) {
                if (!(sub & (1u << k))) continue;
                int c = sdk_house_cell[h][k];
                if (g->value[c]) ok = false;
                sdk_bb_add(&cells, c);
                m |= g->cand[c];
            }
            int n = __builtin_popcount(sub);
            if (!ok || n > 8 || sdk_mask_count(m) != n + 1) continue;
            bool listed = false;
            for (int i = 0; i < l.n && !listed; i++) listed = sdk_bb_eq(l.als[i].cells, cells);
            assert_true(listed);
            found++;
        }
    }
    assert_true(found >= l.n);
    /* RCCs against the definition */
    for (int i = 0; i < l.n; i += 7) {
        for (int j = 0; j < l.n; j += 3) {
            const sdk_als *a = &l.als[i], *b = &l.als[j];
            if (i == j) continue;
            for (int ov = 0; ov < 2; ov++) {
                unsigned want = 0;
                bool shared = sdk_als_overlap(a, b);
                if (!shared || ov) {
                    SDK_MASK_FOREACH(d, a->digits & b->digits)
                    {
                        bool ok = true;
                        SDK_BB_FOREACH(x, a->dcells[d - 1])
                        {
                            SDK_BB_FOREACH(y, b->dcells[d - 1]) ok = ok && sdk_sees(x, y);
                        }
                        if (ok) want |= sdk_digit_bit(d);
                    }
                }
                assert_int_equal(want, sdk_als_rcc(a, b, ov));
                assert_int_equal(want, sdk_als_rcc(b, a, ov));
            }
        }
    }
    sdk_als_list_free(&l);
}

static void test_enumeration(void **state)
{
    (void)state;
    uint8_t(*p)[81];
    int n = tu_read_puzzles("top1465.txt", 12, 97, &p);
    assert_true(n > 5);
    for (int i = 0; i < n; i++) {
        sdk_grid g;
        sdk_grid_from_values(&g, p[i]);
        check_enumeration(&g);
    }
    free(p);
}

static void test_graph_and_text(void **state)
{
    (void)state;
    uint8_t(*p)[81];
    int n = tu_read_puzzles("top1465.txt", 1, 1, &p);
    assert_int_equal(n, 1);
    sdk_grid g;
    sdk_grid_from_values(&g, p[0]);
    sdk_als_list l;
    assert_true(sdk_als_collect(&g, &(sdk_als_opts){.min_cells = 2, .max_cells = 3}, &l) > 0);
    for (int i = 0; i < l.n; i++) assert_true(l.als[i].ncell >= 2 && l.als[i].ncell <= 3);
    sdk_rcc_graph gr;
    assert_true(sdk_rcc_graph_build(&l, false, &gr) > 0);
    for (int a = 0; a < l.n; a++) {
        for (int e = gr.first[a]; e < gr.first[a + 1]; e++) {
            assert_int_equal(gr.edge[e].a, a);
            assert_int_equal(gr.edge[e].digits,
                             sdk_als_rcc(&l.als[a], &l.als[gr.edge[e].b], false));
        }
    }
    sdk_rcc_graph_free(&gr);
    sdk_als_list_free(&l);
    /* the text of a hand-made set */
    sdk_als a;
    memset(&a, 0, sizeof a);
    sdk_bb_add(&a.cells, 40);
    sdk_bb_add(&a.cells, 41);
    a.digits = sdk_digit_bit(2) | sdk_digit_bit(3) | sdk_digit_bit(4);
    char buf[64];
    assert_string_equal(sdk_als_text(&a, buf, sizeof buf), "r5c56 {234}");
    free(p);
}

/* ---- the regression library ---------------------------------------------- */

typedef struct mapping {
    char code[16], id[48], opts[96];
} mapping;

static int load_map(mapping *m, int max)
{
    const char *src = getenv("SUDOKU_SOURCE");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/reglib/map.tsv", src ? src : ".");
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot open %s", path);
    char line[256];
    int n = 0;
    while (n < max && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || strncmp(line, "09", 2)) continue;
        line[strcspn(line, "\r\n")] = 0;
        char *code = strtok(line, "\t"), *id = strtok(NULL, "\t"), *opts = strtok(NULL, "\t");
        if (!code || !id) continue;
        snprintf(m[n].code, sizeof m[n].code, "%s", code);
        snprintf(m[n].id, sizeof m[n].id, "%s", id);
        snprintf(m[n].opts, sizeof m[n].opts, "%s", opts ? opts : "");
        n++;
    }
    fclose(f);
    return n;
}

/* Parse "436 524" into per-digit bitboards; returns the count. */
static int parse_cands(const char *s, sdk_bb out[9])
{
    int n = 0;
    for (int d = 0; d < 9; d++) out[d] = sdk_bb_none();
    while (*s) {
        while (*s == ' ') s++;
        if (!*s) break;
        int d = s[0] - '0', r = s[1] - '0', c = s[2] - '0';
        sdk_bb_add(&out[d - 1], (r - 1) * 9 + c - 1);
        n++;
        s += 3;
    }
    return n;
}

/* Split at ':' keeping empty fields. */
static int split(char *s, char **f, int max)
{
    int n = 0;
    f[n++] = s;
    for (; *s && n < max; s++)
        if (*s == ':') {
            *s = 0;
            f[n++] = s + 1;
        }
    return n;
}

static bool build_grid(const char *text, const char *removed, sdk_grid *g)
{
    sdk_grid_init(g);
    int cell = 0;
    for (const char *p = text; *p && cell < 81; p++) {
        bool placed = false;
        if (*p == '+') {
            placed = true;
            p++;
        }
        if (*p >= '1' && *p <= '9') sdk_grid_place(g, cell, *p - '0', !placed);
        cell++;
    }
    if (cell != 81) return false;
    sdk_bb rm[9];
    parse_cands(removed, rm);
    for (int d = 1; d <= 9; d++) SDK_BB_FOREACH(c, rm[d - 1]) sdk_grid_eliminate(g, c, d);
    return true;
}

static void test_reglib(void **state)
{
    (void)state;
    mapping map[32];
    int nmap = load_map(map, 32);
    assert_true(nmap >= 4);
    FILE *f = fopen(tu_reglib_path("reglib-1.4.txt"), "r");
    if (!f) fail_msg("cannot open %s", tu_reglib_path("reglib-1.4.txt"));
    static const char *codes[] = {"0901", "0902", "0903", "0904"};
    int pass[4] = {0}, total[4] = {0};
    char line[2048];
    collect got = {0};
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (line[0] != ':' || strncmp(line + 1, "09", 2)) continue;
        char copy[2048];
        snprintf(copy, sizeof copy, "%s", line);
        char *fld[10] = {0};
        int nf = split(copy, fld, 9);
        assert_true(nf >= 7);
        const char *code = fld[1];
        int fam = -1;
        for (int k = 0; k < 4; k++)
            if (!strncmp(code, codes[k], 4)) fam = k;
        if (fam < 0) continue;
        const mapping *m = NULL;
        for (int k = 0; k < nmap; k++)
            if (!strcmp(map[k].code, code)) m = &map[k];
        if (!m) fail_msg("%s not in map.tsv", code);
        total[fam]++;
        sdk_grid g;
        assert_true(build_grid(fld[3], fld[4], &g));
        sdk_bb want[9];
        parse_cands(fld[5], want);
        unsigned digits = 0;
        for (const char *p = fld[2]; *p; p++) digits |= sdk_digit_bit(*p - '0');
        run_all(tech(m->id), m->opts, &g, &got);
        int matches = 0, bad = 0;
        for (int i = 0; i < got.n; i++) {
            const sdk_step *s = &got.s[i];
            sdk_bb e[9];
            unsigned dm = 0;
            for (int d = 0; d < 9; d++) e[d] = sdk_bb_none();
            for (int k = 0; k < s->nelim; k++) {
                sdk_bb_add(&e[s->elim[k].digit - 1], s->elim[k].cell);
                dm |= sdk_digit_bit(s->elim[k].digit);
            }
            if (dm != digits) continue;
            matches++;
            bool same = true;
            for (int d = 0; d < 9; d++) same = same && sdk_bb_eq(e[d], want[d]);
            if (!same) {
                if (!bad) print_message("  %s differs: %s\n", code, s->text);
                bad++;
            }
        }
        if (matches && !bad)
            pass[fam]++;
        else
            print_message("FAIL %s (%d matching, %d differ): %s\n", code, matches, bad, line);
    }
    fclose(f);
    free(got.s);
    int all = 0, allp = 0;
    for (int k = 0; k < 4; k++) {
        print_message("reglib %s: %d/%d pass\n", codes[k], pass[k], total[k]);
        all += total[k];
        allp += pass[k];
    }
    assert_true(all >= 60);
    assert_int_equal(allp, all);
}

/* ---- step structure and text --------------------------------------------- */

/* The first step of technique id on a reglib position whose eliminations are
 * exactly elim (a reglib candidate list); fails when there is none. */
static sdk_step *step_for(const char *id, const char *grid, const char *removed, const char *elim,
                          collect *got)
{
    sdk_grid g;
    assert_true(build_grid(grid, removed, &g));
    sdk_bb want[9];
    int n = parse_cands(elim, want);
    run_all(tech(id), "", &g, got);
    for (int i = 0; i < got->n; i++) {
        sdk_step *s = &got->s[i];
        if (s->nelim != n) continue;
        bool same = true;
        for (int k = 0; k < s->nelim; k++)
            same = same && sdk_bb_has(want[s->elim[k].digit - 1], s->elim[k].cell);
        if (same) return s;
    }
    fail_msg("%s: no step eliminating %s", id, elim);
    return NULL;
}

static int role_of(const sdk_step *s, int cell, int digit)
{
    for (int i = 0; i < s->nmark; i++)
        if (s->mark[i].cell == cell && s->mark[i].digit == digit) return s->mark[i].role;
    return -1;
}

static void test_structure(void **state)
{
    (void)state;
    collect got = {0};
    /* singly linked ALS-XZ (reglib 0901-1, first entry) */
    sdk_step *s = step_for(
        "als-xz",
        ".24.6.+7..5.74.9.1.....+7......+5.9+4+87+14+7.+6.85.3..8..7.6.+7......46.+"
        "46..3.+57.5.7+4+61..",
        "314 819 225 134 237 937 238 938 239 839 269 372 972 973 274 291 891 999", "327", &got);
    assert_non_null(strstr(s->text, "ALS-XZ: A="));
    assert_non_null(strstr(s->text, "{1358}"));
    assert_non_null(strstr(s->text, "{3589}"));
    assert_non_null(strstr(s->text, ", X=5, Z=3 => r2c7<>3"));
    assert_int_equal(s->difficulty, 70);
    /* A = r1c4,r1c6,r2c5 {1358}: 5 is the RC (pivot), 3 the Z digit (fin) */
    int pivots = 0, fins = 0, members = 0;
    for (int i = 0; i < s->nmark; i++) {
        pivots += s->mark[i].role == SDK_ROLE_PIVOT;
        fins += s->mark[i].role == SDK_ROLE_FIN;
        members += s->mark[i].role == SDK_ROLE_ALS;
        if (s->mark[i].role == SDK_ROLE_PIVOT) assert_int_equal(s->mark[i].digit, 5);
        if (s->mark[i].role == SDK_ROLE_FIN) assert_int_equal(s->mark[i].digit, 3);
    }
    assert_true(pivots >= 2 && fins >= 2 && members >= 2);
    assert_int_equal(s->nlink, 1);
    assert_int_equal(s->link[0].kind, SDK_LINK_ALS);
    assert_int_equal(s->link[0].from.digit, 5);
    assert_int_equal(s->link[0].strong, 0);
    /* ALS-XY-Wing (0902-1) */
    s = step_for(
        "als-xy-wing",
        "+8...43..+1.+3+1.5+7..8.721......9+3+5+1......5....1.18.3..........1.67..7..91..3+1+8+"
        "76592+4",
        "441 247 451 254 454 854 255 257 265 267 471 274 875 481 284 885", "768", &got);
    assert_non_null(strstr(s->text, "ALS-XY-Wing: A="));
    assert_non_null(strstr(s->text, ", C="));
    assert_non_null(strstr(s->text, ", Z=7 => r6c8<>7"));
    assert_int_equal(s->nlink, 2);
    /* Death Blossom (0904-1): stem r8c6 {145}, one petal per stem digit */
    s = step_for(
        "death-blossom",
        "8+7+14..6..5+42...7..+93+6+8+57+42+1.28.7.+3.....3.6+2....+3+21.54..1.7..+93.+3.9..."
        "8+72.+87..3+1.4",
        "915 919 924 929 641 946 948 958 959 669 475 675 476 584 694", "966", &got);
    assert_non_null(strstr(s->text, "Death Blossom: r8c6, -1- "));
    assert_non_null(strstr(s->text, "-4- "));
    assert_non_null(strstr(s->text, "-5- "));
    assert_int_equal(s->nlink, 3);
    assert_int_equal(role_of(s, sdk_cell_at(7, 5), 0), SDK_ROLE_PIVOT);
    assert_int_equal(s->difficulty, 76);
    /* ALS chain (0903-1): text "7- A -x- B ... -7", 4 or more sets */
    s = step_for("als-chain",
                 "...3.721....2.......9.6.38.8.6..1.....5+8.+6.2..9.....68.4357+8.+9.7+5....8..+9.."
                 "...5..",
                 "421 622 727 545 748 749 949 759", "763", &got);
    assert_non_null(strstr(s->text, "ALS-Chain: 7- "));
    assert_true(strlen(s->text) > 20);
    assert_non_null(strstr(s->text, " -7 => r6c3<>7"));
    assert_true(s->nlink >= 3);
    assert_true(s->difficulty >= 74);
    free(got.s);
}

/* ---- soundness ----------------------------------------------------------- */

/* Naked and hidden singles until none are left. */
static void singles(sdk_grid *g)
{
    bool again = true;
    while (again) {
        again = false;
        for (int c = 0; c < 81; c++) {
            if (!g->value[c] && sdk_mask_count(g->cand[c]) == 1) {
                sdk_grid_place(g, c, sdk_mask_first(g->cand[c]), false);
                again = true;
            }
        }
        for (int h = 0; h < 27; h++) {
            for (int d = 1; d <= 9; d++) {
                sdk_bb b = sdk_house_digit(g, h, d);
                if (sdk_bb_count(b) == 1) {
                    sdk_grid_place(g, sdk_bb_first(b), d, false);
                    again = true;
                }
            }
        }
    }
}

static void test_soundness(void **state)
{
    (void)state;
    const char *env = getenv("SUDOKU_ALS_PUZZLES");
    int max = env ? atoi(env) : 40;
    uint8_t(*p)[81];
    int n = tu_read_puzzles("top1465.txt", max, 1465 / max > 0 ? 1465 / max : 1, &p);
    static const char *ids[] = {"als-xz", "als-xy-wing", "als-chain", "death-blossom"};
    /* the chain search is bounded lower than its default here: the point is
     * to check many steps, not to find every last chain */
    static const char *opts[2] = {"overlap=0 max-nodes=5000000", "overlap=1 max-nodes=5000000"};
    long steps[4] = {0}, elims[4] = {0}, states = 0;
    collect got = {0};
    for (int i = 0; i < n; i++) {
        uint8_t sol[2][81];
        assert_int_equal(sdk_solve(p[i], 2, sol, NULL), 1);
        sdk_grid g;
        sdk_grid_from_values(&g, p[i]);
        unsigned seed = (unsigned)i * 2654435761u + 1;
        for (int round = 0; round < 200; round++) {
            singles(&g);
            if (sdk_grid_solved(&g)) break;
            states++;
            bool applied = false;
            for (int k = 0; k < 4; k++) {
                for (int ov = 0; ov < 2; ov++) {
                    if (ov && k == 0) continue;
                    run_all(tech(ids[k]), opts[ov], &g, &got);
                    for (int s = 0; s < got.n; s++) {
                        for (int e = 0; e < got.s[s].nelim; e++) {
                            const sdk_cand *c = &got.s[s].elim[e];
                            if (sol[0][c->cell] == c->digit)
                                fail_msg("puzzle %d: %s eliminates the solution: %s", i + 1, ids[k],
                                         got.s[s].text);
                        }
                        steps[k]++;
                        elims[k] += got.s[s].nelim;
                    }
                    if (!applied && got.n) {
                        sdk_step_apply(&got.s[0], &g);
                        applied = true;
                    }
                }
            }
            if (!applied) {
                /* move on: remove one false candidate at random */
                int cands[729], nc = 0;
                for (int c = 0; c < 81; c++) SDK_MASK_FOREACH(d, g.cand[c])
                    {
                        if (d != sol[0][c]) cands[nc++] = c * 9 + d - 1;
                    }
                if (!nc) break;
                seed = seed * 1103515245u + 12345u;
                int x = cands[(seed >> 8) % (unsigned)nc];
                sdk_grid_eliminate(&g, x / 9, x % 9 + 1);
            }
        }
    }
    free(got.s);
    free(p);
    print_message("soundness: %d puzzles, %ld states\n", n, states);
    for (int k = 0; k < 4; k++)
        print_message("  %-14s %ld steps, %ld eliminations, none wrong\n", ids[k], steps[k],
                      elims[k]);
    assert_true(steps[0] > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_enumeration),
        cmocka_unit_test(test_graph_and_text),
        cmocka_unit_test(test_reglib),
        cmocka_unit_test(test_structure),
        cmocka_unit_test(test_soundness),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
