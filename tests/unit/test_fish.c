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
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reglib_harness.h"
#include "walk.h"
#include "sudoku/fish.h"

#define FP "fish"

static const sdk_technique *tech(const char *id)
{
    return tu_tech(FP, id);
}

/* ---- reglib -------------------------------------------------------------- */

static const char *kind_prefix[7] = {
    "", "finned-", "sashimi-", "franken-", "finned-franken-", "mutant-", "finned-mutant-"};
static const char *size_name[6] = {"x-wing",    "swordfish", "jellyfish",
                                   "squirmbag", "whale",     "leviathan"};

/* A fish's digits field: its (single) digit, taken from the first
 * elimination; a Siamese step ("Siamese ...") is written only under a 5-digit
 * code, a plain one only under a 4-digit code. */
static bool fish_digits(const rh_entry *e, const sdk_step *s, char *out)
{
    if (!s->nelim || (strncmp(s->text, "Siamese ", 8) == 0) != e->siamese) return false;
    out[0] = (char)('0' + s->elim[0].digit);
    out[1] = 0;
    return true;
}

static void test_reglib(void **state)
{
    (void)state;
    /* every 03KS code (kind K <= 6: kraken 037x is not ours, size S) and its
     * 5-digit Siamese code; HoDoKu's tester: Siamese fish on for sizes 3, 4 */
    static char codes[7 * 6 * 2][8], ids[7 * 6][40];
    rh_code map[7 * 6 * 2];
    int n = 0;
    for (int k = 0; k < 7; k++)
        for (int z = 0; z < 6; z++) {
            char *id = ids[k * 6 + z];
            snprintf(id, sizeof ids[0], "%s%s", kind_prefix[k], size_name[z]);
            for (int sia = 0; sia < 2; sia++) {
                snprintf(codes[n], sizeof codes[0], "03%d%d%s", k, z, sia ? "1" : "");
                map[n] =
                    (rh_code){codes[n], FP, id, z == 1 || z == 2 ? "siamese=1" : NULL, fish_digits};
                n++;
            }
        }
    /* Reglib cases we do not pass, with the reason (none so far). */
    rh_spec spec = {.map = map, .nmap = n, .known = NULL, .nknown = 0};
    rh_result res;
    int failures = rh_run(&spec, &res);
    printf("reglib fish: code pass/total (known failures)\n");
    for (int i = 0; i < res.nrow; i++)
        printf("  %-6s %3d/%-3d%s\n", res.row[i].code, res.row[i].pass, res.row[i].total,
               res.row[i].known ? " (known)" : "");
    rh_row all = rh_sum(&res, "03");
    printf("  total  %d/%d\n", all.pass, all.total);
    assert_true(all.total >= 140);
    assert_int_equal(failures, 0);
}

