/* fish_plugin.c - the fish family as one plugin: basic fish (X-Wing ..
 * Leviathan), finned and sashimi fish, Franken and Mutant fish (finless and
 * finned), sizes 2..7. The search itself lives in lib/fish.c (sdk_fish_find);
 * this file picks the fish of each technique, merges Siamese fish on request
 * and writes the steps in HoDoKu's notation:
 *     X-Wing: 7 r25 c28
 *     Finned Swordfish: 3 r158 c249 fr5c7
 *     Finned Franken Jellyfish: 7 r169b3 c2679 fr6c8 efr1c9
 * Options: siamese=1 (also report two fish of one category with the same base
 * houses and different eliminations as one step, as HoDoKu does), max-fins
 * (default 5, exo + endo fins), max-endo-fins (default 2).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/alloc.h"
#include "sudoku/fish.h"
#include "sudoku/technique.h"

enum { CLS_FINLESS = 0, CLS_FINNED, CLS_SASHIMI };

/* What a fish technique searches: its descriptor's data. */
typedef struct fdef {
    int kind, size, cls;
} fdef;

static int find_fish(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);

#define FISH(var, id_, name_, kind_, size_, cls_, diff_, score_, level_)                           \
    static const fdef def_##var = {kind_, size_, cls_};                                            \
    static const sdk_technique var = {                                                             \
        .abi = SDK_ABI_VERSION,                                                                    \
        .size = sizeof(sdk_technique),                                                             \
        .id = id_,                                                                                 \
        .name = name_,                                                                             \
        .difficulty = diff_,                                                                       \
        .score = score_,                                                                           \
        .level = level_,                                                                           \
        .flags = 0,                                                                                \
        .find = find_fish,                                                                         \
        .summary =                                                                                 \
            name_ ": " #size_ " base houses whose candidates lie in " #size_ " cover houses",      \
        .data = &def_##var,                                                                        \
    };

#define B SDK_FISH_BASIC
#define F SDK_FISH_FRANKEN
#define M SDK_FISH_MUTANT
#define HARD SDK_LEVEL_HARD
#define UNFAIR SDK_LEVEL_UNFAIR
#define EXTREME SDK_LEVEL_EXTREME

/* Difficulty (SE tenths): X-Wing 3.2, Swordfish 3.8, Jellyfish 5.2 as in Sudoku
 * Explainer, sizes 5-7 extrapolated (5.8, 6.2, 6.6); finned +0.2 (SE), sashimi
 * +0.3, Franken +0.4, finned Franken +0.6, Mutant +0.6, finned Mutant +0.8.
 * Score and level: HoDoKu's defaults. */
FISH(x_wing, "x-wing", "X-Wing", B, 2, CLS_FINLESS, 32, 140, HARD)
FISH(swordfish, "swordfish", "Swordfish", B, 3, CLS_FINLESS, 38, 150, HARD)
FISH(jellyfish, "jellyfish", "Jellyfish", B, 4, CLS_FINLESS, 52, 160, HARD)
FISH(squirmbag, "squirmbag", "Squirmbag", B, 5, CLS_FINLESS, 58, 470, UNFAIR)
FISH(whale, "whale", "Whale", B, 6, CLS_FINLESS, 62, 470, UNFAIR)
FISH(leviathan, "leviathan", "Leviathan", B, 7, CLS_FINLESS, 66, 470, UNFAIR)

FISH(f_x_wing, "finned-x-wing", "Finned X-Wing", B, 2, CLS_FINNED, 34, 130, HARD)
FISH(f_swordfish, "finned-swordfish", "Finned Swordfish", B, 3, CLS_FINNED, 40, 200, UNFAIR)
FISH(f_jellyfish, "finned-jellyfish", "Finned Jellyfish", B, 4, CLS_FINNED, 54, 250, UNFAIR)
FISH(f_squirmbag, "finned-squirmbag", "Finned Squirmbag", B, 5, CLS_FINNED, 60, 470, UNFAIR)
FISH(f_whale, "finned-whale", "Finned Whale", B, 6, CLS_FINNED, 64, 470, UNFAIR)
FISH(f_leviathan, "finned-leviathan", "Finned Leviathan", B, 7, CLS_FINNED, 68, 470, UNFAIR)

