/* test_misc.c - the misc plugin (Sue de Coq, Aligned Pair Exclusion).
 *
 * 1. HoDoKu's regression library for Sue de Coq (1101), the strict way
 *    (reglib FORMAT.md §6): every instance whose eliminated digits equal the
 *    line's digits field must make exactly the line's eliminations.
 * 2. Aligned Pair Exclusion on a built position.
 * 3. Soundness: on a few hundred unique puzzles, at every position of a walk
 *    to the solution, no technique eliminates a solution digit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/solver.h"
#include "testutil.h"

/* ---- the harness (same in test_uniqueness.c, test_wings.c) ---------------------- */

enum { DIG_PAIR, DIG_SINGLE, DIG_ELIM, DIG_NONE };

typedef struct code_map {
    const char *code; /* with variant, or plain */
    const char *id;
    const char *opts;
    int digits; /* how HoDoKu's digits field is made */
} code_map;

typedef struct known_fail {
    const char *code;
    int line;
    const char *why;
} known_fail;

typedef struct result {
    char code[16];
    int total, pass;
} result;

static sdk_plugin plugins[4];
static int nplugins;

static void open_plugin(const char *name)
{
    char path[1024];
    const char *b = getenv("SUDOKU_BUILD");
    snprintf(path, sizeof path, "%s/lib/sudokud/plugins/%s.so", b ? b : "build", name);
    sdk_error err;
    if (!sdk_plugin_open(path, &plugins[nplugins], &err)) fail_msg("%s: %s", path, err.msg);
    nplugins++;
}

static const sdk_technique *tech(const char *id)
{
    for (int p = 0; p < nplugins; p++)
        for (const sdk_technique *const *t = plugins[p].list; *t; t++)
            if (!strcmp((*t)->id, id)) return *t;
    fail_msg("technique %s not found", id);
    return NULL;
}

typedef struct steps {
    sdk_step *v;
    int n, cap;
} steps;

static int collect(void *ctx, const sdk_step *s)
{
    steps *l = ctx;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->v = realloc(l->v, sizeof *l->v * (size_t)l->cap);
    }
    l->v[l->n++] = *s;
    return l->n > 5000 ? SDK_STOP : SDK_CONTINUE;
}

static int run(const sdk_technique *t, const char *opts, const sdk_grid *g, steps *out)
{
    sdk_options o = {0};
    char why[64];
    if (opts && *opts) sdk_options_parse(opts, &o, why, sizeof why);
    sdk_ctx ctx = {.opts = &o, .unique = true};
    sdk_sink sink = {collect, out};
    out->n = 0;
    return t->find(&ctx, g, &sink);
}

/* HoDoKu's digits field of one of our steps. */
static void step_digits(const sdk_step *s, int kind, char *out)
{
    int n = 0;
    if (kind == DIG_ELIM) {
        unsigned m = 0;
        for (int i = 0; i < s->nelim; i++) m |= 1u << s->elim[i].digit;
        for (int d = 1; d <= 9; d++)
            if (m & (1u << d)) out[n++] = (char)('0' + d);
    } else if (kind != DIG_NONE) {
        /* the digits after ": ", "1/2/3 in" or "7 1- r1c2..." */
        const char *p = strstr(s->text, ": ");
        unsigned m = 0;
        if (p) {
            p += 2;
            while (*p >= '1' && *p <= '9') {
                m |= 1u << (*p - '0');
                p++;
                if (*p != '/' || kind == DIG_SINGLE) break;
                p++;
            }
        }
        for (int d = 1; d <= 9; d++)
            if (m & (1u << d)) out[n++] = (char)('0' + d);
    }
    out[n] = 0;
}

typedef struct {
    uint64_t w[12];
} candset;
static void cs_add(candset *s, int c, int d)
{
    int k = c * 9 + d - 1;
    s->w[k / 64] |= 1ULL << (k % 64);
}

static bool parse_cands(const char *f, candset *s, sdk_grid *g)
{
    while (*f) {
        while (*f == ' ') f++;
        if (!*f) break;
        if (f[0] < '1' || f[0] > '9' || f[1] < '1' || f[1] > '9' || f[2] < '1' || f[2] > '9')
            return false;
        int d = f[0] - '0', c = (f[1] - '1') * 9 + f[2] - '1';
        if (s) cs_add(s, c, d);
        if (g) sdk_grid_eliminate(g, c, d);
        f += 3;
    }
    return true;
}

static bool build_grid(const char *grid, sdk_grid *g)
{
    sdk_grid_init(g);
    int cell = 0;
    for (const char *q = grid; *q && cell < 81; q++) {
        bool placed = false;
        if (*q == '+') {
            placed = true;
            q++;
        }
        if (*q >= '1' && *q <= '9') sdk_grid_place(g, cell, *q - '0', !placed);
        cell++;
    }
    return cell == 81;
}