/* ---- soundness ----------------------------------------------------------- */

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
        /* the costly ones: every 8th state */
        "finned-franken-jellyfish",
        "mutant-x-wing",
        "mutant-swordfish",
        "mutant-jellyfish",
        "finned-mutant-x-wing",
        "finned-mutant-swordfish",
        "finned-mutant-jellyfish",
    };
    const int nids = (int)(sizeof ids / sizeof ids[0]), nids_cheap = 19;
    /* each fish twice: Siamese reporting off at even states of a puzzle, on
     * at odd ones */
    walk_tech t[2 * 26];
    for (int i = 0; i < nids; i++)
        for (int odd = 0; odd < 2; odd++) {
            walk_tech *x = &t[2 * i + odd];
            *x = (walk_tech)WALK_TECH(FP, ids[i], odd ? "siamese=1" : NULL);
            x->when = odd ? WALK_ODD_ITER : WALK_EVEN_ITER;
            x->every = i >= nids_cheap ? 8 : 0;
        }
    /* singles and locked candidates, then the first fish found, else the
     * solution digit of a cell with the most candidates */
    walk_spec w = {.max_iter = 200,
                   .reduce = WALK_REDUCE_BASIC,
                   .stuck = WALK_STUCK_PLACE_MOST,
                   .tech = t,
                   .ntech = 2 * nids};
    struct {
        const char *file;
        int count, stride;
    } sets[] = {
        {"top1465.txt", 150, 9}, {"forum_hardest_1106.txt", 60, 6}, {"unbiased_1k.txt", 100, 10}};
    walk_result r = {0};
    for (size_t si = 0; si < sizeof sets / sizeof sets[0]; si++) {
        w.file = sets[si].file;
        w.npuz = sets[si].count;
        w.stride = sets[si].stride;
        walk_run(&w, &r);
    }
    printf("soundness: %ld puzzles, %ld states, %ld steps, %ld eliminations, %ld wrong\n", r.unique,
           r.positions, r.steps, r.elims, r.wrong);
    for (int i = 0; i < nids; i++)
        printf("  %-26s %ld steps\n", ids[i], t[2 * i].steps + t[2 * i + 1].steps);
    assert_true(r.unique >= 200);
    assert_true(r.steps > 100);
    assert_int_equal(r.wrong, 0);
}

/* ---- small checks -------------------------------------------------------- */

static void test_ids(void **state)
{
    (void)state;
    int n = 0;
    const sdk_technique *const *techs = tu_plugin(FP);
    assert_non_null(techs);
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
    rh_position(XW, "", &g);
    tu_steps c = {0};
    tu_find_all(tech("x-wing"), NULL, &g, &c);
    bool seen = false;
    rh_cands want, got;
    assert_true(rh_cands_parse("313 314 343 344 353 354 363 364 394", &want));
    for (int i = 0; i < c.n; i++)
        if (strncmp(c.s[i].text, "X-Wing: 3 r37 c34 => ", 21) == 0) {
            rh_step_elims(&c.s[i], &got);
            assert_true(rh_cands_eq(&got, &want));
            seen = true;
            int nb = 0, nc = 0;
            for (int h = 0; h < c.s[i].nhouse; h++) {
                nb += c.s[i].house[h].role == SDK_ROLE_BASE;
                nc += c.s[i].house[h].role == SDK_ROLE_COVER;
            }
            assert_int_equal(nb, 2);
            assert_int_equal(nc, 2);
            assert_int_equal(c.s[i].nmark, 4);
        }
    if (!seen)
        for (int i = 0; i < c.n; i++) printf("  got: %s\n", c.s[i].text);
    assert_true(seen);
    tu_steps_free(&c);

    /* first-step mode: the technique stops at the first step */
    tu_steps one = {.limit = 1};
    assert_int_equal(tu_find_all(tech("x-wing"), NULL, &g, &one), SDK_STOP);
    assert_int_equal(one.n, 1);
    tu_steps_free(&one);
}

