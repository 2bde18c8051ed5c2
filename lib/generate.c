/* generate.c - puzzles made to order: random grids, clue removal by symmetry
 * orbits, rating against a target, local search for rare targets. The idea is
 * in sudoku/generate.h. */
#include "sudoku/generate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sudoku/solver.h"

/* ---- random numbers: xoshiro256** seeded by splitmix64 ------------------- */

typedef struct rng {
    uint64_t s[4];
} rng;

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void rng_seed(rng *r, uint64_t seed, uint64_t index)
{
    uint64_t x = seed ^ (index * 0xD1B54A32D192ED03ull);
    for (int i = 0; i < 4; i++) r->s[i] = splitmix(&x);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0], s[3] ^= s[1], s[1] ^= s[2], s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

/* Uniform in [0, n). */
static int rng_below(rng *r, int n)
{
    return (int)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

static void shuffle(rng *r, int *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = rng_below(r, i + 1), t = a[i];
        a[i] = a[j], a[j] = t;
    }
}

/* ---- symmetry ------------------------------------------------------------ */

static const char *const sym_names[SDK_SYM_COUNT] = {"none",     "rotational",   "rot90",
                                                     "mirror",   "flip",         "biaxial",
                                                     "diagonal", "antidiagonal", "dihedral"};

const char *sdk_symmetry_name(int sym)
{
    return sym >= 0 && sym < SDK_SYM_COUNT ? sym_names[sym] : NULL;
}

int sdk_symmetry_from(const char *name)
{
    for (int i = 0; i < SDK_SYM_COUNT; i++)
        if (!strcmp(name, sym_names[i])) return i;
    if (!strcmp(name, "central") || !strcmp(name, "rot180")) return SDK_SYM_ROTATIONAL;
    return -1;
}

const char *sdk_symmetry_names(void)
{
    return "none, rotational (or central, rot180), rot90, mirror, flip, biaxial, diagonal, "
           "antidiagonal, dihedral";
}

enum { T_ROT180, T_ROT90, T_MIRROR, T_FLIP, T_DIAG, T_ANTI };

static int transform(int t, int c)
{
    int r = c / 9, k = c % 9;
    switch (t) {
    case T_ROT180:
        return (8 - r) * 9 + (8 - k);
    case T_ROT90:
        return k * 9 + (8 - r);
    case T_MIRROR:
        return r * 9 + (8 - k);
    case T_FLIP:
        return (8 - r) * 9 + k;
    case T_DIAG:
        return k * 9 + r;
    default:
        return (8 - k) * 9 + (8 - r);
    }
}

/* The generators of each symmetry's group. */
static int generators(int sym, int gen[2])
{
    switch (sym) {
    case SDK_SYM_ROTATIONAL:
        gen[0] = T_ROT180;
        return 1;
    case SDK_SYM_ROT90:
        gen[0] = T_ROT90;
        return 1;
    case SDK_SYM_MIRROR:
        gen[0] = T_MIRROR;
        return 1;
    case SDK_SYM_FLIP:
        gen[0] = T_FLIP;
        return 1;
    case SDK_SYM_BIAXIAL:
        gen[0] = T_MIRROR, gen[1] = T_FLIP;
        return 2;
    case SDK_SYM_DIAGONAL:
        gen[0] = T_DIAG;
        return 1;
    case SDK_SYM_ANTIDIAGONAL:
        gen[0] = T_ANTI;
        return 1;
    case SDK_SYM_DIHEDRAL:
        gen[0] = T_ROT90, gen[1] = T_MIRROR;
        return 2;
    default:
        return 0;
    }
}

/* Cells fall into orbits: cells the symmetry maps onto each other, which are
 * clues together or blanks together. */
typedef struct orbits {
    int n;
    int size[81];
    int cell[81][8];
    int of[81]; /* cell -> orbit */
} orbits;

static void orbits_make(orbits *o, int sym)
{
    int gen[2], ng = generators(sym, gen);
    memset(o->of, -1, sizeof o->of);
    o->n = 0;
    for (int c = 0; c < 81; c++) {
        if (o->of[c] >= 0) continue;
        int k = o->n++;
        o->size[k] = 0;
        o->cell[k][o->size[k]++] = c;
        o->of[c] = k;
        for (int i = 0; i < o->size[k]; i++) /* closure under the generators */
            for (int g = 0; g < ng; g++) {
                int d = transform(gen[g], o->cell[k][i]);
                if (o->of[d] < 0) {
                    o->of[d] = k;
                    o->cell[k][o->size[k]++] = d;
                }
            }
    }
}

