/* test_se.c - the Sudoku Explainer plugin: every technique on positions
 * where it applies, with SE's own ratings as the reference (seed puzzles of
 * se_ratings_public.tsv whose ER we match, with SE's hardest technique), and
 * soundness: along the SE profile's solving path of a few hundred puzzles
 * every step (and every step of every SE chaining technique on a sample of
 * the grids reached) eliminates no solution digit and places only solution
 * digits, and the end grid is the brute-force solution. SE_SOUND_N scales the
 * number of puzzles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "walk.h"
#include "sudoku/engine.h"
#include "sudoku/solver.h"

static const char *plugins[] = {"singles", "intersections", "subsets", "fish",
                                "wings",   "uniqueness",    "misc",    "se"};
#define NPLUG (int)(sizeof plugins / sizeof plugins[0])
static sdk_plugin pl[NPLUG];

/* The ladder of plugins/se/PROFILE.md (nested levels left out: slow). */
static const char *ladder[] = {"hidden-single-box",
                               "full-house",
                               "hidden-single-line",
                               "se-direct-pointing",
                               "se-direct-claiming",
                               "se-direct-hidden-pair",
                               "naked-single",
                               "se-direct-hidden-triple",
                               "pointing",
                               "claiming",
                               "locked-pair",
                               "naked-pair",
                               "x-wing",
                               "hidden-pair",
                               "locked-triple",
                               "naked-triple",
                               "swordfish",
                               "hidden-triple",
                               "xy-wing",
                               "xyz-wing",
                               "unique-rectangle-1",
                               "unique-rectangle-2",
                               "unique-rectangle-3",
                               "unique-rectangle-4",
                               "naked-quad",
                               "jellyfish",
                               "hidden-quad",
                               "bug-plus-1",
                               "aligned-pair-exclusion",
                               "se-forcing-chains-cycles",
                               "se-nishio",
                               "se-multiple-forcing-chain",
                               "se-dynamic-forcing-chain",
                               "se-dynamic-forcing-chain-plus",
                               "se-nested-forcing-chain"};
#define NLAD (int)(sizeof ladder / sizeof ladder[0])

static const sdk_technique *tech(const char *id)
{
    for (int i = 0; i < NPLUG; i++)
        for (int k = 0; pl[i].list[k]; k++)
            if (!strcmp(pl[i].list[k]->id, id)) return pl[i].list[k];
    fail_msg("technique %s not found", id);
    return NULL;
}

static void profile(sdk_profile *p, int upto)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < NLAD && i < upto; i++) sdk_profile_add(p, tech(ladder[i]), NULL, -1, "");
}

static int setup(void **state)
{
    (void)state;
    const char *b = getenv("SUDOKU_BUILD");
    for (int i = 0; i < NPLUG; i++) {
        char path[1024];
        sdk_error err;
        snprintf(path, sizeof path, "%s/lib/sudokud/plugins/%s.so", b ? b : "build", plugins[i]);
        if (!sdk_plugin_open(path, &pl[i], &err)) fail_msg("%s: %s", path, err.msg);
    }
    return 0;
}

static void load(sdk_grid *g, const char *s, uint8_t sol[81])
{
    uint8_t v[81];
    sdk_grid_init(g);
    for (int i = 0; i < 81; i++) {
        v[i] = (s[i] >= '1' && s[i] <= '9') ? (uint8_t)(s[i] - '0') : 0;
        if (v[i]) sdk_grid_place(g, i, v[i], true);
    }
    uint8_t out[1][81];
    assert_int_equal(sdk_solve(v, 2, out, NULL), 1);
    memcpy(sol, out[0], 81);
}

/* ---- a walk that records and checks every step ---------------------------- */

typedef struct walk {
    const uint8_t *sol;
    int wrong, steps;
    int hardest;
    char name[128];
    int count_tech[64];
    const sdk_profile *p;
    bool direct;   /* run the direct techniques on every grid reached */
    int found[64]; /* steps they found there */
} walk;

static int check_step(void *ctx, const sdk_step *s)
{
    walk *w = ctx;
    w->wrong += walk_check_step(s, w->sol, s->tech->id);
    return SDK_CONTINUE;
}

