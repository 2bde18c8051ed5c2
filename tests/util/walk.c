/* walk.c - see walk.h. */
#include "walk.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sudoku/solver.h"

int walk_check_step(const sdk_step *s, const uint8_t *sol, const char *who)
{
    int wrong = 0;
    char c[8];
    for (int i = 0; i < s->nelim; i++)
        if (sol[s->elim[i].cell] == s->elim[i].digit) {
            printf("UNSOUND %s: %s (%s<>%d is the solution)\n", who, s->text,
                   sdk_cell_name(s->elim[i].cell, c), s->elim[i].digit);
            wrong++;
        }
    for (int i = 0; i < s->nplace; i++)
        if (sol[s->place[i].cell] != s->place[i].digit) {
            printf("UNSOUND %s: %s (%s=%d is not the solution)\n", who, s->text,
                   sdk_cell_name(s->place[i].cell, c), s->place[i].digit);
            wrong++;
        }
    return wrong;
}

/* ---- reducers ----------------------------------------------------------- */

bool walk_single(sdk_grid *g)
{
    for (int c = 0; c < 81; c++)
        if (!g->value[c] && sdk_mask_count(g->cand[c]) == 1) {
            sdk_grid_place(g, c, sdk_mask_first(g->cand[c]), false);
            return true;
        }
    for (int h = 0; h < 27; h++)
        for (int d = 1; d <= 9; d++) {
            sdk_bb w = sdk_house_digit(g, h, d);
            if (sdk_bb_count(w) == 1) {
                sdk_grid_place(g, sdk_bb_first(w), d, false);
                return true;
            }
        }
    return false;
}

/* Pointing and claiming once over every box and line; true when a candidate
 * went. */
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

bool walk_hard_start(sdk_grid *g, const uint8_t *values, uint8_t *sol)
{
    uint8_t two[2][81];
    sdk_grid_from_values(g, values);
    if (sdk_solve_grid(g, 2, two, NULL) != 1) return false;
    memcpy(sol, two[0], 81);
    return walk_basic(g);
}

void walk_drop_wrong(sdk_grid *g, const uint8_t *sol, int tries, uint32_t *seed)
{
    for (int k = 0; k < tries; k++) {
        *seed = *seed * 1103515245u + 12345u;
        int c = (int)((*seed >> 8) % 81);
        if (g->value[c]) continue;
        SDK_MASK_FOREACH(x, g->cand[c]) {
            if (x == sol[c]) continue;
            sdk_grid_eliminate(g, c, x);
            break;
        }
    }
}

bool walk_hard_rounds(const uint8_t (*values)[81], int n, const walk_hard_pace *pace,
                      uint32_t *seed, walk_visit_fn visit, void *ctx)
{
    int spread = pace->tries_max - pace->tries_min;
    for (int p = 0; p < n; p++) {
        sdk_grid g;
        uint8_t sol[81];
        if (!walk_hard_start(&g, values[p], sol)) return false;
        for (int round = 0; round < pace->rounds && sdk_grid_empty_count(&g) > 0; round++) {
            sdk_grid before = g;
            int tries = pace->tries_min;
            if (spread > 0) {
                *seed = *seed * 1103515245u + 12345u;
                tries += (int)((*seed >> 16) % (uint32_t)(spread + 1));
            }
            walk_drop_wrong(&g, sol, tries, seed);
            visit(&before, &g, ctx);
            bool basic =
                pace->basic_every <= 1 || round % pace->basic_every == pace->basic_every - 1;
            if (basic && !walk_basic(&g)) break;
        }
    }
    return true;
}

int walk_hardest_1106(int npuz, walk_visit_fn visit, void *ctx)
{
    uint8_t(*puz)[81] = NULL;
    int n = tu_read_puzzles("forum_hardest_1106.txt", npuz, 3, &puz);
    if (n <= 0) return -1;
    uint32_t seed = 1106;
    const walk_hard_pace pace = {.rounds = 8, .tries_min = 3, .tries_max = 3};
    bool ok = walk_hard_rounds((const uint8_t(*)[81])puz, n, &pace, &seed, visit, ctx);
    free(puz);
    return ok;
}

bool walk_basic(sdk_grid *g)
{
    for (bool again = true; again;) {
        again = false;
        while (walk_single(g)) again = true;
        again |= locked_candidates(g);
    }
    for (int c = 0; c < 81; c++)
        if (!g->value[c] && !g->cand[c]) return false;
    return true;
}

/* ---- the walk ----------------------------------------------------------- */

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

typedef struct run_ctx {
    const walk_spec *w;
    walk_tech *t;
    const uint8_t *sol;
    char who[160];
    long steps, elims, wrong;
    sdk_step *first;
    bool have;
} run_ctx;

