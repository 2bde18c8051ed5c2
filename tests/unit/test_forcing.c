/* test_forcing.c - soundness walk for every technique of the chains and
 * forcing plugins: along a solving path of hard puzzles (basic reduction, then
 * the first step found by the cheapest of our techniques), every step of every
 * technique is checked against the brute-force solution. Also checks that each
 * forcing technique finds something on these puzzles, and prints timings
 * (informational only). CHAINS_SOUND_N sets the number of puzzles per file. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "testutil.h"
#include "sudoku/links.h"
#include "sudoku/solver.h"
#include "sudoku/technique.h"

static const sdk_technique *find_tech(const char *plugin, const char *id)
{
    char path[1024];
    const char *b = getenv("SUDOKU_BUILD");
    snprintf(path, sizeof path, "%s/lib/sudokud/plugins/%s.so", b ? b : "build", plugin);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) fail_msg("dlopen %s: %s", path, dlerror());
    sdk_plugin_fn fn = (sdk_plugin_fn)dlsym(h, SDK_PLUGIN_SYMBOL);
    if (!fn) fail_msg("no plugin symbol in %s", path);
    const sdk_technique *const *l = fn();
    for (int i = 0; l[i]; i++)
        if (!strcmp(l[i]->id, id)) return l[i];
    fail_msg("no technique %s", id);
    return NULL;
}

static const struct {
    const char *plugin, *id, *opts;
} techs[] = {
    {"chains", "continuous-nice-loop", ""},
    {"chains", "discontinuous-nice-loop", ""},
    {"chains", "aic", ""},
    {"chains", "grouped-continuous-nice-loop", "als=1"},
    {"chains", "grouped-discontinuous-nice-loop", "als=1"},
    {"chains", "grouped-aic", "als=1"},
    {"forcing", "nishio", ""},
    {"forcing", "kraken-fish", ""},
    {"forcing", "forcing-chain-contradiction", "als=1"},
    {"forcing", "forcing-chain-verity", "als=1"},
    {"forcing", "forcing-net-contradiction", ""},
    {"forcing", "forcing-net-verity", ""},
    {"forcing", "dynamic-forcing-chain", ""},
    {"forcing", "nested-forcing-chain", ""},
    {"forcing", "kraken-fish-2", ""},
    {"forcing", "kraken-fish", "franken=1"},
    {"forcing", "kraken-fish-2", "franken=1 max-size=3"},
};
#define NT (int)(sizeof techs / sizeof techs[0])

typedef struct chk {
    const uint8_t *sol;
    int steps, wrong, nolinks;
    sdk_step first;
    bool have;
} chk;

static int check(void *ctx, const sdk_step *s)
{
    chk *c = ctx;
    c->steps++;
    for (int i = 0; i < s->nelim; i++)
        if (c->sol[s->elim[i].cell] == s->elim[i].digit) c->wrong++;
    for (int i = 0; i < s->nplace; i++)
        if (c->sol[s->place[i].cell] != s->place[i].digit) c->wrong++;
    /* every step shows its chains: links, and one trace line per chain */
    static char text[SDK_STEP_MAX_LINK * 128];
    if (!s->nlink || !sdk_step_trace_text(s, text, sizeof text)[0]) {
        if (!c->nolinks) fprintf(stderr, "NO LINKS: %s\n", s->text);
        c->nolinks++;
    }
    for (int i = 0; i < s->nlink && i < SDK_STEP_MAX_LINK; i++) {
        const sdk_link *l = &s->link[i];
        if (l->from.digit < 1 || l->from.digit > 9 || l->to.digit < 1 || l->to.digit > 9 ||
            !l->from.ncell || !l->to.ncell || l->from.cell[0] > 80 || l->to.cell[0] > 80)
            c->nolinks++;
    }
    if (!c->have) {
        c->first = *s;
        c->have = true;
    }
    return SDK_CONTINUE;
}