static int on_step(void *ctx, const sdk_step *s, const sdk_grid *before)
{
    walk *w = ctx;
    check_step(w, s);
    w->steps++;
    for (int i = 0; i < w->p->n; i++)
        if (w->p->entry[i].tech == s->tech) w->count_tech[i]++;
    if (s->difficulty > w->hardest) {
        w->hardest = s->difficulty;
        size_t k = strcspn(s->text, ":");
        if (k >= sizeof w->name) k = sizeof w->name - 1;
        memcpy(w->name, s->text, k);
        w->name[k] = 0;
    }
    if (w->direct) {
        sdk_run_opts o = {.no_guess = true, .unique = true};
        for (int i = 3; i < 8; i++) {
            sdk_sink sink = {check_step, w};
            w->found[i] += sdk_engine_find(w->p, i, before, &o, &sink);
        }
    }
    return 0;
}

static sdk_run_status run(const sdk_profile *p, const char *puz, walk *w, sdk_rating *r)
{
    static uint8_t sol[81];
    sdk_grid g;
    load(&g, puz, sol);
    bool direct = w->direct;
    memset(w, 0, sizeof *w);
    w->sol = sol;
    w->p = p;
    w->direct = direct;
    sdk_run_opts o = {.no_guess = true, .unique = true};
    sdk_run_status st = sdk_engine_run(p, &g, &o, on_step, w, r);
    if (st == SDK_RUN_SOLVED)
        for (int i = 0; i < 81; i++) assert_int_equal(g.value[i], sol[i]);
    return st;
}

/* ---- seeds: SE's rating and hardest technique reproduced ------------------- */

static const struct {
    const char *puzzle;
    int er;
    const char *hardest;
} seeds[] = {
    {"..9..154..5..9.....6.5..92.8..3..1.41..4.6..95.4..8..2.42..9.6.....6..1..187..2..", 67,
     "Forcing X-Chain"},
    {".4...1.286..5....7..7.46...7.3..98..9.......2..12..3.9...95.1..1....2..559.1...7.", 77,
     "Nishio Forcing Chains"},
    {".9..4..6.4..15...2..6..91....4....7.36.....15.8....3....82..4..9...34..1.4..8..3.", 71,
     "Bidirectional Cycle"},
    {"..76.......3.45..2......59........4..41.2....3....9...5..7.49...8.9...7...4..2.8.", 28,
     "Locked Candidates Type 2 (Claiming)"},
};

static void test_seeds(void **state)
{
    (void)state;
    sdk_profile p;
    profile(&p, NLAD - 1);
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        walk w = {0};
        sdk_rating r;
        assert_int_equal(run(&p, seeds[i].puzzle, &w, &r), SDK_RUN_SOLVED);
        assert_int_equal(w.wrong, 0);
        printf("seed %zu: ER %d (SE %d) %s\n", i, r.er, seeds[i].er, w.name);
        assert_int_equal(r.er, seeds[i].er);
        assert_string_equal(w.name, seeds[i].hardest);
    }
    sdk_profile_free(&p);
}

/* The default profile of conf/sudokud.conf: the ladder with aligned triple
 * exclusion after the forcing chains & cycles, BUG+n after BUG+1, and both
 * nested levels. */
static void full_profile(sdk_profile *p)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < NLAD; i++) {
        sdk_profile_add(p, tech(ladder[i]), NULL, -1, "");
        if (!strcmp(ladder[i], "bug-plus-1")) sdk_profile_add(p, tech("bug-plus-n"), NULL, -1, "");
        if (!strcmp(ladder[i], "se-forcing-chains-cycles"))
            sdk_profile_add(p, tech("aligned-triple-exclusion"), NULL, -1, "");
    }
    sdk_profile_add(p, tech("se-nested-forcing-chain-3"), NULL, -1, "");
}

/* Puzzles of se_ratings_public.tsv once rated apart from SE, now exact:
 * #8, #35, #101 need a naked pair / hidden pair / naked triple because SE's
 * direct pointing, claiming and hidden sets place their single without
 * applying their eliminations; #107, #108, #110, #113 came 0.1 high at the
 * nested levels (a nested chain met by both chains of a contradiction was
 * counted twice, and the nested rules differed from SE's); #120 came 0.1 low
 * (10.3): the nested search queued the eliminations of SE's Locking rule in
 * another order (SukakuExplainer's Locking goes digit by digit, and SE keeps
 * a rule's eliminations in a HashMap), so it met an easier contradiction. */