static int on_found(void *ctx, const sdk_step *s)
{
    run_ctx *c = ctx;
    c->steps++;
    c->elims += s->nelim;
    c->wrong += walk_check_step(s, c->sol, c->who);
    if (c->w->on_step) c->w->on_step(c->w->ctx, c->t, s, c->sol);
    if (!c->have) {
        *c->first = *s;
        c->have = true;
    }
    return SDK_CONTINUE;
}

/* The first step of the basic plugins' techniques, applied; false if none. */
static bool plugin_step(sdk_grid *g)
{
    static const char *names[] = {"singles", "intersections", "subsets"};
    static tu_steps st = {.limit = 1};
    for (int p = 0; p < 3; p++) {
        const sdk_technique *const *l = tu_plugin(names[p]);
        for (int i = 0; l && l[i]; i++) {
            tu_find_all(l[i], "", g, &st);
            if (st.n) {
                sdk_step_apply(&st.s[0], g);
                return true;
            }
        }
    }
    return false;
}

/* Move on from a position: a preferred step, else `found`, else the stuck
 * rule. False when the walk of this puzzle ends. */
static bool advance(const walk_spec *w, sdk_grid *g, const sdk_step *found, const uint8_t *sol,
                    unsigned *seed)
{
    if (w->prefer == WALK_PREFER_SINGLE && walk_single(g)) return true;
    if (w->prefer == WALK_PREFER_PLUGINS && plugin_step(g)) return true;
    if (found) {
        sdk_step_apply(found, g);
        return true;
    }
    int best = -1;
    switch (w->stuck) {
    case WALK_STUCK_STOP:
        return false;
    case WALK_STUCK_PLACE_FEWEST:
    case WALK_STUCK_PLACE_MOST:
    case WALK_STUCK_PLACE_FIRST:
        for (int c = 0; c < 81; c++) {
            if (g->value[c]) continue;
            int n = sdk_mask_count(g->cand[c]), nb = best < 0 ? 0 : sdk_mask_count(g->cand[best]);
            if (best < 0 || (w->stuck == WALK_STUCK_PLACE_FEWEST && n < nb) ||
                (w->stuck == WALK_STUCK_PLACE_MOST && n > nb))
                best = c;
        }
        if (best < 0) return false;
        sdk_grid_place(g, best, sol[best], false);
        return true;
    case WALK_STUCK_ELIM_RANDOM: {
        int cands[729], nc = 0;
        for (int c = 0; c < 81; c++)
            SDK_MASK_FOREACH(d, g->cand[c]) {
                if (d != sol[c]) cands[nc++] = c * 9 + d - 1;
            }
        if (!nc) return false;
        *seed = *seed * 1103515245u + 12345u;
        int x = cands[(*seed >> 8) % (unsigned)nc];
        sdk_grid_eliminate(g, x / 9, x % 9 + 1);
        return true;
    }
    }
    return false;
}

/* Read the puzzles of a walk (counted in res). */
static int load(const char *file, int npuz, int stride, walk_result *res, uint8_t (**puz)[81])
{
    int n = tu_read_puzzles(file, npuz, stride > 0 ? stride : 1, puz);
    res->puzzles += n;
    return n;
}

/* Solve a puzzle and set up its grid; false (not walked) unless it has one
 * solution. */
static bool start(const uint8_t *puz, uint8_t (*sol)[81], sdk_grid *g, walk_result *res)
{
    if (sdk_solve(puz, 2, sol, NULL) != 1) return false;
    res->unique++;
    sdk_grid_from_values(g, puz);
    return true;
}

long walk_run(const walk_spec *w, walk_result *res)
{
    uint8_t(*puz)[81];
    int n = load(w->file, w->npuz, w->stride, res, &puz);
    long wrong_before = res->wrong;
    static sdk_step first, cur;
    sdk_options *opts = calloc((size_t)w->ntech, sizeof *opts);
    const sdk_technique **tech = calloc((size_t)w->ntech, sizeof *tech);
    for (int i = 0; i < w->ntech; i++) {
        tech[i] = tu_tech(w->tech[i].plugin, w->tech[i].id);
        char why[128];
        const char *o = w->tech[i].opts ? w->tech[i].opts : "";
        if (!sdk_options_parse(o, &opts[i], why, sizeof why))
            fail_msg("options '%s' of %s: %s", o, w->tech[i].id, why);
    }
    for (int k = 0; k < n; k++) {
        uint8_t sol[2][81];
        sdk_grid g;
        if (!start(puz[k], sol, &g, res)) continue;
        unsigned seed = (unsigned)k * 2654435761u + 1;
        for (int iter = 0; !w->max_iter || iter < w->max_iter; iter++) {
            if (w->reduce == WALK_REDUCE_SINGLES)
                while (walk_single(&g)) {
                }
            else if (w->reduce == WALK_REDUCE_BASIC && !walk_basic(&g))
                break;
            if (sdk_grid_solved(&g)) break;
            res->positions++;
            bool moved = false, have = false;
            for (int i = 0; i < w->ntech; i++) {
                walk_tech *t = &w->tech[i];
                if (t->every > 1 && res->positions % t->every) continue;
                if ((t->when == WALK_EVEN_ITER && iter % 2) ||
                    (t->when == WALK_ODD_ITER && !(iter % 2)))
                    continue;
                run_ctx c = {.w = w, .t = t, .sol = sol[0], .first = &cur};
                snprintf(c.who, sizeof c.who, "%s%s%s (%s #%d)", t->id, t->opts ? " " : "",
                         t->opts ? t->opts : "", w->file, k + 1);
                sdk_ctx ctx;
                memset(&ctx, 0, sizeof ctx);
                ctx.self = tech[i];
                ctx.opts = &opts[i];
                ctx.unique = true;
                sdk_sink sink = {on_found, &c};
                double t0 = now_ms();
                tech[i]->find(&ctx, &g, &sink);
                t->ms += now_ms() - t0;
                t->calls++;
                t->found += c.have;
                t->steps += c.steps;
                t->elims += c.elims;
                t->wrong += c.wrong;
                res->steps += c.steps;
                res->elims += c.elims;
                res->wrong += c.wrong;
                if (!c.have) continue;
                if (w->at_once && !moved) {
                    advance(w, &g, &cur, sol[0], &seed);
                    moved = true;
                } else if (!have) {
                    first = cur;
                    have = true;
                }
            }
            if (!moved && !advance(w, &g, have ? &first : NULL, sol[0], &seed)) break;
        }
    }
    free(tech);
    free(opts);
    free(puz);
    return res->wrong - wrong_before;
}