static bool basic(sdk_grid *g)
{
    bool any = false;
    for (bool ch = true; ch;) {
        ch = false;
        for (int c = 0; c < 81; c++)
            if (!g->value[c] && sdk_mask_count(g->cand[c]) == 1) {
                sdk_grid_place(g, c, sdk_mask_first(g->cand[c]), false);
                ch = true;
            }
        for (int h = 0; h < 27; h++)
            for (int d = 1; d <= 9; d++) {
                sdk_bb b = sdk_house_digit(g, h, d);
                if (sdk_bb_count(b) == 1) {
                    sdk_grid_place(g, sdk_bb_first(b), d, false);
                    ch = true;
                }
                if (sdk_bb_empty(b)) continue;
                for (int o = 0; o < 27; o++) {
                    if (o == h || !sdk_bb_subset(b, sdk_house_bb[o])) continue;
                    sdk_bb rest = sdk_bb_andnot(sdk_house_digit(g, o, d), b);
                    SDK_BB_FOREACH(x, rest) ch |= sdk_grid_eliminate(g, x, d);
                }
            }
        any |= ch;
    }
    return any;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int nolinks;

static void walk(const char *file, int npuz, int *steps, int *wrong, int found[NT], double ms[NT],
                 int calls[NT])
{
    uint8_t(*p)[81];
    int n = tu_read_puzzles(file, npuz, 1, &p);
    assert_true(n > 0);
    const sdk_technique *t[NT];
    sdk_options o[NT];
    for (int k = 0; k < NT; k++) {
        t[k] = find_tech(techs[k].plugin, techs[k].id);
        memset(&o[k], 0, sizeof o[k]);
        char why[64];
        assert_true(sdk_options_parse(techs[k].opts, &o[k], why, sizeof why));
    }
    for (int i = 0; i < n; i++) {
        uint8_t sol[2][81];
        if (sdk_solve(p[i], 2, sol, NULL) != 1) continue;
        sdk_grid g;
        sdk_grid_from_values(&g, p[i]);
        for (int iter = 0; iter < 12 && !sdk_grid_solved(&g); iter++) {
            basic(&g);
            if (sdk_grid_solved(&g)) break;
            sdk_step *apply = NULL;
            static sdk_step keep;
            for (int k = 0; k < NT; k++) {
                chk c;
                memset(&c, 0, sizeof c);
                c.sol = sol[0];
                sdk_ctx ctx;
                memset(&ctx, 0, sizeof ctx);
                ctx.opts = &o[k];
                ctx.unique = true;
                sdk_sink sink = {check, &c};
                double t0 = now();
                t[k]->find(&ctx, &g, &sink);
                ms[k] += (now() - t0) * 1000;
                calls[k]++;
                *steps += c.steps;
                *wrong += c.wrong;
                nolinks += c.nolinks;
                if (c.wrong)
                    fprintf(stderr, "WRONG %s on %s #%d: %s\n", techs[k].id, file, i, c.first.text);
                found[k] += c.steps > 0;
                if (c.have && !apply) {
                    keep = c.first;
                    apply = &keep;
                }
            }
            if (!apply) break;
            sdk_step_apply(apply, &g);
        }
    }
    free(p);
}

static void test_soundness_walk(void **state)
{
    (void)state;
    const char *e = getenv("CHAINS_SOUND_N");
    int npuz = e ? atoi(e) : 6;
    int steps = 0, wrong = 0, found[NT] = {0}, calls[NT] = {0};
    double ms[NT] = {0};
    walk("top1465.txt", npuz, &steps, &wrong, found, ms, calls);
    walk("forum_hardest_1905_11plus.txt", npuz, &steps, &wrong, found, ms, calls);
    for (int k = 0; k < NT; k++)
        fprintf(stderr, "%-30s %-20s positions with steps %4d/%4d, mean %.1f ms\n", techs[k].id,
                techs[k].opts, found[k], calls[k], calls[k] ? ms[k] / calls[k] : 0);
    fprintf(stderr, "soundness walk: %d puzzles per file, %d steps, %d wrong\n", npuz, steps,
            wrong);
    assert_int_equal(wrong, 0);
    assert_int_equal(nolinks, 0);
    assert_true(steps > 0);
    /* the dynamic techniques always find something on the hardest puzzles */
    assert_true(found[12] > 0);
    assert_true(found[10] > 0);
    /* kraken fish of both types, basic and Franken */
    assert_true(found[7] > 0);
    assert_true(found[14] > 0);
    assert_true(found[15] >= found[7]);
    assert_true(found[16] > 0);
}

typedef struct k2 {
    const uint8_t *sol;
    int steps, other_digit, wrong, short_trace;
} k2;

static void count_line(void *ctx, const sdk_node *derived, const char *line)
{
    (void)derived;
    (void)line;
    (*(int *)ctx)++;
}

static int on_k2(void *ctx, const sdk_step *s)
{
    k2 *k = ctx;
    k->steps++;
    int d = 0;
    const char *p = strstr(s->text, "Kraken Fish Type 2: ");
    assert_non_null(p);
    p = strchr(p + 20, ':');
    assert_non_null(p);
    d = atoi(p + 1);
    assert_true(d >= 1 && d <= 9);
    for (int i = 0; i < s->nelim; i++) {
        if (s->elim[i].digit != d) k->other_digit++;
        if (k->sol[s->elim[i].cell] == s->elim[i].digit) k->wrong++;
    }
    /* one chain per base candidate of the cover house and per fin: >= 2 */
    int lines = 0;
    sdk_links_trace_lines(s->link, s->nlink, count_line, &lines);
    if (lines < 2) k->short_trace++;
    return SDK_CONTINUE;
}

/* Kraken type 2 makes eliminations of other digits than the fish's, which
 * type 1 never does; every step shows a chain per premise. */
static void test_kraken_type2(void **state)
{
    (void)state;
    uint8_t(*p)[81];
    int n = tu_read_puzzles("top1465.txt", 30, 1, &p);
    assert_true(n > 0);
    const sdk_technique *t = find_tech("forcing", "kraken-fish-2");
    k2 k = {0};
    for (int i = 0; i < n; i++) {
        uint8_t sol[2][81];
        if (sdk_solve(p[i], 2, sol, NULL) != 1) continue;
        sdk_grid g;
        sdk_grid_from_values(&g, p[i]);
        basic(&g);
        sdk_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        sdk_options o;
        memset(&o, 0, sizeof o);
        ctx.opts = &o;
        ctx.unique = true;
        k.sol = sol[0];
        sdk_sink sink = {on_k2, &k};
        t->find(&ctx, &g, &sink);
    }
    fprintf(stderr, "kraken type 2: %d steps on %d puzzles, %d eliminations of another digit\n",
            k.steps, n, k.other_digit);
    assert_int_equal(k.wrong, 0);
    assert_int_equal(k.short_trace, 0);
    assert_true(k.steps > 0);
    assert_true(k.other_digit > 0);
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_soundness_walk),
        cmocka_unit_test(test_kraken_type2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