/* max-fins=1 must drop a finned fish that needs two fins. */
static void test_max_fins(void **state)
{
    (void)state;
    /* reglib 0311 line: Finned Swordfish 4 c168 r247 fr1c6 (one fin) */
    sdk_grid g;
    rh_position(".3.2+6..+8.86..3.5.+2.+2487..+3+6.+8.39.+2.72..6.8..31.+3+527.+6..."
                "+2.863..+3.8.5+2+691.....3.2.",
                "924 128 448 452 157 458 578 491 591 792 193 793", &g);
    tu_steps c = {0};
    tu_find_all(tech("finned-swordfish"), NULL, &g, &c);
    int all = c.n;
    tu_steps_free(&c);
    tu_steps c1 = {0};
    tu_find_all(tech("finned-swordfish"), "max-fins=1", &g, &c1);
    for (int i = 0; i < c1.n; i++) {
        int fins = 0;
        for (int m = 0; m < c1.s[i].nmark; m++)
            fins +=
                c1.s[i].mark[m].role == SDK_ROLE_FIN || c1.s[i].mark[m].role == SDK_ROLE_ENDOFIN;
        assert_true(fins <= 1);
    }
    assert_true(c1.n >= 1);
    assert_true(c1.n <= all);
    tu_steps_free(&c1);
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
    rh_position(XW, "", &g);
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

/* ---- the pruned search against the plain one -----------------------------
 *
 * The enumerator skips base sets and fin choices that cannot give what is
 * asked for (need_elims: an elimination; sdk_fish_fins: see fish.h).
 * With need_elims off and no fin options it prunes nothing, so its fish,
 * filtered by the same rule, must be exactly the pruned search's fish, in
 * the same order. Positions: hard puzzles after singles and locked
 * candidates, every digit; reach and sets made up (a fixed pseudo-random
 * sequence), which is what the rule must hold for, not only chains. */

typedef struct fish_list {
    sdk_fish *f;
    int n, cap;
} fish_list;

static int collect(void *ctx, const sdk_fish *f)
{
    fish_list *l = ctx;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->f = realloc(l->f, sizeof *l->f * (size_t)l->cap);
        assert_non_null(l->f);
    }
    l->f[l->n++] = *f;
    return 0;
}

static uint64_t rnd_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rnd(void)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return rnd_state;
}

enum { WORDS = 2 };
static sdk_bb reach[SDK_CELLS];
static uint64_t sets[SDK_CELLS * WORDS];

/* Would the pruned search report f? (the rule of fish.h for each option) */
static bool wanted(const sdk_fish_search *s, const sdk_fish_fins *imply, const sdk_fish *f)
{
    if (s->only_kind && f->kind != s->kind) return false;
    sdk_bb fins = sdk_bb_or(f->fins, f->endo_fins);
    if (imply->sets) {
        bool meet = false;
        for (int i = 0; i < f->size && !meet; i++) {
            uint64_t acc[WORDS] = {~0ULL, ~0ULL}, any = 0;
            sdk_bb part = sdk_bb_or(sdk_bb_and(f->base_cells, sdk_house_bb[f->cover[i]]), fins);
            SDK_BB_FOREACH(c, part)
                for (int w = 0; w < WORDS; w++) acc[w] &= sets[c * WORDS + w];
            for (int w = 0; w < WORDS; w++) any |= acc[w];
            meet = any != 0;
        }
        if (!meet) return false;
    }
    if (!s->need_elims) return true;
    sdk_bb seen = {~0ULL, (1ULL << 17) - 1};
    SDK_BB_FOREACH(c, fins)
        seen =
            sdk_bb_and(seen, imply->reach ? sdk_bb_or(sdk_peer_bb[c], reach[c]) : sdk_peer_bb[c]);
    return !sdk_bb_empty(sdk_bb_and(f->potential, seen));
}

/* Fish reported with a cannibalistic elimination: base_viable drops such
 * an x as soon as the base set leaves it too many independent cells or
 * fewer than two houses that may be cover houses (see lib/fish.c), so the
 * positions must hold some for the comparison to test those rules. */
static long cannibal_elims;

static void compare_searches(const sdk_grid *g, int d, sdk_fish_search *s,
                             const sdk_fish_fins *fins, long *count)
{
    fish_list pruned = {0}, plain = {0};
    sdk_fish_find_fins(g, d, s, fins, collect, &pruned);
    sdk_fish_search all = *s;
    all.need_elims = false;
    all.only_kind = false;
    sdk_fish_find(g, d, &all, collect, &plain);
    int k = 0;
    for (int i = 0; i < plain.n; i++) {
        if (!wanted(s, fins, &plain.f[i])) continue;
        assert_true(k < pruned.n);
        assert_memory_equal(&plain.f[i], &pruned.f[k], sizeof plain.f[i]);
        if (s->need_elims && !sdk_bb_empty(sdk_bb_and(pruned.f[k].elims, pruned.f[k].cannibal)))
            cannibal_elims++;
        k++;
    }
    assert_int_equal(k, pruned.n);
    *count += pruned.n;
    free(pruned.f);
    free(plain.f);
}