long walk_singles_first(walk_tech *t, int ntech, const char *file, int npuz, int stride,
                        walk_result *res)
{
    walk_spec w = {.file = file,
                   .npuz = npuz,
                   .stride = stride,
                   .max_iter = 400,
                   .prefer = WALK_PREFER_SINGLE,
                   .at_once = true,
                   .stuck = WALK_STUCK_PLACE_FIRST,
                   .tech = t,
                   .ntech = ntech};
    return walk_run(&w, res);
}

void walk_print(const walk_result *res, const walk_tech *t, int ntech)
{
    printf("  soundness: %ld positions, %ld steps checked, %ld violations\n", res->positions,
           res->steps, res->wrong);
    for (int i = 0; i < ntech; i++) printf("    %-24s %ld\n", t[i].id, t[i].steps);
}

long walk_standard(walk_tech *t, int ntech, const char *const *file_opts, walk_result *res)
{
    static const char *files[] = {"top1465.txt", "unbiased_1k.txt", "forum_hardest_1106.txt"};
    static const int counts[] = {300, 300, 100};
    walk_spec w = {
        .prefer = WALK_PREFER_PLUGINS, .stuck = WALK_STUCK_PLACE_FEWEST, .tech = t, .ntech = ntech};
    long bad = 0;
    for (int f = 0; f < 3; f++) {
        w.file = files[f];
        w.npuz = counts[f];
        for (int i = 0; file_opts && file_opts[f] && i < ntech; i++) t[i].opts = file_opts[f];
        bad += walk_run(&w, res);
    }
    walk_print(res, t, ntech);
    return bad;
}

/* ---- the profile walk --------------------------------------------------- */

typedef struct prof_ctx {
    const uint8_t *sol;
    walk_hook hook;
    void *ctx;
    walk_result *res;
    int nstep;
    char who[64];
} prof_ctx;

static int on_applied(void *ctx, const sdk_step *s, const sdk_grid *before)
{
    prof_ctx *c = ctx;
    c->nstep++;
    c->res->positions++;
    c->res->steps++;
    c->res->elims += s->nelim;
    c->res->wrong += walk_check_step(s, c->sol, s->tech ? s->tech->id : c->who);
    if (c->hook) c->hook(c->ctx, s, before, c->sol, c->nstep);
    return 0;
}

long walk_profile(const sdk_profile *p, const char *file, int npuz, int stride, walk_hook hook,
                  void *ctx, walk_result *res, long *solved)
{
    uint8_t(*puz)[81];
    int n = load(file, npuz, stride, res, &puz);
    long wrong_before = res->wrong;
    for (int k = 0; k < n; k++) {
        uint8_t sol[2][81];
        sdk_grid g;
        if (!start(puz[k], sol, &g, res)) continue;
        prof_ctx c = {.sol = sol[0], .hook = hook, .ctx = ctx, .res = res};
        snprintf(c.who, sizeof c.who, "%s #%d", file, k + 1);
        sdk_run_opts o = {.no_guess = true, .unique = true};
        sdk_rating r;
        sdk_run_status st = sdk_engine_run(p, &g, &o, on_applied, &c, &r);
        if (st != SDK_RUN_SOLVED) continue;
        if (solved) ++*solved;
        if (memcmp(g.value, sol[0], 81)) {
            printf("UNSOUND %s: solved to another grid than the solution\n", c.who);
            res->wrong++;
        }
    }
    free(puz);
    return res->wrong - wrong_before;
}
