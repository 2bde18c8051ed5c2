/* test_gnpx_trace.c - `trace` in GNPX mode (SDK_DYN_GNPX) against the three
 * figures of the super-link seed (seeds/002), line for line.
 *
 * The expected lines are tests/unit/seed002_figures.txt (the seed's lines,
 * wrapped lines joined; a line the seed cuts off after "->" is compared by its
 * prefix). Figure 1 starts where the basic techniques stop (singles, locked
 * candidates, naked and hidden subsets), figures 2 and 3 after the singles.
 * Figures 1 and 2 are traced with ALS links, figure 3 (whose two chains hold
 * none) with house links only: with ALS links a shorter contradiction (through
 * the ALS r13467c9) comes first.
 * Every figure's lines are matched one by one with the engine's (consequences
 * sorted by cell, then digit, as the seed prints them): all of them, and no
 * consequence the seed does not list (27/27, 43/43, and figure 3's verdict
 * with its two chains). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "walk.h"
#include "sudoku/format.h"
#include "sudoku/links.h"

enum { MAXL = 64, LEN = 2048 };

typedef struct figure {
    char puzzle[82];
    int cell, digit;
    int n;
    char want[MAXL][LEN];
} figure;

typedef struct got {
    int n;
    char line[SDK_NCAND][LEN];
    char summary[8192];
} got;

static figure fig[3];

static void load(void)
{
    const char *src = getenv("SUDOKU_SOURCE");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/unit/seed002_figures.txt", src ? src : ".");
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot open %s", path);
    static char buf[LEN];
    int k = -1;
    while (fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\n")] = 0;
        if (buf[0] == '#' || !buf[0]) continue;
        int r, c, d;
        char p[82];
        if (sscanf(buf, "figure %*d r%dc%d=%d %81s", &r, &c, &d, p) == 4) {
            k++;
            fig[k].cell = (r - 1) * 9 + c - 1;
            fig[k].digit = d;
            memcpy(fig[k].puzzle, p, 82);
            continue;
        }
        assert_true(k >= 0 && fig[k].n < MAXL);
        snprintf(fig[k].want[fig[k].n++], LEN, "%s", buf);
    }
    fclose(f);
    assert_int_equal(k, 2);
}

/* The naked and hidden subsets (2..4) of every house, once. */
static bool subsets(sdk_grid *g)
{
    bool ch = false;
    for (int h = 0; h < 27; h++) {
        int cells[9], n = 0;
        for (int i = 0; i < 9; i++) {
            int c = sdk_house_cell[h][i];
            if (!g->value[c]) cells[n++] = c;
        }
        for (int mask = 0; mask < (1 << n); mask++) {
            int k = __builtin_popcount((unsigned)mask);
            if (k < 2 || k > 4 || k >= n) continue;
            unsigned u = 0;
            for (int i = 0; i < n; i++)
                if (mask >> i & 1) u |= g->cand[cells[i]];
            if (sdk_mask_count(u) == k) /* naked */
                for (int i = 0; i < n; i++)
                    if (!(mask >> i & 1))
                        SDK_MASK_FOREACH(dd, u) ch |= sdk_grid_eliminate(g, cells[i], dd);
            unsigned only = 0x3fe; /* digits only in the mask's cells: hidden */
            for (int i = 0; i < n; i++)
                if (!(mask >> i & 1)) only &= ~(unsigned)g->cand[cells[i]];
            only &= u;
            if (sdk_mask_count(only) == k)
                for (int i = 0; i < n; i++)
                    if (mask >> i & 1)
                        SDK_MASK_FOREACH(dd, g->cand[cells[i]] & ~only)
                            ch |= sdk_grid_eliminate(g, cells[i], dd);
        }
    }
    return ch;
}

static void position(const figure *f, int which, sdk_grid *g)
{
    sdk_error e;
    assert_true(sdk_parse(f->puzzle, g, &e));
    if (which == 0) {
        do {
            walk_basic(g);
        } while (subsets(g));
    } else {
        while (walk_single(g)) {
        }
    }
}

static void grab(void *ctx, int lit, const char *line)
{
    got *o = ctx;
    if (lit < 0) {
        snprintf(o->summary, sizeof o->summary, "%s", line);
        return;
    }
    snprintf(o->line[o->n++], LEN, "%s", line);
}

/* want matches have: equal, or want ends in "->" and is a prefix of have. */
static bool same(const char *want, const char *have)
{
    size_t n = strlen(want);
    if (n >= 2 && !strcmp(want + n - 2, "->")) return !strncmp(want, have, n);
    return !strcmp(want, have);
}

static int run(int which)
{
    figure *f = &fig[which];
    sdk_grid g;
    position(f, which, &g);
    static got o;
    memset(&o, 0, sizeof o);
    bool verbose = getenv("GNPX_VERBOSE") != NULL;
    for (int c = 0; verbose && c < 81; c++) {
        char b[12];
        int k = 0;
        if (g.value[c])
            k = snprintf(b, sizeof b, "=%d", g.value[c]);
        else
            SDK_MASK_FOREACH(dd, g.cand[c]) b[k++] = (char)('0' + dd);
        b[k] = 0;
        printf("%-10s%s", b, c % 9 == 8 ? "\n" : "");
    }
    bool bad = sdk_trace_assumption(&g, f->cell, f->digit, true,
                                    (which == 2 ? 0u : SDK_DYN_ALS) | SDK_DYN_GNPX, grab, &o);
    int ok = 0;
    if (which == 2) { /* the verdict and its two chains */
        assert_true(bad);
        char *l1 = strchr(o.summary, '\n');
        char *l2 = l1 ? strchr(l1 + 1, '\n') : NULL;
        if (l1) *l1++ = 0;
        if (l2) *l2++ = 0;
        const char *have[3] = {o.summary, l1 ? l1 : "", l2 ? l2 : ""};
        for (int i = 0; i < 3; i++) {
            bool m = same(f->want[i], have[i]);
            ok += m;
            if (verbose && !m) printf("want %s\nhave %s\n", f->want[i], have[i]);
        }
    } else {
        if (bad && verbose) printf("contradiction: %s\n", o.summary);
        for (int i = 0; i < f->n; i++) {
            const char *have = "";
            size_t sp = strcspn(f->want[i], " ");
            for (int j = 0; j < o.n; j++)
                if (!strncmp(o.line[j], f->want[i], sp + 1)) have = o.line[j];
            bool m = same(f->want[i], have);
            ok += m;
            if (verbose && !m) printf("want %s\nhave %s\n", f->want[i], have);
        }
        if (verbose)
            for (int j = 0; j < o.n; j++) {
                bool listed = false;
                for (int i = 0; i < f->n; i++)
                    if (!strncmp(o.line[j], f->want[i], strcspn(f->want[i], " ") + 1))
                        listed = true;
                if (!listed) printf("extra %s\n", o.line[j]);
            }
    }
    printf("figure %d: %d of %d lines as the seed prints them (%d consequences)\n", which + 1, ok,
           which == 2 ? 3 : f->n, which == 2 ? 3 : o.n);
    if (which != 2) {
        assert_false(bad);
        assert_int_equal(o.n, f->n); /* nothing the seed does not list */
    }
    return ok;
}

static void test_figure(void **state)
{
    int which = (int)(intptr_t)*state;
    if (!fig[0].n) load();
    assert_int_equal(run(which), which == 2 ? 3 : fig[which].n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_figure, (void *)0),
        cmocka_unit_test_prestate(test_figure, (void *)1),
        cmocka_unit_test_prestate(test_figure, (void *)2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