bool sdk_gen_is_symmetric(const uint8_t v[81], int sym)
{
    int gen[2], ng = generators(sym, gen);
    for (int g = 0; g < ng; g++)
        for (int c = 0; c < 81; c++)
            if (!v[c] != !v[transform(gen[g], c)]) return false;
    return true;
}

/* ---- a random solution grid ---------------------------------------------- */

typedef struct fill {
    uint8_t v[81];
    uint16_t row[9], col[9], box[9]; /* digits used */
    rng *r;
    long nodes;
} fill;

static void fill_set(fill *f, int c, int d)
{
    uint16_t b = (uint16_t)(1u << d);
    f->v[c] = (uint8_t)d;
    f->row[c / 9] |= b, f->col[c % 9] |= b, f->box[sdk_box(c)] |= b;
}

static void fill_clear(fill *f, int c, int d)
{
    uint16_t b = (uint16_t) ~(1u << d);
    f->v[c] = 0;
    f->row[c / 9] &= b, f->col[c % 9] &= b, f->box[sdk_box(c)] &= b;
}

/* Depth first, the cell with fewest candidates first, digits in random order. */
static bool fill_rec(fill *f)
{
    if (++f->nodes > 200000) return false; /* never happens from an empty grid */
    int best = -1, bestn = 10;
    unsigned bestm = 0;
    int start = rng_below(f->r, 81);
    for (int i = 0; i < 81; i++) {
        int c = (start + i) % 81;
        if (f->v[c]) continue;
        unsigned m = 0x3FEu & ~(unsigned)(f->row[c / 9] | f->col[c % 9] | f->box[sdk_box(c)]);
        int n = sdk_mask_count(m);
        if (n < bestn) best = c, bestn = n, bestm = m;
        if (n <= 1) break;
    }
    if (best < 0) return true;
    int d[9], nd = 0;
    for (int x = 1; x <= 9; x++)
        if (bestm & (1u << x)) d[nd++] = x;
    shuffle(f->r, d, nd);
    for (int i = 0; i < nd; i++) {
        fill_set(f, best, d[i]);
        if (fill_rec(f)) return true;
        fill_clear(f, best, d[i]);
    }
    return false;
}

static bool random_grid(rng *r, uint8_t out[81])
{
    fill f;
    memset(&f, 0, sizeof f);
    f.r = r;
    if (!fill_rec(&f)) return false;
    memcpy(out, f.v, 81);
    return true;
}

/* ---- the search ---------------------------------------------------------- */

static double now_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double now_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool unique(const uint8_t v[81])
{
    return sdk_solve(v, 2, NULL, NULL) == 1;
}

static int clue_count(const uint8_t v[81])
{
    int n = 0;
    for (int c = 0; c < 81; c++) n += v[c] != 0;
    return n;
}

typedef struct gen {
    const sdk_gen_target *t;
    const sdk_gen_opts *o;
    int want; /* needs/hardest: the difficulty the climb aims at (tenths), else -1 */
    sdk_gen_result *res;
    rng r;
    orbits orb;
    uint8_t sol[81];
    double t_end;
    long max_tries;
} gen;

static bool out_of_budget(const gen *g)
{
    return g->res->rated >= g->max_tries || (g->t_end > 0 && now_mono() > g->t_end);
}

/* Take away orbits of clues in random order while the puzzle stays unique
 * and keeps at least clues_min clues; stop early at stop_at clues. */
static void reduce(gen *g, uint8_t v[81], int stop_at)
{
    int order[81], n = 0;
    for (int k = 0; k < g->orb.n; k++)
        if (v[g->orb.cell[k][0]]) order[n++] = k;
    shuffle(&g->r, order, n);
    int clues = clue_count(v);
    for (int i = 0; i < n && clues > stop_at; i++) {
        int k = order[i], sz = g->orb.size[k];
        if (g->t->has_givens) break;
        if (clues - sz < g->t->clues_min) continue;
        uint8_t keep[8];
        for (int j = 0; j < sz; j++) keep[j] = v[g->orb.cell[k][j]], v[g->orb.cell[k][j]] = 0;
        if (unique(v)) {
            clues -= sz;
        } else {
            for (int j = 0; j < sz; j++) v[g->orb.cell[k][j]] = keep[j];
        }
    }
}

/* No single clue can go. */
static bool is_minimal(uint8_t v[81])
{
    for (int c = 0; c < 81; c++) {
        if (!v[c]) continue;
        uint8_t d = v[c];
        v[c] = 0;
        bool u = unique(v);
        v[c] = d;
        if (u) return false;
    }
    return true;
}

