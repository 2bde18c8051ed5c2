/* test_fish.c - the fish plugin (plugins/fish) and the fish enumerator
 * (lib/fish.c):
 *   - every fish entry of HoDoKu's regression library (03xx and the 5-digit
 *     Siamese codes), checked the way HoDoKu's tester does it (FORMAT.md §6):
 *     build the position, ask the technique for ALL its steps, every step of
 *     the code and digit must make exactly the listed eliminations, and there
 *     must be at least one; a pass count per code is printed;
 *   - soundness: at every state of a few hundred puzzles (solved with singles
 *     and the fish themselves) no fish eliminates a digit of the solution;
 *   - small checks: ids exported, text format, first-step mode stops,
 *     options (max-fins) change the result. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "sudoku/fish.h"
#include "sudoku/solver.h"

static const sdk_technique *const *techs;

static const char *env_or(const char *name, const char *def)
{
    const char *v = getenv(name);
    return v && *v ? v : def;
}

static const sdk_technique *tech(const char *id)
{
    for (int i = 0; techs[i]; i++)
        if (strcmp(techs[i]->id, id) == 0) return techs[i];
    return NULL;
}

static int setup(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/lib/sudokud/plugins/fish.so", env_or("SUDOKU_BUILD", "build"));
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
        return -1;
    }
    sdk_plugin_fn fn = (sdk_plugin_fn)dlsym(h, SDK_PLUGIN_SYMBOL);
    if (!fn) return -1;
    techs = fn();
    return 0;
}

/* ---- collecting steps ---------------------------------------------------- */

typedef struct collect {
    sdk_step *steps;
    int n, cap;
    int stop_after; /* 0: all */
} collect;

static int collect_emit(void *ctx, const sdk_step *s)
{
    collect *c = ctx;
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 16;
        c->steps = realloc(c->steps, sizeof *c->steps * (size_t)c->cap);
    }
    c->steps[c->n++] = *s;
    return c->stop_after && c->n >= c->stop_after ? SDK_STOP : SDK_CONTINUE;
}

static void opts_set(sdk_options *o, const char *key, const char *val)
{
    snprintf(o->kv[o->n].key, sizeof o->kv[o->n].key, "%s", key);
    snprintf(o->kv[o->n].val, sizeof o->kv[o->n].val, "%s", val);
    o->n++;
}

static int run_tech(const sdk_technique *t, const sdk_options *o, const sdk_grid *g, collect *c)
{
    sdk_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.opts = o;
    ctx.unique = true;
    sdk_sink sink = {collect_emit, c};
    return t->find(&ctx, g, &sink);
}

/* ---- reglib -------------------------------------------------------------- */

static const char *kind_prefix[7] = {
    "", "finned-", "sashimi-", "franken-", "finned-franken-", "mutant-", "finned-mutant-"};
static const char *size_name[6] = {"x-wing",    "swordfish", "jellyfish",
                                   "squirmbag", "whale",     "leviathan"};

/* Reglib cases we do not pass, with the reason (none so far). */
static const struct {
    const char *code;
    int line;
    const char *why;
} known_fail[] = {{NULL, 0, NULL}};

static bool is_known(const char *code, int line)
{
    for (int i = 0; known_fail[i].code; i++)
        if (!strcmp(known_fail[i].code, code) && known_fail[i].line == line) return true;
    return false;
}

/* Build the position of a library line (FORMAT.md §3). */
static bool build_position(const char *gridf, const char *removed, sdk_grid *g)
{
    sdk_grid_init(g);
    int cell = 0;
    for (const char *p = gridf; *p && cell < 81; p++) {
        bool placed = false;
        if (*p == '+') {
            placed = true;
            p++;
        }
        if (*p >= '1' && *p <= '9') sdk_grid_place(g, cell, *p - '0', !placed);
        cell++;
    }
    if (cell != 81) return false;
    for (const char *p = removed; p[0] && p[1] && p[2];) {
        if (p[0] >= '1' && p[0] <= '9') {
            int d = p[0] - '0', r = p[1] - '1', c = p[2] - '1';
            sdk_grid_eliminate(g, r * 9 + c, d);
            p += 3;
        } else {
            p++;
        }
    }
    return true;
}