/* Run every reglib line of the mapped codes; returns unexpected failures. */
static int reglib(const code_map *map, int nmap, const known_fail *known, int nknown)
{
    FILE *f = fopen(tu_reglib_path("reglib-1.4.txt"), "r");
    assert_non_null(f);
    result res[64];
    int nres = 0, unexpected = 0, lineno = 0;
    char line[2048];
    steps st = {0};
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (line[0] != ':') continue;
        char *fld[8] = {0};
        int nf = 0;
        for (char *p = line + 1; nf < 8;) {
            fld[nf++] = p;
            char *c = strchr(p, ':');
            if (!c) break;
            *c = 0;
            p = c + 1;
        }
        for (int i = nf; i < 8; i++) fld[i] = "";
        const char *code = fld[0];
        bool fail_case = strstr(code, "-x") != NULL;
        char base[16];
        snprintf(base, sizeof base, "%.4s", code);
        const code_map *m = NULL;
        for (int i = 0; i < nmap && !m; i++)
            if (!strcmp(map[i].code, code)) m = &map[i];
        for (int i = 0; i < nmap && !m; i++)
            if (!strcmp(map[i].code, base)) m = &map[i];
        if (!m) continue;
        result *r = NULL;
        for (int i = 0; i < nres; i++)
            if (!strcmp(res[i].code, code)) r = &res[i];
        if (!r) {
            r = &res[nres++];
            memset(r, 0, sizeof *r);
            snprintf(r->code, sizeof r->code, "%s", code);
        }
        r->total++;
        sdk_grid g;
        candset want = {{0}}, wantp = {{0}};
        assert_true(build_grid(fld[2], &g));
        assert_true(parse_cands(fld[3], NULL, &g));
        assert_true(parse_cands(fld[4], &want, NULL));
        assert_true(parse_cands(fld[5], &wantp, NULL));
        for (int i = 0; i < 12; i++) want.w[i] |= wantp.w[i]; /* placements never occur here */
        run(tech(m->id), m->opts, &g, &st);
        int matching = 0, equal = 0;
        char why[1200] = "no instance with these digits";
        for (int i = 0; i < st.n; i++) {
            char dg[12];
            step_digits(&st.v[i], m->digits, dg);
            if (strcmp(dg, fld[1])) continue;
            matching++;
            candset got = {{0}};
            for (int k = 0; k < st.v[i].nelim; k++)
                cs_add(&got, st.v[i].elim[k].cell, st.v[i].elim[k].digit);
            if (!memcmp(&got, &want, sizeof got))
                equal++;
            else
                snprintf(why, sizeof why, "different instance: %s", st.v[i].text);
        }
        bool pass = fail_case ? matching == 0 : matching > 0 && equal == matching;
        if (fail_case && !pass) snprintf(why, sizeof why, "found %s", st.v[0].text);
        if (pass) {
            r->pass++;
            continue;
        }
        bool listed = false;
        for (int i = 0; i < nknown; i++) listed |= known[i].line == lineno;
        printf("  %s line %d %s: %s\n", listed ? "known" : "FAIL", lineno, code, why);
        if (!listed) unexpected++;
    }
    fclose(f);
    free(st.v);
    printf("  %-8s %5s %5s\n", "code", "pass", "total");
    for (int i = 0; i < nres; i++)
        printf("  %-8s %5d %5d\n", res[i].code, res[i].pass, res[i].total);
    return unexpected;
}

/* Walk puzzles to the solution (singles first, then our techniques' first
 * step, else the solution digit of the emptiest cell) and ask every technique
 * for all its steps at every position. Returns violations. */
static long per_id[16]; /* steps found per technique, over all soundness runs */

static long soundness(const char *const *ids, int nids, const char *opts, const char *file,
                      int npuz, long *nsteps, long *npos)
{
    static const char *advance_plugins[] = {"singles", "intersections", "subsets"};
    sdk_plugin adv[3];
    int nadv = 0;
    for (int i = 0; i < 3; i++) {
        char path[1024];
        const char *b = getenv("SUDOKU_BUILD");
        snprintf(path, sizeof path, "%s/lib/sudokud/plugins/%s.so", b ? b : "build",
                 advance_plugins[i]);
        sdk_error err;
        if (sdk_plugin_open(path, &adv[nadv], &err)) nadv++;
    }
    uint8_t(*puz)[81];
    int n = tu_read_puzzles(file, npuz, 1, &puz);
    long bad = 0;
    steps st = {0};
    for (int p = 0; p < n; p++) {
        uint8_t sol[2][81];
        if (sdk_solve(puz[p], 2, sol, NULL) != 1) continue;
        sdk_grid g;
        sdk_grid_from_values(&g, puz[p]);
        while (!sdk_grid_solved(&g)) {
            (*npos)++;
            sdk_step next;
            bool have = false;
            for (int i = 0; i < nids; i++) {
                run(tech(ids[i]), opts, &g, &st);
                *nsteps += st.n;
                per_id[i] += st.n;
                for (int k = 0; k < st.n; k++) {
                    const sdk_step *s = &st.v[k];
                    for (int e = 0; e < s->nelim; e++)
                        if (sol[0][s->elim[e].cell] == s->elim[e].digit) {
                            char line[82];
                            printf("VIOLATION %s: %s\n  grid %s\n", ids[i], s->text,
                                   sdk_format_line(&g, line));
                            bad++;
                            break;
                        }
                }
                if (!have && st.n) {
                    next = st.v[0];
                    have = true;
                }
            }
            /* prefer simple techniques to move on */
            for (int a = 0; a < nadv; a++)
                for (const sdk_technique *const *t = adv[a].list; *t; t++) {
                    run(*t, "", &g, &st);
                    if (st.n) {
                        next = st.v[0];
                        goto apply;
                    }
                }
            if (have) goto apply;
            {
                int best = -1;
                for (int c = 0; c < 81; c++)
                    if (!g.value[c] &&
                        (best < 0 || sdk_mask_count(g.cand[c]) < sdk_mask_count(g.cand[best])))
                        best = c;
                sdk_grid_place(&g, best, sol[0][best], false);
                continue;
            }
        apply:
            if (bad) break;
            sdk_step_apply(&next, &g);
        }
        if (bad) break;
    }
    free(st.v);
    free(puz);
    for (int i = 0; i < nadv; i++) sdk_plugin_close(&adv[i]);
    return bad;
}