FISH(s_x_wing, "sashimi-x-wing", "Sashimi X-Wing", B, 2, CLS_SASHIMI, 35, 150, HARD)
FISH(s_swordfish, "sashimi-swordfish", "Sashimi Swordfish", B, 3, CLS_SASHIMI, 41, 240, UNFAIR)
FISH(s_jellyfish, "sashimi-jellyfish", "Sashimi Jellyfish", B, 4, CLS_SASHIMI, 55, 260, UNFAIR)
FISH(s_squirmbag, "sashimi-squirmbag", "Sashimi Squirmbag", B, 5, CLS_SASHIMI, 61, 470, UNFAIR)
FISH(s_whale, "sashimi-whale", "Sashimi Whale", B, 6, CLS_SASHIMI, 65, 470, UNFAIR)
FISH(s_leviathan, "sashimi-leviathan", "Sashimi Leviathan", B, 7, CLS_SASHIMI, 69, 470, UNFAIR)

FISH(fr_x_wing, "franken-x-wing", "Franken X-Wing", F, 2, CLS_FINLESS, 36, 300, UNFAIR)
FISH(fr_swordfish, "franken-swordfish", "Franken Swordfish", F, 3, CLS_FINLESS, 42, 350, UNFAIR)
FISH(fr_jellyfish, "franken-jellyfish", "Franken Jellyfish", F, 4, CLS_FINLESS, 56, 370, UNFAIR)
FISH(fr_squirmbag, "franken-squirmbag", "Franken Squirmbag", F, 5, CLS_FINLESS, 62, 470, EXTREME)
FISH(fr_whale, "franken-whale", "Franken Whale", F, 6, CLS_FINLESS, 66, 470, EXTREME)
FISH(fr_leviathan, "franken-leviathan", "Franken Leviathan", F, 7, CLS_FINLESS, 70, 470, EXTREME)

FISH(ffr_x_wing, "finned-franken-x-wing", "Finned Franken X-Wing", F, 2, CLS_FINNED, 38, 390,
     UNFAIR)
FISH(ffr_swordfish, "finned-franken-swordfish", "Finned Franken Swordfish", F, 3, CLS_FINNED, 44,
     410, UNFAIR)
FISH(ffr_jellyfish, "finned-franken-jellyfish", "Finned Franken Jellyfish", F, 4, CLS_FINNED, 58,
     430, UNFAIR)
FISH(ffr_squirmbag, "finned-franken-squirmbag", "Finned Franken Squirmbag", F, 5, CLS_FINNED, 64,
     470, EXTREME)
FISH(ffr_whale, "finned-franken-whale", "Finned Franken Whale", F, 6, CLS_FINNED, 68, 470, EXTREME)
FISH(ffr_leviathan, "finned-franken-leviathan", "Finned Franken Leviathan", F, 7, CLS_FINNED, 72,
     470, EXTREME)

FISH(mu_x_wing, "mutant-x-wing", "Mutant X-Wing", M, 2, CLS_FINLESS, 38, 450, EXTREME)
FISH(mu_swordfish, "mutant-swordfish", "Mutant Swordfish", M, 3, CLS_FINLESS, 44, 450, EXTREME)
FISH(mu_jellyfish, "mutant-jellyfish", "Mutant Jellyfish", M, 4, CLS_FINLESS, 58, 450, EXTREME)
FISH(mu_squirmbag, "mutant-squirmbag", "Mutant Squirmbag", M, 5, CLS_FINLESS, 64, 470, EXTREME)
FISH(mu_whale, "mutant-whale", "Mutant Whale", M, 6, CLS_FINLESS, 68, 470, EXTREME)
FISH(mu_leviathan, "mutant-leviathan", "Mutant Leviathan", M, 7, CLS_FINLESS, 72, 470, EXTREME)

FISH(fmu_x_wing, "finned-mutant-x-wing", "Finned Mutant X-Wing", M, 2, CLS_FINNED, 40, 470, EXTREME)
FISH(fmu_swordfish, "finned-mutant-swordfish", "Finned Mutant Swordfish", M, 3, CLS_FINNED, 46, 470,
     EXTREME)