/* Eliminations as HoDoKu writes them: by digit, then by cell. */
static void serialise(const sdk_step *s, char *out, size_t n)
{
    size_t len = 0;
    out[0] = 0;
    for (int d = 1; d <= 9; d++)
        for (int cell = 0; cell < 81; cell++)
            for (int i = 0; i < s->nelim; i++)
                if (s->elim[i].digit == d && s->elim[i].cell == cell && len + 5 < n)
                    len += (size_t)snprintf(out + len, n - len, "%s%d%d%d", len ? " " : "", d,
                                            cell / 9 + 1, cell % 9 + 1);
}

typedef struct code_stat {
    char code[8];
    int pass, total, known;
} code_stat;

static void test_reglib(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/reglib-1.4.txt", env_or("SUDOKU_REGLIB", "../shared/reglib"));
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    code_stat stats[64];
    int nstat = 0, failures = 0, lineno = 0;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t L = strlen(line);
        while (L && (line[L - 1] == '\n' || line[L - 1] == '\r' || line[L - 1] == ' '))
            line[--L] = 0;
        if (strncmp(line, ":03", 3) != 0) continue;
        /* split the 7 fields */
        char *fld[8] = {0};
        int nf = 0;
        char *p = line + 1;
        fld[nf++] = p;
        for (; *p && nf < 8; p++)
            if (*p == ':') {
                *p = 0;
                fld[nf++] = p + 1;
            }
        for (int i = nf; i < 8; i++) fld[i] = "";
        const char *code = fld[0], *digits = fld[1];
        int kind = code[2] - '0', size = code[3] - '0';
        if (kind > 6 || size > 5) continue; /* kraken (037x) is not ours */
        bool siamese_code = strlen(code) == 5;
        char id[64];
        snprintf(id, sizeof id, "%s%s", kind_prefix[kind], size_name[size]);
        const sdk_technique *t = tech(id);
        assert_non_null(t);

        code_stat *cs = NULL;
        for (int i = 0; i < nstat; i++)
            if (!strcmp(stats[i].code, code)) cs = &stats[i];
        if (!cs) {
            cs = &stats[nstat++];
            memset(cs, 0, sizeof *cs);
            snprintf(cs->code, sizeof cs->code, "%s", code);
        }
        cs->total++;

        sdk_grid g;
        assert_true(build_position(fld[2], fld[3], &g));
        sdk_options o = {0};
        /* HoDoKu's tester: Siamese fish on for sizes 3 and 4 */
        if (size == 1 || size == 2) opts_set(&o, "siamese", "1");
        collect c = {0};
        run_tech(t, &o, &g, &c);
        int found = 0, bad = 0;
        char got[2048], badtext[1100] = "";
        for (int i = 0; i < c.n; i++) {
            const sdk_step *s = &c.steps[i];
            if (s->nelim == 0) continue;
            char dg[4] = {(char)('0' + s->elim[0].digit), 0};
            if (strcmp(dg, digits) != 0) continue;
            bool sia = strncmp(s->text, "Siamese ", 8) == 0;
            if (sia != siamese_code) continue;
            found++;
            serialise(s, got, sizeof got);
            if (strcmp(got, fld[4]) != 0) {
                bad++;
                snprintf(badtext, sizeof badtext, "%s", s->text);
            }
        }
        free(c.steps);
        bool ok = found > 0 && bad == 0;
        if (ok) {
            cs->pass++;
        } else if (is_known(code, lineno)) {
            cs->known++;
        } else {
            failures++;
            printf("FAIL line %d :%s:%s: expected [%s], %d steps, %d differ%s%s\n", lineno, code,
                   digits, fld[4], found, bad, *badtext ? ", e.g. " : "", badtext);
        }
    }
    fclose(f);
    printf("reglib fish: code pass/total (known failures)\n");
    int tp = 0, tt = 0;
    for (int i = 0; i < nstat; i++) {
        printf("  %-6s %3d/%-3d%s\n", stats[i].code, stats[i].pass, stats[i].total,
               stats[i].known ? " (known)" : "");
        tp += stats[i].pass;
        tt += stats[i].total;
    }
    printf("  total  %d/%d\n", tp, tt);
    assert_true(tt >= 140);
    assert_int_equal(failures, 0);
}