static const struct {
    const char *puzzle;
    int er;
    const char *hardest;
} fixed[] = {
    {"8.5.....2...9.1...3.........6.7..4..2...5...........6....38.....4....6...9.....7.", 30,
     "Locked Pair"}, /* #8, SE: Naked Pair (ours splits the locked one off, same 3.0) */
    {"..4...23.....72.........1.62.3......1...86..3...7.4.......6..9..9........6..485..", 34,
     "Hidden Pair"}, /* #35 */
    {".....37..8..72...1.......632...5.8..4...32.......6.3.......9.2...8...4..74.......", 36,
     "Naked Triple"}, /* #101, SE: Naked Triplet */
    {"..34..7.......9..6....2..1...8..4..13.....8..57.8..........8.9.8...6...2..53..1..", 105,
     "Dynamic Contradiction Forcing Chains (+ Forcing Chains)"}, /* #107 */
    {"1.....7....71.9..6.8..7......8.9.6..5.......2...2.3.5...6.1.9...4.......9....4..3", 111,
     "Dynamic Contradiction Forcing Chains (+ Multiple Forcing Chains)"}, /* #108 */
    {"..3......4...8..36..8...1...4..6..73...9..........2..5..4.7..686........7..6..5..", 110,
     "Dynamic Contradiction Forcing Chains (+ Multiple Forcing Chains)"}, /* #110 */
    {".2.4...8.....8....7....2..6..49..1..6....7..3.9..1.....62.....55.....37......5...", 109,
     "Dynamic Contradiction Forcing Chains (+ Multiple Forcing Chains)"}, /* #113 */
    {".1......8.7...4..9..3.9.5....8.3...5.2....3.....4..6....6.8..5.2....1......7.....", 104,
     "Dynamic Contradiction Forcing Chains (+ Forcing Chains)"}, /* #120 */
};

static void test_fixed(void **state)
{
    (void)state;
    sdk_profile p;
    full_profile(&p);
    int n = (int)(sizeof fixed / sizeof fixed[0]);
    const char *all = getenv("SE_NESTED");
    if (all && !strcmp(all, "0")) n = 3; /* SE_NESTED=0: leave out the nested ones (~2 s each) */
    for (int i = 0; i < n; i++) {
        walk w = {0};
        sdk_rating r;
        assert_int_equal(run(&p, fixed[i].puzzle, &w, &r), SDK_RUN_SOLVED);
        assert_int_equal(w.wrong, 0);
        printf("fixed %d: ER %d (SE %d) %s\n", i, r.er, fixed[i].er, w.name);
        assert_int_equal(r.er, fixed[i].er);
        assert_string_equal(w.name, fixed[i].hardest);
    }
    sdk_profile_free(&p);
}

/* The direct techniques place their single and eliminate nothing (SE's
 * DirectLockingHint / DirectHiddenSetHint): each step found along the path
 * of a few puzzles has one placement and no elimination. */
static int direct_shape(void *ctx, const sdk_step *s)
{
    int *bad = ctx;
    if (s->nplace != 1 || s->nelim != 0) (*bad)++;
    return SDK_CONTINUE;
}

static void test_direct_place_only(void **state)
{
    (void)state;
    sdk_profile p;
    profile(&p, 12);
    uint8_t(*puz)[81];
    int n = tu_read_puzzles("unbiased_1k.txt", 60, 3, &puz);
    int bad = 0, seen = 0;
    sdk_run_opts o = {.no_guess = true, .unique = true};
    for (int k = 0; k < n; k++) {
        sdk_grid g;
        sdk_grid_init(&g);
        for (int i = 0; i < 81; i++)
            if (puz[k][i]) sdk_grid_place(&g, i, puz[k][i], true);
        for (int i = 3; i < 8; i++) {
            if (i == 6) continue; /* naked single */
            sdk_sink sink = {direct_shape, &bad};
            seen += sdk_engine_find(&p, i, &g, &o, &sink);
        }
    }
    printf("direct steps on %d givens grids: %d, with eliminations or not one placement: %d\n", n,
           seen, bad);
    assert_true(seen > 0);
    assert_int_equal(bad, 0);
    free(puz);
    sdk_profile_free(&p);
}