FISH(fmu_jellyfish, "finned-mutant-jellyfish", "Finned Mutant Jellyfish", M, 4, CLS_FINNED, 60, 470,
     EXTREME)
FISH(fmu_squirmbag, "finned-mutant-squirmbag", "Finned Mutant Squirmbag", M, 5, CLS_FINNED, 66, 470,
     EXTREME)
FISH(fmu_whale, "finned-mutant-whale", "Finned Mutant Whale", M, 6, CLS_FINNED, 70, 470, EXTREME)
FISH(fmu_leviathan, "finned-mutant-leviathan", "Finned Mutant Leviathan", M, 7, CLS_FINNED, 74, 470,
     EXTREME)

SDK_PLUGIN(&x_wing, &swordfish, &jellyfish, &squirmbag, &whale, &leviathan, &f_x_wing, &f_swordfish,
           &f_jellyfish, &f_squirmbag, &f_whale, &f_leviathan, &s_x_wing, &s_swordfish,
           &s_jellyfish, &s_squirmbag, &s_whale, &s_leviathan, &fr_x_wing, &fr_swordfish,
           &fr_jellyfish, &fr_squirmbag, &fr_whale, &fr_leviathan, &ffr_x_wing, &ffr_swordfish,
           &ffr_jellyfish, &ffr_squirmbag, &ffr_whale, &ffr_leviathan, &mu_x_wing, &mu_swordfish,
           &mu_jellyfish, &mu_squirmbag, &mu_whale, &mu_leviathan, &fmu_x_wing, &fmu_swordfish,
           &fmu_jellyfish, &fmu_squirmbag, &fmu_whale, &fmu_leviathan)

/* ---- the search --------------------------------------------------------- */

static int fish_class(const sdk_fish *f)
{
    if (sdk_bb_empty(f->fins) && sdk_bb_empty(f->endo_fins)) return CLS_FINLESS;
    return f->sashimi ? CLS_SASHIMI : CLS_FINNED;
}

typedef struct run {
    const sdk_ctx *ctx; /* for its scratch step */
    const fdef *def;
    int partner_cls; /* partner_cls(def, ...) for this run */
    const sdk_technique *tech;
    const sdk_grid *g;
    sdk_sink *sink;
    int stopped;
    int emitted;       /* steps emitted for the current digit */
    bool partner_seen; /* a fish of the partner class (see "finned and sashimi") */
    bool collect;
    sdk_fish *list;
    int n, cap;
} run;

/* One step for one fish, or for a Siamese pair (b != NULL). */
static int emit_fish(run *r, const sdk_fish *a, const sdk_fish *b)
{
    sdk_step *st = sdk_scratch_step(r->ctx, 0);
    sdk_step_init(st, r->tech);
    r->emitted++;
    int d = a->digit;
    char bs[40], cs[40], cs2[40], name[8];
    sdk_step_printf(st, "%s%s: %d %s %s", b ? "Siamese " : "", r->tech->name, d,
                    sdk_fish_houses(a->base, a->size, bs, sizeof bs),
                    sdk_fish_houses(a->cover, a->size, cs, sizeof cs));
    if (b) sdk_step_printf(st, "/%s", sdk_fish_houses(b->cover, b->size, cs2, sizeof cs2));
    sdk_bb fins = a->fins, endo = a->endo_fins, elims = a->elims;
    if (b) {
        fins = sdk_bb_or(fins, b->fins);
        endo = sdk_bb_or(endo, b->endo_fins);
        elims = sdk_bb_or(elims, b->elims);
    }
    SDK_BB_FOREACH(c, fins) sdk_step_printf(st, " f%s", sdk_cell_name(c, name));
    SDK_BB_FOREACH(c, endo) sdk_step_printf(st, " ef%s", sdk_cell_name(c, name));

    for (int i = 0; i < a->size; i++) sdk_step_house(st, a->base[i], SDK_ROLE_BASE);
    for (int i = 0; i < a->size; i++) sdk_step_house(st, a->cover[i], SDK_ROLE_COVER);
    if (b)
        for (int i = 0; i < b->size; i++) {
            bool dup = false;
            for (int k = 0; k < a->size; k++) dup |= a->cover[k] == b->cover[i];
            if (!dup) sdk_step_house(st, b->cover[i], SDK_ROLE_COVER);
        }
    sdk_bb plain = sdk_bb_andnot(sdk_bb_andnot(a->base_cells, fins), endo);
    sdk_step_mark_bb(st, plain, d, SDK_ROLE_BASE);
    sdk_step_mark_bb(st, fins, d, SDK_ROLE_FIN);
    sdk_step_mark_bb(st, endo, d, SDK_ROLE_ENDOFIN);
    SDK_BB_FOREACH(c, elims) sdk_step_elim(st, c, d);
    if (sdk_emit(r->sink, st) == SDK_STOP) {
        r->stopped = 1;
        return SDK_STOP;
    }
    return SDK_CONTINUE;
}