/* ---- soundness ----------------------------------------------------------- */

/* Pointing and claiming: a digit of a box confined to one line (or of a line
 * to one box) leaves the rest of that line (box). */
static bool locked_candidates(sdk_grid *g)
{
    bool any = false;
    for (int b = 18; b < 27; b++)
        for (int l = 0; l < 18; l++) {
            sdk_bb x = sdk_bb_and(sdk_house_bb[b], sdk_house_bb[l]);
            if (sdk_bb_empty(x)) continue;
            for (int d = 1; d <= 9; d++) {
                sdk_bb inb = sdk_house_digit(g, b, d), inl = sdk_house_digit(g, l, d);
                if (sdk_bb_empty(sdk_bb_and(inb, x))) continue;
                sdk_bb rest = sdk_bb_none();
                if (sdk_bb_subset(inb, x))
                    rest = sdk_bb_andnot(inl, x);
                else if (sdk_bb_subset(inl, x))
                    rest = sdk_bb_andnot(inb, x);
                SDK_BB_FOREACH(c, rest) any |= sdk_grid_eliminate(g, c, d);
            }
        }
    return any;
}

/* Naked and hidden singles and locked candidates until none is left; false
 * if the grid broke. */
static bool singles(sdk_grid *g)
{
    bool progress = true;
    while (progress) {
        progress = locked_candidates(g);
        for (int c = 0; c < 81; c++) {
            if (g->value[c]) continue;
            if (g->cand[c] == 0) return false;
            if (sdk_mask_count(g->cand[c]) == 1) {
                sdk_grid_place(g, c, sdk_mask_first(g->cand[c]), false);
                progress = true;
            }
        }
        for (int h = 0; h < 27; h++)
            for (int d = 1; d <= 9; d++) {
                sdk_bb b = sdk_house_digit(g, h, d);
                if (sdk_bb_count(b) == 1) {
                    sdk_grid_place(g, sdk_bb_first(b), d, false);
                    progress = true;
                }
            }
    }
    return true;
}

typedef struct sound {
    const uint8_t *sol;
    const char *id;
    long steps, elims, bad;
    sdk_step first;
    bool have;
} sound;

static int sound_emit(void *ctx, const sdk_step *s)
{
    sound *sd = ctx;
    sd->steps++;
    for (int e = 0; e < s->nelim; e++) {
        sd->elims++;
        if (sd->sol[s->elim[e].cell] == s->elim[e].digit) {
            sd->bad++;
            printf("UNSOUND %s: %s\n", sd->id, s->text);
        }
    }
    if (!sd->have) {
        sd->first = *s;
        sd->have = true;
    }
    return SDK_CONTINUE;
}