static void test_pruning_exact(void **state)
{
    (void)state;
    uint8_t(*p)[81] = NULL;
    int np = tu_read_puzzles("top1465.txt", 24, 61, &p);
    assert_true(np > 0);
    struct {
        int kind, size;
        bool finless, finned, only_kind;
    } cfg[] = {
        {SDK_FISH_BASIC, 2, true, true, false},   {SDK_FISH_BASIC, 3, true, true, false},
        {SDK_FISH_BASIC, 4, true, true, false},   {SDK_FISH_FRANKEN, 2, false, true, true},
        {SDK_FISH_FRANKEN, 3, false, true, true}, {SDK_FISH_FRANKEN, 3, true, false, true},
        {SDK_FISH_MUTANT, 2, false, true, true},  {SDK_FISH_MUTANT, 2, true, false, false},
    };
    long counts[3] = {0};
    for (int i = 0; i < np; i++) {
        sdk_grid g;
        sdk_grid_from_values(&g, p[i]);
        walk_basic(&g);
        for (int d = 1; d <= 9; d++) {
            for (int c = 0; c < SDK_CELLS; c++) {
                reach[c] = (sdk_bb){rnd() & rnd(), rnd() & rnd() & ((1ULL << 17) - 1)};
                for (int w = 0; w < WORDS; w++) sets[c * WORDS + w] = rnd() & rnd() & rnd();
            }
            for (size_t k = 0; k < sizeof cfg / sizeof cfg[0]; k++) {
                sdk_fish_search s;
                sdk_fish_search_init(&s);
                s.kind = cfg[k].kind;
                s.min_size = s.max_size = cfg[k].size;
                s.finless = cfg[k].finless;
                s.finned = cfg[k].finned;
                s.only_kind = cfg[k].only_kind;
                sdk_fish_fins none = {0}, fins = {.reach = reach};
                compare_searches(&g, d, &s, &none, &counts[0]); /* need_elims */
                if (!s.finned || s.kind == SDK_FISH_MUTANT) continue;
                compare_searches(&g, d, &s, &fins, &counts[1]); /* as kraken type 1 */
                s.need_elims = false;                           /* as kraken type 2 */
                fins = (sdk_fish_fins){.sets = sets, .set_words = WORDS};
                compare_searches(&g, d, &s, &fins, &counts[2]);
            }
        }
    }
    printf("pruned searches = plain ones filtered: %ld fish with eliminations (%ld of them "
           "cannibalistic), %ld with reach, %ld with sets\n",
           counts[0], cannibal_elims, counts[1], counts[2]);
    assert_true(counts[0] > 0 && counts[1] > 0 && counts[2] > 0 && cannibal_elims > 0);
    free(p);
}

/* ---- where a basic fish can conclude -------------------------------------
 *
 * sdk_fish_basic_sets_keep and sdk_fish_basic_reach_targets (fish.h) must
 * keep every conclusion a finned basic fish has: every fish of the plain
 * search (finned, sizes 2..4, more fins than kraken allows), its type 2
 * conclusions (a set bit common to the fins and the base candidates of one
 * cover house) and type 1 targets (a potential elimination every fin sees
 * or reaches, not every fin sees) are checked against what they keep; and
 * they must drop some, or they test nothing. Made-up sets and reach, dense
 * and sparse, on hard positions. Their answers kept per thread must be a
 * new thread's. */

typedef struct concl {
    uint64_t bits[WORDS]; /* type 2 conclusions */
    sdk_bb targets;       /* type 1 targets */
} concl;