/* Does the fish belong to this technique's category (Siamese partners may be
 * finned or sashimi for a finned basic fish)? */
static bool same_category(const fdef *def, const sdk_fish *f)
{
    if (f->kind != def->kind) return false;
    return (fish_class(f) == CLS_FINLESS) == (def->cls == CLS_FINLESS);
}

/* ---- finned and sashimi -------------------------------------------------
 *
 * A finned basic fish technique and the sashimi one of its size run the
 * same search (finned basic fish with eliminations, sdk_fish_search alike)
 * and differ only in the class they report (sdk_fish.sashimi). So a search
 * of one of them that sees every fish of both classes and sees none of the
 * partner's class is a miss of the partner too, noted for it: the sashimi
 * technique comes right after the finned one in the ladders, on the same
 * grid, and nearly always finds nothing. Such a search is a full one, or
 * one since a pattern without fish of either class (the last misses keep
 * whether they are: `both`): a fish of the grid whose base holds none of
 * the lost candidates is the same fish, of the same class, on the pattern
 * (fish.h, sdk_fish_find_since; a search of finned basic fish applies
 * that rule only), so a pattern without fish of either class leaves every
 * fish of the grid, of either class, to the search since it. */

/* ---- finless and finned Franken and Mutant fish -------------------------
 *
 * A finned Franken or Mutant fish search goes through every base set the
 * finless search of its size does (and more): asked for both classes
 * (sdk_fish_search finless and finned), it costs about what the finned
 * one does alone. The finless technique comes first in the ladders, and
 * the finned one of its size right after it, on the same grid: so the
 * finless one searches both classes and notes the finned one's misses as
 * those of its partner (as above), and the finned technique then nearly
 * always finds its miss noted. It does so only when the finned technique
 * comes later in the engine's order (each technique notes, per thread,
 * its position when it last ran): else the search of both would be paid
 * for nothing. Searching since a pattern, it searches both classes only
 * from a pattern without fish of either (sdk_fish_find_since_all); from
 * another one, its own class, as before. */

/* The class of the technique's partner (-1: none); both: a finless Franken
 * or Mutant technique searching both classes. */
static int partner_cls(const fdef *def, bool both)
{
    if (def->kind != SDK_FISH_BASIC) return both && def->cls == CLS_FINLESS ? CLS_FINNED : -1;
    if (def->cls == CLS_FINLESS) return -1;
    return def->cls == CLS_FINNED ? CLS_SASHIMI : CLS_FINNED;
}

static int on_fish(void *ctx, const sdk_fish *f)
{
    run *r = ctx;
    if (f->kind == r->def->kind && fish_class(f) == r->partner_cls) r->partner_seen = true;
    if (!r->collect) {
        if (f->kind != r->def->kind || fish_class(f) != r->def->cls) return 0;
        return emit_fish(r, f, NULL) == SDK_STOP;
    }
    if (!same_category(r->def, f)) return 0;
    if (r->n == r->cap) {
        int cap = r->cap ? r->cap * 2 : 64;
        sdk_fish *p = sdk_xrealloc(r->list, sizeof *p * (size_t)cap);
        r->list = p;
        r->cap = cap;
    }
    r->list[r->n++] = *f;
    return 0;
}

/* HoDoKu's order among fish with the same base: cover houses lexicographic. */
static int cmp_fish(const void *x, const void *y)
{
    const sdk_fish *a = x, *b = y;
    int c = memcmp(a->base, b->base, SDK_FISH_MAX_SIZE);
    if (c) return c;
    return memcmp(a->cover, b->cover, SDK_FISH_MAX_SIZE);
}

