/* test_wings.c - the wings plugin (XY-Wing, XYZ-Wing, W-Wing, WXYZ-Wing,
 * Remote Pair, XY-Chain).
 *
 * 1. HoDoKu's regression library, the strict way (reglib FORMAT.md §6): every
 *    instance whose digits field equals the line's must make exactly the
 *    line's eliminations. Pass counts per code; an unlisted failure fails.
 * 2. Hand-checked texts and structure (pivot/pincers, chain links).
 * 3. Soundness: on a few hundred unique puzzles, at every position of a walk
 *    to the solution, no technique eliminates a solution digit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/solver.h"
#include "testutil.h"

/* ---- the harness (same in test_uniqueness.c, test_misc.c) ---------------------- */

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

/* ---- wings ------------------------------------------------------------------- */

static const code_map map[] = {
    {"0800", "xy-wing", "", DIG_PAIR},     {"0801", "xyz-wing", "", DIG_PAIR},
    {"0803", "w-wing", "", DIG_PAIR},      {"0702", "xy-chain", "", DIG_SINGLE},
    {"0703", "remote-pair", "", DIG_PAIR},
};

static const known_fail known[] = {{NULL, 0, NULL}};

static int setup(void **state)
{
    (void)state;
    if (!nplugins) open_plugin("wings");
    return 0;
}

static void test_reglib(void **state)
{
    (void)state;
    int bad = reglib(map, (int)(sizeof map / sizeof *map), known, 0);
    assert_int_equal(bad, 0);
}

/* XY-Wing from HoDoKu's source comment: 1/2/3 in r2c7,r3c18 => r3c7<>3. */
static void test_xy_wing_text(void **state)
{
    (void)state;
    sdk_grid g;
    build_grid("..+8+2..57.+7.+54....+8..9+8+57...4+5+17+2+98+6+3+2765+83+94+1+9+8+3+6+1+4+7+526+9+"
               "23+4+5+1+8+7537+168...+81+4+9+726+3+5",
               &g);
    steps st = {0};
    run(tech("xy-wing"), "", &g, &st);
    bool found = false;
    for (int i = 0; i < st.n; i++) {
        if (strcmp(st.v[i].text, "XY-Wing: 1/2/3 in r3c8,r2c7,r3c1 => r3c7<>3")) continue;
        found = true;
        int pivots = 0, pincers = 0;
        for (int k = 0; k < st.v[i].nmark; k++) {
            if (st.v[i].mark[k].role == SDK_ROLE_PIVOT) pivots++;
            if (st.v[i].mark[k].role == SDK_ROLE_PINCER) pincers++;
        }
        assert_int_equal(pivots, 1);
        assert_int_equal(pincers, 2);
    }
    if (!found)
        for (int i = 0; i < st.n; i++) printf("  got: %s\n", st.v[i].text);
    assert_true(found);
    free(st.v);
}

/* The first XY-Chain of reglib: digit 7, links alternate cell (strong) and
 * house (weak), both ends hold 7. */
static void test_xy_chain_links(void **state)
{
    (void)state;
    sdk_grid g;
    build_grid("4+7+2+35+698153+1..+8.+2.+86+91.+2.53+158.2+7+34.+2+9+64+13+8+7+57+4+38.+5....+8..."
               "9....2..+8+1...+91..+3+4.68",
               &g);
    steps st = {0};
    run(tech("xy-chain"), "", &g, &st);
    bool found = false;
    for (int i = 0; i < st.n; i++) {
        const sdk_step *s = &st.v[i];
        if (s->nelim != 1 || s->elim[0].cell != 6 * 9 + 4 || s->elim[0].digit != 6) continue;
        found = true;
        assert_true(strncmp(s->text, "XY-Chain: 6 6- ", 15) == 0);
        assert_true(s->nlink >= 3 && s->nlink % 2 == 1);
        for (int k = 0; k < s->nlink; k++) assert_int_equal(s->link[k].strong, k % 2 == 0);
        assert_int_equal(s->link[0].from.digit, 6);
        assert_int_equal(s->link[s->nlink - 1].to.digit, 6);
    }
    assert_true(found);
    free(st.v);
}

static void test_soundness(void **state)
{
    (void)state;
    const char *ids[] = {"xy-wing", "xyz-wing", "w-wing", "wxyz-wing", "remote-pair", "xy-chain"};
    long nsteps = 0, npos = 0;
    long bad = soundness(ids, 6, "", "top1465.txt", 300, &nsteps, &npos);
    bad += soundness(ids, 6, "", "unbiased_1k.txt", 300, &nsteps, &npos);
    bad += soundness(ids, 6, "", "forum_hardest_1106.txt", 100, &nsteps, &npos);
    printf("  soundness: %ld positions, %ld steps checked, %ld violations\n", npos, nsteps, bad);
    for (int i = 0; i < (int)(sizeof ids / sizeof *ids); i++)
        printf("    %-24s %ld\n", ids[i], per_id[i]);
    assert_int_equal(bad, 0);
    assert_true(nsteps > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_xy_wing_text, setup),
        cmocka_unit_test_setup(test_xy_chain_links, setup),
        cmocka_unit_test_setup(test_reglib, setup),
        cmocka_unit_test_setup(test_soundness, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