/* A fresh candidate: a new grid and its clues taken away. */
static bool candidate(gen *g, uint8_t v[81])
{
    const sdk_gen_target *t = g->t;
    for (int tries = 0; tries < 1000; tries++) {
        if (!random_grid(&g->r, g->sol)) continue;
        g->res->built++;
        if (t->has_givens) {
            for (int c = 0; c < 81; c++) v[c] = t->givens[c] ? g->sol[c] : 0;
            if (unique(v)) return true;
            if (out_of_budget(g)) return false;
            continue;
        }
        memcpy(v, g->sol, 81);
        /* without a minimal wish, stop somewhere in the clue range at random */
        int stop = t->clues_min;
        if (!t->minimal && t->clues_max < 81 && t->clues_max > t->clues_min)
            stop = t->clues_min + rng_below(&g->r, t->clues_max - t->clues_min + 1);
        else if (!t->minimal && t->clues_max < 81)
            stop = t->clues_max;
        reduce(g, v, stop);
        return true;
    }
    return false;
}

/* What the rating run records: the techniques of the path, and an early stop
 * when a step already breaks an upper bound (the rating cannot meet it). */
typedef struct path {
    const sdk_gen_target *t;
    bool level_run; /* judging the level only: stop above it */
    bool level_cut; /* also stop above the level (the profile judges it) */
    bool cut;       /* stopped early: the target is out of reach */
    bool placed;    /* a placement happened (EP is fixed by then) */
    int nsteps;
    bool needs_seen[SDK_GEN_MAX_NEEDS];
    bool pattern_ok, pattern_in, pattern_after;
} path;

/* Singles, intersections and subsets: HoDoKu's "simple sudoku technique set"
 * (ssts), and Sudoku Explainer's direct forms of them. */
static bool is_simple(const char *id)
{
    static const char *const ids[] = {"full-house",
                                      "naked-single",
                                      "hidden-single-box",
                                      "hidden-single-line",
                                      "pointing",
                                      "claiming",
                                      "locked-pair",
                                      "locked-triple",
                                      "naked-pair",
                                      "naked-triple",
                                      "naked-quad",
                                      "hidden-pair",
                                      "hidden-triple",
                                      "hidden-quad",
                                      "se-direct-pointing",
                                      "se-direct-claiming",
                                      "se-direct-hidden-pair",
                                      "se-direct-hidden-triple"};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++)
        if (!strcmp(id, ids[i])) return true;
    return false;
}

static int on_step(void *ctx, const sdk_step *s, const sdk_grid *before)
{
    (void)before;
    path *p = ctx;
    const sdk_gen_target *t = p->t;
    const char *id = s->tech && s->tech->id ? s->tech->id : "";
    p->nsteps++;
    if (p->level_run || p->level_cut)
        if (t->level && s->tech && s->tech->level > t->level) return p->cut = true;
    if (p->level_run) return 0;
    if (t->er_max >= 0 && s->difficulty > t->er_max) return p->cut = true;
    if (p->nsteps == 1 && t->ed_max >= 0 && s->difficulty > t->ed_max) return p->cut = true;
    if (!p->placed && t->ep_max >= 0 && s->difficulty > t->ep_max) return p->cut = true;
    if (s->nplace > 0) p->placed = true;
    bool needed = false;
    for (int i = 0; i < t->nneeds; i++)
        if (!strcmp(id, t->needs[i])) p->needs_seen[i] = needed = true;
    if (t->pattern) {
        bool simple = is_simple(id);
        if (needed) {
            if (p->pattern_after) p->pattern_ok = false; /* X, ssts, X again */
            p->pattern_in = true;
        } else if (!simple) {
            p->pattern_ok = false;
            if (!p->pattern_in) return p->cut = true; /* not ssts before X */
        } else if (p->pattern_in) {
            p->pattern_after = true;
        }
    }
    return 0;
}

static bool in_range(int x, int lo, int hi)
{
    return (lo < 0 || x >= lo) && (hi < 0 || x <= hi);
}

/* Rate v; true when it meets the whole target. *value gets what the local
 * search climbs (ER, or level and score). */