static int note_conclusions(void *ctx, const sdk_fish *f)
{
    concl *c = ctx;
    sdk_bb fins = sdk_bb_or(f->fins, f->endo_fins);
    assert_true(f->kind == SDK_FISH_BASIC && !sdk_bb_empty(fins));
    uint64_t fin_set[WORDS] = {~0ULL, ~0ULL};
    sdk_bb seen = {~0ULL, (1ULL << 17) - 1}, peers = seen;
    SDK_BB_FOREACH(x, fins) {
        for (int w = 0; w < WORDS; w++) fin_set[w] &= sets[x * WORDS + w];
        seen = sdk_bb_and(seen, sdk_bb_or(sdk_peer_bb[x], reach[x]));
        peers = sdk_bb_and(peers, sdk_peer_bb[x]);
    }
    for (int i = 0; i < f->size; i++) {
        uint64_t acc[WORDS] = {fin_set[0], fin_set[1]};
        SDK_BB_FOREACH(x, sdk_bb_and(f->base_cells, sdk_house_bb[f->cover[i]]))
            for (int w = 0; w < WORDS; w++) acc[w] &= sets[x * WORDS + w];
        for (int w = 0; w < WORDS; w++) c->bits[w] |= acc[w];
    }
    c->targets = sdk_bb_or(c->targets, sdk_bb_andnot(sdk_bb_and(f->potential, seen), peers));
    return 0;
}

/* The two filters keep their answers per thread across calls (fish_reach.c,
 * `tested`): what they answer in this thread, with what earlier calls left,
 * must be what a new thread, with nothing kept, answers. */
typedef struct filter_job {
    sdk_bb cand;
    uint64_t keep[WORDS];
    bool any;
    sdk_bb targets;
} filter_job;

static void filter_run(filter_job *j)
{
    j->keep[0] = j->keep[1] = ~0ULL;
    j->any = sdk_fish_basic_sets_keep(j->cand, sets, WORDS, 4, j->keep);
    j->targets = sdk_fish_basic_reach_targets(j->cand, reach, j->cand, 4);
}

static void *filter_thread(void *arg)
{
    filter_run(arg);
    return NULL;
}

/* This thread's answers (kept ones among them) = a new thread's. */
static void filter_same_as_fresh(sdk_bb cand)
{
    filter_job here = {.cand = cand}, fresh = {.cand = cand};
    filter_run(&here);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, filter_thread, &fresh), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_true(here.any == fresh.any);
    assert_memory_equal(here.keep, fresh.keep, sizeof here.keep);
    assert_true(sdk_bb_eq(here.targets, fresh.targets));
}