static void test_soundness(void **state)
{
    (void)state;
    static const char *ids[] = {
        "x-wing",
        "swordfish",
        "jellyfish",
        "squirmbag",
        "whale",
        "leviathan",
        "finned-x-wing",
        "finned-swordfish",
        "finned-jellyfish",
        "finned-squirmbag",
        "sashimi-x-wing",
        "sashimi-swordfish",
        "sashimi-jellyfish",
        "sashimi-squirmbag",
        "franken-x-wing",
        "franken-swordfish",
        "franken-jellyfish",
        "finned-franken-x-wing",
        "finned-franken-swordfish",
        /* the costly ones: every 4th state */
        "finned-franken-jellyfish",
        "mutant-x-wing",
        "mutant-swordfish",
        "mutant-jellyfish",
        "finned-mutant-x-wing",
        "finned-mutant-swordfish",
        "finned-mutant-jellyfish",
    };
    const int nids = (int)(sizeof ids / sizeof ids[0]), nids_cheap = 19;
    struct {
        const char *file;
        int count, stride;
    } sets[] = {
        {"top1465.txt", 150, 9}, {"forum_hardest_1106.txt", 60, 6}, {"unbiased_1k.txt", 100, 10}};
    long states = 0, steps = 0, elims = 0, bad = 0, puzzles = 0;
    long per_tech[32] = {0};
    for (size_t si = 0; si < sizeof sets / sizeof sets[0]; si++) {
        uint8_t(*pz)[81];
        int n = tu_read_puzzles(sets[si].file, sets[si].count, sets[si].stride, &pz);
        for (int k = 0; k < n; k++) {
            uint8_t sol[2][81];
            if (sdk_solve(pz[k], 2, sol, NULL) != 1) continue;
            puzzles++;
            sdk_grid g;
            sdk_grid_init(&g);
            for (int c = 0; c < 81; c++)
                if (pz[k][c]) sdk_grid_place(&g, c, pz[k][c], true);
            for (int iter = 0; iter < 200; iter++) {
                if (!singles(&g) || sdk_grid_solved(&g)) break;
                states++;
                sound sd;
                memset(&sd, 0, sizeof sd);
                sd.sol = sol[0];
                for (int t = 0; t < nids; t++) {
                    if (t >= nids_cheap && states % 8) continue;
                    sdk_options o = {0};
                    if (iter % 2) opts_set(&o, "siamese", "1");
                    sdk_ctx ctx;
                    memset(&ctx, 0, sizeof ctx);
                    ctx.opts = &o;
                    sdk_sink sink = {sound_emit, &sd};
                    long before = sd.steps;
                    sd.id = ids[t];
                    tech(ids[t])->find(&ctx, &g, &sink);
                    per_tech[t] += sd.steps - before;
                }
                steps += sd.steps;
                elims += sd.elims;
                bad += sd.bad;
                if (sd.have) {
                    sdk_step_apply(&sd.first, &g);
                } else {
                    /* stuck: place one digit of the solution (a cell with the
                     * most candidates) to reach further states */
                    int best = -1;
                    for (int c = 0; c < 81; c++)
                        if (!g.value[c] &&
                            (best < 0 || sdk_mask_count(g.cand[c]) > sdk_mask_count(g.cand[best])))
                            best = c;
                    sdk_grid_place(&g, best, sol[0][best], false);
                }
            }
        }
        free(pz);
    }
    printf("soundness: %ld puzzles, %ld states, %ld steps, %ld eliminations, %ld wrong\n", puzzles,
           states, steps, elims, bad);
    for (int t = 0; t < nids; t++) printf("  %-26s %ld steps\n", ids[t], per_tech[t]);
    assert_true(puzzles >= 200);
    assert_true(steps > 100);
    assert_int_equal(bad, 0);
}

/* ---- small checks -------------------------------------------------------- */

static void test_ids(void **state)
{
    (void)state;
    int n = 0;
    for (int i = 0; techs[i]; i++) {
        assert_int_equal(techs[i]->abi, SDK_ABI_VERSION);
        assert_non_null(techs[i]->find);
        n++;
    }
    assert_int_equal(n, 42);
    for (int k = 0; k < 7; k++)
        for (int s = 0; s < 6; s++) {
            char id[64];
            snprintf(id, sizeof id, "%s%s", kind_prefix[k], size_name[s]);
            assert_non_null(tech(id));
        }
}

/* The X-Wing of reglib's first 0300 line, with HoDoKu's text. */
static const char *XW = "9.....+5+6+1..+6.+1.7+937+1..962486...2+147+9........5....4...642..+586+1+"
                        "75.71.+2..+4..1....+52";