/* The first elimination HoDoKu lists: the plain ones first, then cannibalism. */
static int first_elim(const sdk_fish *f)
{
    sdk_bb plain = sdk_bb_and(f->elims, sdk_bb_andnot(f->cover_cells, f->base_cells));
    return sdk_bb_empty(plain) ? sdk_bb_first(f->elims) : sdk_bb_first(plain);
}

/* ---- misses remembered --------------------------------------------------
 *
 * A fish of one digit depends on nothing but that digit's candidate cells
 * (sdk_fish_find reads g->digit[d-1] only). The engine asks every technique
 * again after each step, and a step changes the candidates of one or a few
 * digits, so most of a large search (Franken jellyfish: a millisecond a
 * digit) would re-prove that the same candidate pattern holds no fish.
 *
 * A small table per thread maps a candidate pattern (with the fin limits) to
 * the set of fish techniques known to find nothing in it, one bit each: the
 * fish techniques of a profile share an entry, so a pattern costs one slot
 * whatever the number of techniques. Sets of MISS_WAYS entries, the least
 * recently used out first; fixed size (64 KiB a thread). Only misses are
 * kept: a digit with a fish is searched again, so the steps and their order
 * are exactly those of the full search. */
enum { MISS_SETS = 512, MISS_WAYS = 4 };

typedef struct miss {
    sdk_bb cand;
    uint64_t none; /* bit per technique (def_bit): no fish here; 0: unused */
    int32_t max_fins, max_endo_fins;
} miss;

static _Thread_local miss misses[MISS_SETS][MISS_WAYS];

/* One bit per fish technique of this plugin (3 kinds x 6 sizes x 3 classes). */
static int def_index(const fdef *def)
{
    return def->kind * 18 + (def->size - 2) * 3 + def->cls;
}

static uint64_t def_bit(const fdef *def)
{
    return 1ULL << def_index(def);
}

/* The set of a pattern. Every cell must move the index: bits 0..k of a
 * product depend on bits 0..k of the factor only, so the words are mixed
 * and a product's high bits taken. (The index was bits 0-8 and 29-37 of
 * plain products, which cells 38-63 did not move: the patterns of a grid
 * less one candidate there all fell in one set of four.) */
static miss *miss_set(const sdk_fish_search *s, sdk_bb cand)
{
    uint64_t h = cand.lo * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 32;
    h ^= cand.hi + (uint64_t)(s->max_fins * 31 + s->max_endo_fins) * 0x165667B19E3779F9ULL;
    h *= 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    h *= 0x9E3779B97F4A7C15ULL;
    return misses[(h >> 32) % MISS_SETS];
}

/* The entry of (s's fin limits, cand), moved to the front of its set, or
 * NULL when the set does not hold it. */
static miss *miss_lookup(const sdk_fish_search *s, sdk_bb cand)
{
    miss *set = miss_set(s, cand);
    for (int w = 0; w < MISS_WAYS; w++) {
        miss *m = &set[w];
        if (m->none && sdk_bb_eq(m->cand, cand) && m->max_fins == s->max_fins &&
            m->max_endo_fins == s->max_endo_fins) {
            miss hit = *m;
            memmove(&set[1], &set[0], sizeof *set * (size_t)w);
            set[0] = hit;
            return &set[0];
        }
    }
    return NULL;
}

/* The techniques known to find nothing in cand (bits of def_bit). */
static uint64_t miss_known(const sdk_fish_search *s, sdk_bb cand)
{
    const miss *m = miss_lookup(s, cand);
    return m ? m->none : 0;
}

static void miss_note(const fdef *def, const sdk_fish_search *s, sdk_bb cand)
{
    miss *m = miss_lookup(s, cand);
    if (!m) { /* a new entry in front, the least recently used one out */
        miss *set = miss_set(s, cand);
        memmove(&set[1], &set[0], sizeof *set * (MISS_WAYS - 1));
        m = &set[0];
        *m = (miss){.cand = cand, .max_fins = s->max_fins, .max_endo_fins = s->max_endo_fins};
    }
    m->none |= def_bit(def);
}