static void test_basic_filters_keep_all(void **state)
{
    (void)state;
    uint8_t(*p)[81] = NULL;
    int np = tu_read_puzzles("forum_hardest_1106.txt", 12, 91, &p);
    assert_true(np > 0);
    long bits_in = 0, bits_kept = 0, bits_needed = 0, x_in = 0, x_kept = 0, x_needed = 0;
    for (int i = 0; i < np; i++) {
        sdk_grid g;
        sdk_grid_from_values(&g, p[i]);
        walk_basic(&g);
        for (int d = 1; d <= 9; d++) {
            sdk_bb cand = g.digit[d - 1];
            if (sdk_bb_empty(cand)) continue;
            int dense = (i + d) % 3; /* a cell in 2, 4 or 8 implies a bit or reaches a cell */
            for (int c = 0; c < SDK_CELLS; c++) {
                uint64_t lo = rnd(), hi = rnd(), s0 = rnd(), s1 = rnd();
                for (int k = 0; k < dense; k++) {
                    lo &= rnd();
                    hi &= rnd();
                    s0 &= rnd();
                    s1 &= rnd();
                }
                reach[c] = sdk_bb_and((sdk_bb){lo, hi & ((1ULL << 17) - 1)}, cand);
                sets[c * WORDS] = s0;
                sets[c * WORDS + 1] = s1;
            }
            concl need = {{0, 0}, sdk_bb_none()};
            sdk_fish_search s;
            sdk_fish_search_init(&s);
            s.finless = false;
            s.need_elims = false;
            s.max_fins = 7;
            sdk_fish_find(&g, d, &s, note_conclusions, &need);
            uint64_t keep[WORDS] = {~0ULL, ~0ULL};
            bool any = sdk_fish_basic_sets_keep(cand, sets, WORDS, 4, keep);
            for (int w = 0; w < WORDS; w++) {
                assert_true((need.bits[w] & ~keep[w]) == 0);
                bits_in += 64;
                bits_kept += sdk_popcount64(keep[w]);
                bits_needed += sdk_popcount64(need.bits[w]);
            }
            assert_true(any == (keep[0] || keep[1]));
            sdk_bb x = sdk_fish_basic_reach_targets(cand, reach, cand, 4);
            assert_true(sdk_bb_subset(need.targets, x));
            assert_true(sdk_bb_subset(x, cand));
            x_in += sdk_bb_count(cand);
            x_kept += sdk_bb_count(x);
            x_needed += sdk_bb_count(need.targets);
            /* kept answers: the same call again, then the next position's
             * (a few cells imply and reach something else) */
            filter_same_as_fresh(cand);
            for (int k = 0; k < 3; k++) {
                int c = (int)(rnd() % SDK_CELLS);
                reach[c] = sdk_bb_and((sdk_bb){rnd(), rnd() & ((1ULL << 17) - 1)}, cand);
                sets[c * WORDS] ^= rnd();
            }
            filter_same_as_fresh(cand);
        }
    }
    printf("basic fish filters: set bits %ld, kept %ld, concluded %ld; targets %ld, kept %ld, "
           "concluded %ld\n",
           bits_in, bits_kept, bits_needed, x_in, x_kept, x_needed);
    assert_true(bits_needed > 0 && bits_kept < bits_in);
    assert_true(x_needed > 0 && x_kept < x_in);
    free(p);
}

/* The kept answers of sdk_fish_basic_reach_targets are per target: where
 * every cell reaches every cell, each target has the same good cells (all
 * of them), and only its place (its row, column and box) tells the answers
 * apart. Small made-up patterns (a few rows of two or three cells), where
 * some targets pass and others do not: each target's answer here, after
 * the others', must be the one a new thread gives for that target alone. */
typedef struct target_job {
    sdk_bb cand, targets, pass;
} target_job;

static void *target_thread(void *arg)
{
    target_job *j = arg;
    j->pass = sdk_fish_basic_reach_targets(j->cand, reach, j->targets, 4);
    return NULL;
}

static void test_reach_targets_kept_per_target(void **state)
{
    (void)state;
    long passed = 0, failed = 0;
    for (int round = 0; round < 24; round++) {
        sdk_bb cand = sdk_bb_none();
        int rows = 3 + round % 3;
        for (int k = 0; k < rows; k++) {
            int r = (int)(rnd() % 9);
            for (int m = 0; m < 2 + (int)(rnd() % 2); m++)
                sdk_bb_add(&cand, r * 9 + (int)(rnd() % 9));
        }
        for (int c = 0; c < SDK_CELLS; c++) reach[c] = cand;
        sdk_bb here = sdk_fish_basic_reach_targets(cand, reach, cand, 4);
        SDK_BB_FOREACH(x, cand) {
            target_job j = {.cand = cand, .targets = sdk_bb_none()};
            sdk_bb_add(&j.targets, x);
            pthread_t t;
            assert_int_equal(pthread_create(&t, NULL, target_thread, &j), 0);
            assert_int_equal(pthread_join(t, NULL), 0);
            assert_true(sdk_bb_has(here, x) == sdk_bb_has(j.pass, x));
            if (sdk_bb_has(here, x))
                passed++;
            else
                failed++;
        }
    }
    printf("reach targets kept per target: %ld pass, %ld do not\n", passed, failed);
    assert_true(passed > 0 && failed > 0);
}