static void test_text_and_stop(void **state)
{
    (void)state;
    sdk_grid g;
    assert_true(build_position(XW, "", &g));
    sdk_options o = {0};
    collect c = {0};
    run_tech(tech("x-wing"), &o, &g, &c);
    bool seen = false;
    for (int i = 0; i < c.n; i++)
        if (strncmp(c.steps[i].text, "X-Wing: 3 r37 c34 => ", 21) == 0) {
            char ser[256];
            serialise(&c.steps[i], ser, sizeof ser);
            assert_string_equal(ser, "313 314 343 344 353 354 363 364 394");
            seen = true;
            int nb = 0, nc = 0;
            for (int h = 0; h < c.steps[i].nhouse; h++) {
                nb += c.steps[i].house[h].role == SDK_ROLE_BASE;
                nc += c.steps[i].house[h].role == SDK_ROLE_COVER;
            }
            assert_int_equal(nb, 2);
            assert_int_equal(nc, 2);
            assert_int_equal(c.steps[i].nmark, 4);
        }
    if (!seen)
        for (int i = 0; i < c.n; i++) printf("  got: %s\n", c.steps[i].text);
    assert_true(seen);
    free(c.steps);

    /* first-step mode: the technique stops at the first step */
    collect one = {.stop_after = 1};
    assert_int_equal(run_tech(tech("x-wing"), &o, &g, &one), SDK_STOP);
    assert_int_equal(one.n, 1);
    free(one.steps);
}

/* max-fins=1 must drop a finned fish that needs two fins. */
static void test_max_fins(void **state)
{
    (void)state;
    /* reglib 0311 line: Finned Swordfish 4 c168 r247 fr1c6 (one fin) */
    sdk_grid g;
    assert_true(build_position(".3.2+6..+8.86..3.5.+2.+2487..+3+6.+8.39.+2.72..6.8..31.+3+527.+6..."
                               "+2.863..+3.8.5+2+691.....3.2.",
                               "924 128 448 452 157 458 578 491 591 792 193 793", &g));
    sdk_options o = {0};
    collect c = {0};
    run_tech(tech("finned-swordfish"), &o, &g, &c);
    int all = c.n;
    free(c.steps);
    opts_set(&o, "max-fins", "1");
    collect c1 = {0};
    run_tech(tech("finned-swordfish"), &o, &g, &c1);
    for (int i = 0; i < c1.n; i++) {
        int fins = 0;
        for (int m = 0; m < c1.steps[i].nmark; m++)
            fins += c1.steps[i].mark[m].role == SDK_ROLE_FIN ||
                    c1.steps[i].mark[m].role == SDK_ROLE_ENDOFIN;
        assert_true(fins <= 1);
    }
    assert_true(c1.n >= 1);
    assert_true(c1.n <= all);
    free(c1.steps);
}

/* The enumerator used directly (as kraken fish will): with need_elims off it
 * also reports finned fish that eliminate nothing, and every fish it reports
 * is consistent: base candidates = covered part + fins + endo fins. */
static int check_fish(void *ctx, const sdk_fish *f)
{
    long *n = ctx;
    sdk_bb covered = sdk_bb_and(f->base_cells, f->cover_cells);
    sdk_bb whole = sdk_bb_or(sdk_bb_or(covered, f->fins), f->endo_fins);
    assert_true(sdk_bb_eq(whole, f->base_cells));
    assert_true(sdk_bb_empty(sdk_bb_and(f->fins, f->cover_cells)));
    assert_true(sdk_bb_subset(f->elims, f->potential));
    (*n)++;
    return 0;
}

static void test_enumerator(void **state)
{
    (void)state;
    sdk_grid g;
    assert_true(build_position(XW, "", &g));
    sdk_fish_search s;
    sdk_fish_search_init(&s);
    s.kind = SDK_FISH_FRANKEN;
    long with = 0, without = 0;
    sdk_fish_find(&g, 0, &s, check_fish, &with);
    s.need_elims = false;
    sdk_fish_find(&g, 0, &s, check_fish, &without);
    assert_true(with > 0);
    assert_true(without > with);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ids),      cmocka_unit_test(test_text_and_stop),
        cmocka_unit_test(test_max_fins), cmocka_unit_test(test_enumerator),
        cmocka_unit_test(test_reglib),   cmocka_unit_test(test_soundness),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