/* The tsv: SE's ER and hardest technique; check the ones named in `want`. */
static void test_tsv_kinds(void **state)
{
    (void)state;
    static const char *want[] = {"Turbot Fish",
                                 "Forcing Chain",
                                 "Cell Forcing Chains",
                                 "Region Forcing Chains",
                                 "Dynamic Contradiction Forcing Chains",
                                 "Dynamic Double Forcing Chains",
                                 "Dynamic Cell Forcing Chains",
                                 "Dynamic Region Forcing Chains",
                                 "Direct Hidden Pair"};
    int nwant = (int)(sizeof want / sizeof want[0]);
    int seen[16] = {0}, matched[16] = {0};
    sdk_profile p;
    profile(&p, NLAD - 1);
    FILE *f = fopen(tu_data_path("se_ratings_public.tsv"), "r");
    assert_non_null(f);
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == 'p' || strlen(line) < 81) continue;
        char *fld[6];
        int nf = 0;
        for (char *s = strtok(line, "\t\n"); s && nf < 6; s = strtok(NULL, "\t\n")) fld[nf++] = s;
        if (nf < 6) continue;
        int k = -1;
        for (int i = 0; i < nwant; i++)
            if (!strcmp(fld[5], want[i])) k = i;
        if (k < 0 || seen[k] >= 2) continue; /* two puzzles per kind */
        seen[k]++;
        walk w = {0};
        sdk_rating r;
        fld[0][81] = 0;
        assert_int_equal(run(&p, fld[0], &w, &r), SDK_RUN_SOLVED);
        assert_int_equal(w.wrong, 0);
        int se = (int)(atof(fld[1]) * 10 + 0.5);
        printf("%-40s SE %4.1f ours %4.1f %s\n", want[k], se / 10.0, r.er / 10.0, w.name);
        if (r.er == se && !strcmp(w.name, want[k])) matched[k]++;
    }
    fclose(f);
    for (int i = 0; i < nwant; i++) {
        assert_true(seen[i] > 0);
        assert_true(matched[i] > 0); /* at least one puzzle of each kind rated exactly like SE */
    }
    sdk_profile_free(&p);
}

/* Direct techniques on every grid reached along the path of 300 puzzles:
 * each finds its pattern, and soundly. */
static void test_direct(void **state)
{
    (void)state;
    sdk_profile p;
    profile(&p, 12); /* singles, direct techniques, pointing, claiming, locked pair */
    uint8_t(*puz)[81];
    int n = tu_read_puzzles("unbiased_1k.txt", 300, 1, &puz);
    int count[8] = {0};
    for (int k = 0; k < n; k++) {
        char s[82];
        for (int i = 0; i < 81; i++) s[i] = puz[k][i] ? (char)('0' + puz[k][i]) : '.';
        s[81] = 0;
        walk w = {.direct = true};
        sdk_rating r;
        run(&p, s, &w, &r);
        assert_int_equal(w.wrong, 0);
        for (int i = 0; i < 8; i++) count[i] += w.found[i];
    }
    printf("direct pointing %d, claiming %d, hidden pair %d, hidden triple %d (in %d puzzles)\n",
           count[3], count[4], count[5], count[7], n);
    assert_true(count[3] > 0);
    assert_true(count[4] > 0);
    assert_true(count[5] > 0);
    assert_true(count[7] > 0);
    free(puz);
    sdk_profile_free(&p);
}

/* Every hint of every SE chaining technique (nested levels excluded) on the
 * grid before every `every`-th step of a path, when that step is a chaining
 * one (6.5 and up). */
typedef struct probe {
    const sdk_profile *p;
    int every, probed, wrong;
} probe;

static void probe_hook(void *ctx, const sdk_step *s, const sdk_grid *before, const uint8_t *sol,
                       int nstep)
{
    probe *pr = ctx;
    if (s->difficulty < 65 || nstep % pr->every) return;
    walk w = {.sol = sol, .p = pr->p};
    sdk_sink sink = {check_step, &w};
    sdk_run_opts o = {.no_guess = true, .unique = true};
    for (int i = 0; i < pr->p->n; i++) {
        const char *id = pr->p->entry[i].tech->id;
        if (!strncmp(id, "se-", 3) && strcmp(id, "se-nested-forcing-chain") &&
            strcmp(id, "se-dynamic-forcing-chain-plus"))
            sdk_engine_find(pr->p, i, before, &o, &sink);
    }
    pr->wrong += w.wrong;
    pr->probed++;
}

/* Soundness along the SE path (nested levels excluded), plus every hint of the
 * SE chaining techniques on every few grids of the first puzzles' paths. */