/* ---- misc -------------------------------------------------------------------- */

static const code_map map[] = {
    {"1101", "sue-de-coq", "", DIG_ELIM},
};

static const known_fail known[] = {{NULL, 0, NULL}};

static int setup(void **state)
{
    (void)state;
    if (!nplugins) open_plugin("misc");
    return 0;
}

static void test_reglib(void **state)
{
    (void)state;
    int bad = reglib(map, (int)(sizeof map / sizeof *map), known, 0);
    assert_int_equal(bad, 0);
}

/* Sue de Coq from HoDoKu's source comment: r7c45 - {123689} (r7c128 - {2389},
 * r9c6 - {16}) => r8c46,r9c4<>1, r8c456,r9c4<>6, r7c3<>2, r7c3<>9. */
static void test_sdc_text(void **state)
{
    (void)state;
    sdk_grid g;
    build_grid(".....3+5+1+7+1+3+5+42+786+9867+91+54..+6+935+4+82+717183.+2.+54+2+54...........47."
               "55......+4.....+5..9.",
               &g);
    steps st = {0};
    run(tech("sue-de-coq"), "", &g, &st);
    bool found = false;
    for (int i = 0; i < st.n; i++)
        found |= strstr(st.v[i].text,
                        "Sue de Coq: r7c45 - {123689} (r7c128 - {2389}, r9c6 - {16})") != NULL &&
                 st.v[i].nelim == 9;
    if (!found)
        for (int i = 0; i < st.n; i++) printf("  got: %s\n", st.v[i].text);
    assert_true(found);
    free(st.v);
}

/* APE: r1c1 {1,2,3} and r1c2 {1,2} in one row; r2c3 {1,3} sees both. With
 * r1c2=1 r1c1 cannot be 3 (r2c3 empty) nor 1; with r1c2=2, r1c1=3 leaves r2c3
 * only 1: fine. So r1c1=3 survives with r1c2=2, r1c1=1 survives with r1c2=2.
 * A second common cell r3c3 {2,3} kills (r1c1=3, r1c2=2) too: r1c1 loses 3. */
static void test_ape(void **state)
{
    (void)state;
    sdk_grid g;
    sdk_grid_init(&g);
    for (int d = 4; d <= 9; d++) {
        sdk_grid_eliminate(&g, 0, d);
        sdk_grid_eliminate(&g, 1, d);
        sdk_grid_eliminate(&g, 11, d);
        sdk_grid_eliminate(&g, 20, d);
    }
    sdk_grid_eliminate(&g, 1, 3);
    sdk_grid_eliminate(&g, 11, 2);
    sdk_grid_eliminate(&g, 20, 1);
    steps st = {0};
    run(tech("aligned-pair-exclusion"), "", &g, &st);
    bool found = false;
    for (int i = 0; i < st.n; i++)
        if (!strcmp(st.v[i].text, "Aligned Pair Exclusion: r1c1,r1c2 => r1c1<>3")) found = true;
    if (!found)
        for (int i = 0; i < st.n; i++) printf("  got: %s\n", st.v[i].text);
    assert_true(found);
    free(st.v);
}

static void test_soundness(void **state)
{
    (void)state;
    const char *ids[] = {"sue-de-coq", "aligned-pair-exclusion"};
    long nsteps = 0, npos = 0;
    long bad = soundness(ids, 2, "", "top1465.txt", 300, &nsteps, &npos);
    bad += soundness(ids, 2, "", "unbiased_1k.txt", 300, &nsteps, &npos);
    bad += soundness(ids, 2, "", "forum_hardest_1106.txt", 100, &nsteps, &npos);
    printf("  soundness: %ld positions, %ld steps checked, %ld violations\n", npos, nsteps, bad);
    for (int i = 0; i < (int)(sizeof ids / sizeof *ids); i++)
        printf("    %-24s %ld\n", ids[i], per_id[i]);
    assert_int_equal(bad, 0);
    assert_true(nsteps > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_sdc_text, setup),
        cmocka_unit_test_setup(test_ape, setup),
        cmocka_unit_test_setup(test_reglib, setup),
        cmocka_unit_test_setup(test_soundness, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