/* ---- searching since a pattern without fish ------------------------------ */

enum { CLS_FINLESS, CLS_FINNED, CLS_SASHIMI };

static int fish_cls(const sdk_fish *f)
{
    if (sdk_bb_empty(f->fins) && sdk_bb_empty(f->endo_fins)) return CLS_FINLESS;
    return f->sashimi ? CLS_SASHIMI : CLS_FINNED;
}

static bool has_cls(const fish_list *l, int kind, int cls)
{
    for (int i = 0; i < l->n; i++)
        if (l->f[i].kind == kind && fish_cls(&l->f[i]) == cls) return true;
    return false;
}

/* The fish of kind and class in `a` are those of `b`, in the same order. */
static void same_cls(const fish_list *a, const fish_list *b, int kind, int cls)
{
    int j = 0;
    for (int i = 0; i < a->n; i++) {
        if (a->f[i].kind != kind || fish_cls(&a->f[i]) != cls) continue;
        while (j < b->n && (b->f[j].kind != kind || fish_cls(&b->f[j]) != cls)) j++;
        assert_true(j < b->n);
        assert_memory_equal(&a->f[i], &b->f[j], sizeof a->f[i]);
        j++;
    }
    while (j < b->n && (b->f[j].kind != kind || fish_cls(&b->f[j]) != cls)) j++;
    assert_int_equal(j, b->n);
}

/* The lists hold the same fish in the same order. */
static void same_list(const fish_list *a, const fish_list *b)
{
    assert_int_equal(a->n, b->n);
    for (int i = 0; i < a->n; i++) assert_memory_equal(&a->f[i], &b->f[i], sizeof a->f[i]);
}

/* sdk_fish_find_since against the full search: from a walked state's digit
 * pattern P, remove a few random candidates at a time (a pattern need not be
 * a valid grid); for each kind and class the search had no fish of on P, the
 * search since P reports the full search's fish of that kind and class; and
 * when it had no fish at all on P, sdk_fish_find_since_all reports every
 * fish of the full search (the searches of two classes below: a lost
 * candidate may change a fish's class). */