static void sound_file(const char *file, int n, int stride, int every)
{
    sdk_profile p;
    profile(&p, NLAD - 1);
    walk_result r = {0};
    long solved = 0;
    walk_profile(&p, file, n, stride, NULL, NULL, &r, &solved);
    assert_int_equal(r.unique, r.puzzles);
    assert_int_equal(r.wrong, 0);
    probe pr = {.p = &p, .every = every};
    if (every) {
        walk_result r2 = {0};
        walk_profile(&p, file, r.puzzles < 6 ? (int)r.puzzles : 6, stride, probe_hook, &pr, &r2,
                     NULL);
        assert_int_equal(r2.wrong, 0);
        assert_int_equal(pr.wrong, 0);
    }
    printf("%s: %ld puzzles, %ld solved, %ld steps checked, %d grids probed\n", file, r.puzzles,
           solved, r.steps, pr.probed);
    sdk_profile_free(&p);
}

static int sound_n(int def)
{
    const char *v = getenv("SE_SOUND_N");
    return v && *v ? atoi(v) : def;
}

static void test_sound_easy(void **state)
{
    (void)state;
    sound_file("unbiased_1k.txt", sound_n(200), 5, 0);
}

static void test_sound_top(void **state)
{
    (void)state;
    sound_file("top1465.txt", sound_n(200) / 2, 14, 4);
}

static void test_sound_hard(void **state)
{
    (void)state;
    sound_file("forum_hardest_1106.txt", sound_n(200) / 20, 37, 8);
}

/* The chain searches keep buffers from one search to the next (the pooled
 * on-run cache, cleared where the last search wrote it; the hand-off of the
 * nested levels, its runs marked not kept): a search on a grid after
 * searches on another puzzle finds the same steps, in the same order, as the
 * first search on it. Levels 1 and 2 hand their runs on (2 and 3 start from
 * them), and the dynamic searches of level 0 and below keep their closures. */
typedef struct steps_seen {
    uint64_t hash;
    int n;
} steps_seen;

static int hash_step(void *ctx, const sdk_step *s)
{
    steps_seen *h = ctx;
    for (const char *c = s->text; *c; c++) h->hash = (h->hash ^ (uint8_t)*c) * 0x100000001b3ull;
    h->hash = (h->hash ^ (uint64_t)(s->nplace * 100 + s->nelim)) * 0x100000001b3ull;
    h->n++;
    return SDK_CONTINUE;
}

static steps_seen chain_steps(const sdk_profile *p, const char *puz)
{
    sdk_grid g;
    uint8_t sol[81];
    load(&g, puz, sol);
    steps_seen h = {0xcbf29ce484222325ull, 0};
    sdk_run_opts o = {.no_guess = true, .unique = true};
    sdk_sink sink = {hash_step, &h};
    for (int i = 0; i < p->n; i++) sdk_engine_find(p, i, &g, &o, &sink);
    return h;
}

static void test_kept_buffers(void **state)
{
    (void)state;
    static const char *ids[] = {"se-dynamic-forcing-chain", "se-dynamic-forcing-chain-plus",
                                "se-nested-forcing-chain", "se-multiple-forcing-chain"};
    sdk_profile p;
    memset(&p, 0, sizeof p);
    for (int i = 0; i < 4; i++) sdk_profile_add(&p, tech(ids[i]), NULL, -1, "");
    steps_seen first[2], again[2];
    for (int k = 0; k < 2; k++) first[k] = chain_steps(&p, seeds[k].puzzle);
    for (int k = 1; k >= 0; k--) again[k] = chain_steps(&p, seeds[k].puzzle);
    for (int k = 0; k < 2; k++) {
        printf("kept buffers, seed %d: %d steps\n", k, first[k].n);
        assert_true(first[k].n > 0);
        assert_int_equal(first[k].n, again[k].n);
        assert_true(first[k].hash == again[k].hash);
    }
    sdk_profile_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seeds),        cmocka_unit_test(test_direct),
        cmocka_unit_test(test_fixed),        cmocka_unit_test(test_direct_place_only),
        cmocka_unit_test(test_tsv_kinds),    cmocka_unit_test(test_sound_easy),
        cmocka_unit_test(test_sound_top),    cmocka_unit_test(test_sound_hard),
        cmocka_unit_test(test_kept_buffers),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