static bool rate(gen *g, const uint8_t v[81], long *value)
{
    const sdk_gen_target *t = g->t;
    sdk_gen_result *res = g->res;
    sdk_grid gr;
    sdk_grid_init(&gr);
    for (int c = 0; c < 81; c++)
        if (v[c]) sdk_grid_place(&gr, c, v[c], true);
    sdk_run_opts ro = {0};
    ro.unique = g->o->unique_ok;
    ro.observer = g->o->observer;
    const sdk_profile *lp = g->o->level_profile ? g->o->level_profile : g->o->profile;
    path p = {.t = t, .pattern_ok = true, .level_cut = t->level && lp == g->o->profile};
    res->rated++;
    sdk_rating r;
    memset(&r, 0, sizeof r);
    sdk_grid work = gr;
    sdk_engine_run(g->o->profile, &work, &ro, on_step, &p, &r);
    *value = r.er;
    if (g->want >= 0) { /* climb towards the technique: its difficulty, then its use */
        int seen = 0;
        for (int i = 0; i < t->nneeds; i++) seen += p.needs_seen[i];
        if (t->hardest && r.hardest && r.hardest->id && !strcmp(r.hardest->id, t->hardest)) seen++;
        *value = seen * 1000L - labs((long)r.er - g->want);
    }
    if (p.cut || r.status != SDK_RUN_SOLVED) return false;
    res->rating = r;
    if (!in_range(r.er, t->er_min, t->er_max) || !in_range(r.ep, t->ep_min, t->ep_max) ||
        !in_range(r.ed, t->ed_min, t->ed_max))
        return false;
    for (int i = 0; i < t->nneeds; i++)
        if (!p.needs_seen[i]) return false;
    if (t->pattern && (!p.pattern_ok || !p.pattern_in)) return false;
    if (t->hardest && (!r.hardest || !r.hardest->id || strcmp(r.hardest->id, t->hardest)))
        return false;
    if (t->level) {
        sdk_rating lr;
        memset(&lr, 0, sizeof lr);
        path q = {.t = t, .level_run = true};
        work = gr;
        sdk_engine_run(lp, &work, &ro, lp == g->o->profile ? NULL : on_step, &q, &lr);
        if (lp == g->o->profile) lr = r;
        res->level_rating = lr;
        *value = (long)lr.level * 100000 + lr.score;
        if (q.cut || lr.status != SDK_RUN_SOLVED || lr.level != t->level) return false;
    }
    return true;
}

/* The rest of the target: clue count, symmetry, minimality. */
static bool shape_ok(gen *g, uint8_t v[81])
{
    const sdk_gen_target *t = g->t;
    int n = clue_count(v);
    if (n < t->clues_min || n > t->clues_max) return false;
    if (t->minimal && !is_minimal(v)) return false;
    return true;
}

/* The difficulty of the needed techniques (the highest), or -1. */
static int wanted_difficulty(const sdk_gen_target *t, const sdk_profile *p)
{
    int want = -1;
    for (int i = 0; i <= t->nneeds; i++) {
        const char *id = i < t->nneeds ? t->needs[i] : t->hardest;
        int k = id ? sdk_profile_find(p, id) : -1;
        if (k >= 0 && p->entry[k].difficulty > want) want = p->entry[k].difficulty;
    }
    return want;
}

static bool hard_target(const sdk_gen_target *t)
{
    return t->er_min >= 70 || t->ep_min >= 70 || t->ed_min >= 70 || t->level >= SDK_LEVEL_UNFAIR ||
           t->nneeds > 0 || t->hardest;
}

/* One move from v: an orbit of clues out, one or two others in, redundant
 * clues out again. False when the move breaks uniqueness. */
static bool move(gen *g, const uint8_t v[81], uint8_t out[81])
{
    int in[81], nin = 0, outk[81], nout = 0;
    for (int k = 0; k < g->orb.n; k++) {
        if (v[g->orb.cell[k][0]])
            in[nin++] = k;
        else
            outk[nout++] = k;
    }
    if (nin == 0 || nout == 0) return false;
    memcpy(out, v, 81);
    int k = in[rng_below(&g->r, nin)];
    for (int j = 0; j < g->orb.size[k]; j++) out[g->orb.cell[k][j]] = 0;
    int add = 1 + rng_below(&g->r, 2);
    for (int a = 0; a < add && nout > 0; a++) {
        int i = rng_below(&g->r, nout), m = outk[i];
        outk[i] = outk[--nout];
        for (int j = 0; j < g->orb.size[m]; j++) out[g->orb.cell[m][j]] = g->sol[g->orb.cell[m][j]];
    }
    g->res->built++;
    if (!unique(out)) return false;
    reduce(g, out, g->t->minimal || g->t->clues_max >= 81 ? g->t->clues_min : g->t->clues_max);
    return true;
}