/* ---- searching what changed --------------------------------------------
 *
 * Along a puzzle's path a digit's candidates only shrink. Per thread, per
 * technique and digit, the last candidate pattern where the technique found
 * nothing is kept; when the digit's pattern now is a subset of it, only the
 * fish that gained what it lost since can be new (sdk_fish_find_since in
 * fish.h), and only they are searched, in the usual order.
 *
 * The path does not only shrink, though: forcing chains and nested searches
 * ask the techniques on grids made from the current one by an assumption
 * (inside a propagate, ctx->depth > 0), then the engine comes back to the
 * path, whose grid is no subset of the last (assumed) one. So the last
 * misses are kept apart for the path and for assumed grids, and an assumed
 * grid may also start from the path's miss (its grid holds it). And a fish
 * depends on the pattern only, not on which digit it is, so each technique
 * also keeps its last RECENT_MISSES patterns without fish (any digit, a
 * ring): when neither last miss is a subset with few candidates lost, the
 * pattern of the ring that holds the digit's with the fewest candidates
 * more serves instead. Any other pattern (another puzzle, other fin limits)
 * gets the full search. */
enum { RECENT_MISSES = 64, FEW_GONE = 2 };

typedef struct last_miss {
    sdk_bb cand; /* empty: nothing kept */
    int32_t max_fins, max_endo_fins;
    bool both; /* nor has the partner a fish here (see "finned and sashimi") */
} last_miss;

typedef struct recent {
    last_miss m[RECENT_MISSES];
    int next; /* the slot the next miss takes */
} recent;

/* [inside][def_index][digit - 1]: inside 0 for the engine's own path
 * (ctx->depth 0), 1 inside a propagate, so that the many assumed grids of
 * a forcing chain leave the path's misses alone */
static _Thread_local last_miss last_misses[2][54][9];
static _Thread_local recent recents[54]; /* [def_index] */

static last_miss *last_miss_of(const fdef *def, int d, int inside)
{
    return &last_misses[inside][def_index(def)][d - 1];
}

/* Candidates of P that cand lacks, or -1 when cand is no subset of P or P
 * was kept for other fin limits. */
static int gone_since(const last_miss *m, sdk_bb cand, const sdk_fish_search *s)
{
    if (sdk_bb_empty(m->cand) || m->max_fins != s->max_fins ||
        m->max_endo_fins != s->max_endo_fins || !sdk_bb_empty(sdk_bb_andnot(cand, m->cand)))
        return -1;
    return sdk_bb_count(sdk_bb_andnot(m->cand, cand));
}

/* Remember a miss of the technique on cand (digit d); both: of its partner
 * too. */
static void note_last_miss(const fdef *def, int d, int inside, sdk_bb cand,
                           const sdk_fish_search *s, bool both)
{
    last_miss m = {cand, s->max_fins, s->max_endo_fins, both};
    *last_miss_of(def, d, inside) = m;
    recent *r = &recents[def_index(def)];
    int newest = (r->next + RECENT_MISSES - 1) % RECENT_MISSES;
    if (sdk_bb_eq(r->m[newest].cand, cand) && r->m[newest].max_fins == s->max_fins &&
        r->m[newest].max_endo_fins == s->max_endo_fins) {
        r->m[newest].both |= both;
        return;
    }
    r->m[r->next] = m;
    r->next = (r->next + 1) % RECENT_MISSES;
}

/* Search digit d: since the closest kept miss when there is one for these
 * limits. True when the search saw every fish of the partner's class too
 * (see "finned and sashimi"). both: the search of both classes of a finless
 * Franken or Mutant technique (NULL: none; see "finless and finned"). */