static void test_since_exact(void **state)
{
    (void)state;
    uint8_t(*p)[81] = NULL;
    int np = tu_read_puzzles("forum_hardest_1106.txt", 24, 45, &p);
    assert_true(np > 0);
    struct {
        int kind, size;
        bool finless, finned;
        int max_fins, max_endo; /* 0: the defaults */
    } cfg[] = {
        {SDK_FISH_BASIC, 2, true, true, 0, 0},
        {SDK_FISH_BASIC, 3, true, true, 0, 0},
        {SDK_FISH_BASIC, 4, true, true, 0, 0},
        {SDK_FISH_FRANKEN, 2, true, true, 0, 0},
        {SDK_FISH_FRANKEN, 3, true, true, 0, 0},
        {SDK_FISH_FRANKEN, 4, false, true, 0, 0},
        {SDK_FISH_FRANKEN, 4, true, false, 0, 0},
        {SDK_FISH_MUTANT, 2, true, true, 0, 0},
        {SDK_FISH_MUTANT, 3, false, true, 0, 0},
        /* tight fin limits: a lost candidate that was a fin on P often
         * takes the fish past them there (the witness search's other case) */
        {SDK_FISH_FRANKEN, 3, false, true, 2, 1},
        {SDK_FISH_FRANKEN, 4, false, true, 3, 1},
        {SDK_FISH_MUTANT, 2, false, true, 1, 1},
    };
    long checked = 0, found = 0, fin_lost = 0, checked_all = 0, found_all = 0;
    for (int i = 0; i < np; i++) {
        sdk_grid g;
        sdk_grid_from_values(&g, p[i]);
        walk_basic(&g);
        for (int d = 1; d <= 9; d++) {
            for (size_t k = 0; k < sizeof cfg / sizeof cfg[0]; k++) {
                if (cfg[k].size == 4 && (i + d) % 3) continue; /* the costly ones: a third */
                sdk_fish_search s;
                sdk_fish_search_init(&s);
                s.kind = cfg[k].kind;
                s.min_size = s.max_size = cfg[k].size;
                s.finless = cfg[k].finless;
                s.finned = cfg[k].finned;
                s.only_kind = true;
                if (cfg[k].max_fins) s.max_fins = cfg[k].max_fins;
                if (cfg[k].max_endo) s.max_endo_fins = cfg[k].max_endo;
                sdk_grid h = g;
                fish_list before = {0};
                sdk_fish_find(&h, d, &s, collect, &before);
                for (int step = 0; step < 4 && !sdk_bb_empty(h.digit[d - 1]); step++) {
                    sdk_bb P = h.digit[d - 1];
                    int ngo = 1 + (int)(rnd() % 3), cnt = sdk_bb_count(P);
                    if (cfg[k].max_fins) {
                        /* with tight limits, lose an exo fin of a fish one fin
                         * over them: on P it is too finned, here it is not */
                        sdk_fish_search over = s;
                        over.max_fins++;
                        fish_list more = {0};
                        sdk_fish_find(&h, d, &over, collect, &more);
                        for (int f = 0; f < more.n && ngo; f++) {
                            const sdk_fish *m = &more.f[(f + (int)(rnd() % 7)) % more.n];
                            int nf = sdk_bb_count(m->fins) + sdk_bb_count(m->endo_fins);
                            if (nf != over.max_fins || sdk_bb_empty(m->fins)) continue;
                            sdk_grid_eliminate(&h, sdk_bb_first(m->fins), d);
                            ngo = 0;
                            fin_lost++;
                        }
                        free(more.f);
                    }
                    for (int r = 0; r < ngo; r++) {
                        int nth = (int)(rnd() % (uint64_t)cnt), c = -1;
                        SDK_BB_FOREACH(x, P)
                            if (nth-- == 0) c = x;
                        sdk_grid_eliminate(&h, c, d);
                    }
                    fish_list full = {0}, since = {0};
                    sdk_fish_find(&h, d, &s, collect, &full);
                    for (int cls = CLS_FINLESS; cls <= CLS_SASHIMI; cls++) {
                        if (has_cls(&before, s.kind, cls)) continue;
                        since.n = 0;
                        sdk_fish_find_since(&h, d, &s, P, collect, &since);
                        same_cls(&full, &since, s.kind, cls);
                        checked++;
                        if (has_cls(&full, s.kind, cls)) found++;
                    }
                    if (before.n == 0) {
                        since.n = 0;
                        sdk_fish_find_since_all(&h, d, &s, P, collect, &since);
                        same_list(&full, &since);
                        checked_all++;
                        found_all += full.n > 0;
                    }
                    free(since.f);
                    free(before.f);
                    before = full;
                }
                free(before.f);
            }
        }
    }
    printf("search since a pattern = full search: %ld searches, %ld with fish, %ld after a fin "
           "went; since a pattern without any fish: %ld searches, %ld with fish\n",
           checked, found, fin_lost, checked_all, found_all);
    assert_true(checked > 1000 && found > 50 && fin_lost > 50);
    assert_true(checked_all > 500 && found_all > 50);
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ids),
        cmocka_unit_test(test_text_and_stop),
        cmocka_unit_test(test_max_fins),
        cmocka_unit_test(test_enumerator),
        cmocka_unit_test(test_pruning_exact),
        cmocka_unit_test(test_since_exact),
        cmocka_unit_test(test_basic_filters_keep_all),
        cmocka_unit_test(test_reach_targets_kept_per_target),
        cmocka_unit_test(test_reglib),
        cmocka_unit_test(test_soundness),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