bool sdk_generate(const sdk_gen_target *t, const sdk_gen_opts *o, sdk_gen_result *res,
                  sdk_error *err)
{
    gen g;
    memset(&g, 0, sizeof g);
    memset(res, 0, sizeof *res);
    g.t = t, g.o = o, g.res = res;
    rng_seed(&g.r, o->seed, o->index);
    orbits_make(&g.orb, t->symmetry);
    g.max_tries = o->max_tries > 0 ? o->max_tries : 1000000000L;
    double t0 = now_mono(), c0 = now_cpu();
    g.t_end = o->max_seconds > 0 ? t0 + o->max_seconds : 0;
    g.want = wanted_difficulty(t, o->profile);
    bool found = false, hard = hard_target(t) && !t->has_givens;
    uint8_t v[81], best[81], next[81];
    while (!found && !out_of_budget(&g)) {
        if (!candidate(&g, v)) break;
        long value;
        if (shape_ok(&g, v) && rate(&g, v, &value)) {
            found = true;
            break;
        }
        if (!hard) continue;
        if (!shape_ok(&g, v)) rate(&g, v, &value);
        /* local search from this grid's puzzle */
        long best_value = value;
        memcpy(best, v, 81);
        for (int stall = 0; stall < 60 && !found && !out_of_budget(&g); stall++) {
            if (!move(&g, best, next)) continue;
            long nv;
            bool ok = rate(&g, next, &nv) && shape_ok(&g, next);
            if (ok) {
                memcpy(v, next, 81);
                found = true;
            } else if (nv >= best_value) {
                if (nv > best_value) stall = 0;
                best_value = nv;
                memcpy(best, next, 81);
            }
        }
    }
    res->seconds = now_cpu() - c0;
    if (!found) {
        sdk_error_set(err, SDK_E_NOT_FOUND,
                      "no puzzle met the target within %s (%ld candidates made, %ld rated, "
                      "%.1f s): widen the target or allow more time",
                      res->rated >= g.max_tries ? "the candidate limit" : "the time budget",
                      res->built, res->rated, now_mono() - t0);
        return false;
    }
    memcpy(res->puzzle, v, 81);
    memcpy(res->solution, g.sol, 81);
    res->clues = clue_count(v);
    return true;
}

/* ---- checking a target --------------------------------------------------- */

bool sdk_gen_check(const sdk_gen_target *t, sdk_error *err)
{
    struct {
        const char *name;
        int lo, hi;
    } r[] = {
        {"er", t->er_min, t->er_max}, {"ep", t->ep_min, t->ep_max}, {"ed", t->ed_min, t->ed_max}};
    for (int i = 0; i < 3; i++)
        if (r[i].lo >= 0 && r[i].hi >= 0 && r[i].lo > r[i].hi) {
            sdk_error_set(err, SDK_E_REQUEST, "'%s' range %d.%d-%d.%d is empty", r[i].name,
                          r[i].lo / 10, r[i].lo % 10, r[i].hi / 10, r[i].hi % 10);
            return false;
        }
    if (t->clues_min < 17 || t->clues_max > 81 || t->clues_min > t->clues_max) {
        sdk_error_set(err, SDK_E_REQUEST,
                      "clue range %d-%d is impossible: a puzzle with one solution has 17 to 81 "
                      "clues",
                      t->clues_min, t->clues_max);
        return false;
    }
    if (t->symmetry < 0 || t->symmetry >= SDK_SYM_COUNT) {
        sdk_error_set(err, SDK_E_REQUEST, "unknown symmetry (symmetries: %s)",
                      sdk_symmetry_names());
        return false;
    }
    if (t->has_givens) {
        int n = clue_count(t->givens);
        if (n < 17) {
            sdk_error_set(err, SDK_E_REQUEST,
                          "the clue pattern has %d clue cells; a puzzle with one solution needs "
                          "at least 17",
                          n);
            return false;
        }
        if (n < t->clues_min || n > t->clues_max) {
            sdk_error_set(err, SDK_E_REQUEST,
                          "the clue pattern has %d clue cells, outside the clue range %d-%d", n,
                          t->clues_min, t->clues_max);
            return false;
        }
        if (!sdk_gen_is_symmetric(t->givens, t->symmetry)) {
            sdk_error_set(err, SDK_E_REQUEST, "the clue pattern is not %s-symmetric",
                          sdk_symmetry_name(t->symmetry));
            return false;
        }
    }
    return true;
}