static bool search_digit(const fdef *def, const sdk_grid *g, int d, int inside,
                         const sdk_fish_search *s, const sdk_fish_search *both, run *r)
{
    sdk_bb cand = g->digit[d - 1];
    const last_miss *best = last_miss_of(def, d, inside);
    int gone = gone_since(best, cand, s);
    if (inside) { /* an assumed grid: the path's grid holds it */
        const last_miss *path = last_miss_of(def, d, 0);
        int k = gone_since(path, cand, s);
        if (k >= 0 && (gone < 0 || k < gone)) {
            gone = k;
            best = path;
        }
    }
    if (gone < 0 || gone > FEW_GONE) {
        const recent *rc = &recents[def_index(def)];
        for (int i = 0; i < RECENT_MISSES; i++) {
            int k = gone_since(&rc->m[i], cand, s);
            if (k >= 0 && (gone < 0 || k < gone)) {
                gone = k;
                best = &rc->m[i];
            }
        }
    }
    if (gone < 0) {
        sdk_fish_find(g, d, both ? both : s, on_fish, r);
        return true;
    }
    if (best->both) { /* no fish of the partner's class either */
        sdk_fish_find_since_all(g, d, both ? both : s, best->cand, on_fish, r);
        return true;
    }
    sdk_fish_find_since(g, d, s, best->cand, on_fish, r);
    return false;
}

/* Per thread, per technique: its position in the engine's order when it
 * last ran, plus one (0: it has not run). */
static _Thread_local int ran_at[54];

static int find_fish(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    const fdef *def = ctx->self->data;
    int inside = ctx->depth > 0;
    sdk_fish_search s;
    sdk_fish_search_init(&s);
    s.min_size = s.max_size = def->size;
    s.kind = def->kind;
    s.finless = def->cls == CLS_FINLESS;
    s.finned = def->cls != CLS_FINLESS;
    s.only_kind = true; /* on_fish keeps only this kind anyway */
    s.max_fins = sdk_opt_int(ctx, "max-fins", 5);
    s.max_endo_fins = sdk_opt_int(ctx, "max-endo-fins", 2);
    if (s.max_fins < 0) s.max_fins = 0;
    if (s.max_endo_fins < 0) s.max_endo_fins = 0;
    bool siamese = sdk_opt_bool(ctx, "siamese", false);

    ran_at[def_index(def)] = ctx->position + 1;
    const fdef finned = {def->kind, def->size, CLS_FINNED};
    bool two = def->kind != SDK_FISH_BASIC && def->cls == CLS_FINLESS &&
               ran_at[def_index(&finned)] > ctx->position + 1;
    sdk_fish_search s2 = s;
    s2.finned = true;
    run r = {.ctx = ctx,
             .def = def,
             .partner_cls = partner_cls(def, two),
             .tech = ctx->self,
             .g = g,
             .sink = sink,
             .collect = siamese};
    const fdef partner = {def->kind, def->size, r.partner_cls};
    uint64_t partner_bit = partner.cls >= 0 ? def_bit(&partner) : 0;
    for (int d = 1; d <= 9 && !r.stopped; d++) {
        r.n = 0;
        sdk_bb cand = g->digit[d - 1];
        uint64_t none = miss_known(&s, cand);
        if (none & def_bit(def)) {
            note_last_miss(def, d, inside, cand, &s, partner_bit && (none & partner_bit));
            continue;
        }
        r.emitted = 0;
        r.partner_seen = false;
        bool saw_all = search_digit(def, g, d, inside, &s, two ? &s2 : NULL, &r);
        if (!r.emitted && !r.stopped && (!siamese || r.n == 0)) {
            bool both = partner_bit && saw_all && !r.partner_seen;
            miss_note(def, &s, cand);
            if (both) miss_note(&partner, &s, cand);
            note_last_miss(def, d, inside, cand, &s, both);
        }
        if (!siamese || r.stopped || r.n == 0) continue;
        /* memcmp over the whole arrays: unused slots are zero */
        qsort(r.list, (size_t)r.n, sizeof *r.list, cmp_fish);
        for (int i = 0; i < r.n && !r.stopped; i++) {
            if (fish_class(&r.list[i]) != def->cls) continue;
            for (int j = i + 1; j < r.n && !r.stopped; j++) {
                if (memcmp(r.list[i].base, r.list[j].base, SDK_FISH_MAX_SIZE)) break;
                if (first_elim(&r.list[i]) == first_elim(&r.list[j])) continue;
                emit_fish(&r, &r.list[i], &r.list[j]);
            }
        }
        for (int i = 0; i < r.n && !r.stopped; i++)
            if (fish_class(&r.list[i]) == def->cls) emit_fish(&r, &r.list[i], NULL);
    }
    free(r.list);
    return r.stopped ? SDK_STOP : SDK_CONTINUE;
}
