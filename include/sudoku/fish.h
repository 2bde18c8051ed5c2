/* sudoku/fish.h - enumerate fish (basic, Franken, Mutant; finless or finned).
 *
 * A fish for digit d: n base houses and n cover houses (no house in both).
 * Every candidate of d in the base houses is either covered by a cover house
 * or is a fin. Base candidates that lie in two base houses are endo fins (they
 * count as fins too). Without fins, d is true exactly once in every base house
 * and so at most once in every cover house: the cover candidates outside the
 * base ("potential" eliminations) are false, and so is a candidate lying in two
 * cover houses (cannibalism). With fins, either the fish holds or some fin is
 * true, so only the potential eliminations that see every fin go.
 *
 * Definitions and naming follow HoDoKu (which follows the Ultimate Fish Guide):
 *   - basic: base and cover are rows and columns (one of each kind);
 *   - Franken: base rows (+boxes) and cover columns (+boxes), or the transpose;
 *   - Mutant: anything else;
 *   - a finned basic fish is "sashimi" when some base house, fins removed, holds
 *     at most one candidate;
 *   - max_fins bounds exo + endo fins together; max_endo_fins the endo fins.
 *
 * The enumerator walks base house combinations, then finds every cover set by
 * covering the base candidates one at a time (each candidate: a fin, or one of
 * its up-to-three houses), so the work is bounded by the fin budget rather
 * than by all cover combinations. Every (base, cover) pair is reported once.
 * Base sets and fin choices that cannot give what is asked for (need_elims:
 * an elimination; sdk_fish_fins below) are skipped without changing
 * what is reported or its order (lib/fish.c says how).
 * Pure and reentrant: usable by the fish plugin and by kraken fish (which
 * wants finned fish and their fins even when they eliminate nothing).
 */
#ifndef SUDOKU_FISH_H
#define SUDOKU_FISH_H

#include "sudoku/grid.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SDK_FISH_MAX_SIZE 7

/* Fish kinds: as a search space (which houses may be base/cover) and as the
 * classification of a found fish (which houses it actually uses). */
enum { SDK_FISH_BASIC = 0, SDK_FISH_FRANKEN = 1, SDK_FISH_MUTANT = 2 };

typedef struct sdk_fish {
    int digit;                        /* 1..9 */
    int size;                         /* number of base (= cover) houses */
    int kind;                         /* SDK_FISH_BASIC / FRANKEN / MUTANT, by the houses used */
    bool sashimi;                     /* basic finned fish only: see above */
    uint8_t base[SDK_FISH_MAX_SIZE];  /* base houses, ascending */
    uint8_t cover[SDK_FISH_MAX_SIZE]; /* cover houses, ascending */
    sdk_bb base_cells;                /* candidates of digit in the base houses */
    sdk_bb cover_cells;               /* candidates of digit in the cover houses */
    sdk_bb fins;                      /* exo fins: base candidates in no cover house */
    sdk_bb endo_fins;                 /* base candidates in two or more base houses */
    sdk_bb cannibal;                  /* candidates in two or more cover houses */
    sdk_bb potential;                 /* (cover_cells - base_cells) | cannibal */
    sdk_bb elims;                     /* potential cells that see every fin and endo fin */
} sdk_fish;

typedef struct sdk_fish_search {
    int min_size, max_size; /* 2..7 */
    int kind;          /* search space: SDK_FISH_BASIC, _FRANKEN (includes basic), _MUTANT (all) */
    bool finless;      /* report fish without any fin */
    bool finned;       /* report fish with 1..max_fins fins (exo + endo) */
    int max_fins;      /* HoDoKu default 5 */
    int max_endo_fins; /* HoDoKu default 2 */
    bool need_elims;   /* report only fish with elims (false: every fish, e.g. kraken) */
    bool only_kind;    /* report only fish classified as `kind` (a Franken search then
                          skips base sets without a row/column: they give Mutant fish) */
} sdk_fish_search;

/* What a fin implies beyond its peers, for searches that follow each fin by
 * chains (kraken fish). A struct of its own, passed to sdk_fish_find_fins(),
 * so sdk_fish_search keeps the layout of plugin ABI 3. Both parts are for
 * one digit at a time (sdk_fish_find_fins' digit != 0), per cell of that
 * digit; NULL: off.
 * reach[c]: the cells (of the digit) a fin in c makes false besides its
 * peers; with need_elims, a fish is reported when a cell every fin sees or
 * reaches is a potential elimination (fish.elims stays what every fin sees).
 * sets: a bit set per cell, set_words words each (cell c's at sets + c *
 * set_words), e.g. every candidate the cell's candidate implies false; a
 * fish is reported only when its fins (exo and endo) and the base
 * candidates of one of its cover houses have a bit in common, and the
 * search skips what cannot give one. */
#define SDK_FISH_SET_WORDS 12 /* 729 bits: a set of candidates */
typedef struct sdk_fish_fins {
    const sdk_bb *reach;
    const uint64_t *sets;
    int set_words; /* 1..SDK_FISH_SET_WORDS */
} sdk_fish_fins;

/* Defaults: sizes 2..4, basic, finless and finned, 5 fins, 2 endo fins, need_elims,
 * every kind the search space gives. */
SDK_API void sdk_fish_search_init(sdk_fish_search *s);

/* Called for every fish found; return SDK_STOP (1) to end the search. */
typedef int (*sdk_fish_fn)(void *ctx, const sdk_fish *f);

/* Enumerate the fish of one digit (1..9), or of every digit when digit is 0.
 * Order: digit, size, then (for basic and Franken) row-based before
 * column-based, then base houses lexicographically. Returns 1 when fn
 * stopped the search, else 0. */
SDK_API int sdk_fish_find(const sdk_grid *g, int digit, const sdk_fish_search *s, sdk_fish_fn fn,
                          void *ctx);

/* sdk_fish_find with what the fins imply beyond their peers (fins may be
 * NULL: the same as sdk_fish_find). */
SDK_API int sdk_fish_find_fins(const sdk_grid *g, int digit, const sdk_fish_search *s,
                               const sdk_fish_fins *fins, sdk_fish_fn fn, void *ctx);

/* What sdk_fish_find(g, digit, s, ...) reports of one kind and class, for
 * a digit (1..9) whose candidates are a subset of `before`, a pattern on
 * which that search reported no fish of that kind (fish.kind) and class
 * (finless, finned, sashimi) -- e.g. the same digit earlier in the puzzle:
 * the same fish of that kind and class, in the same order; fish of other
 * kinds and classes may be left out. Much less work when few candidates
 * went since `before` (lib/fish.c says why); when the digit's candidates
 * are not a subset of `before`, the same as sdk_fish_find. */
SDK_API int sdk_fish_find_since(const sdk_grid *g, int digit, const sdk_fish_search *s,
                                sdk_bb before, sdk_fish_fn fn, void *ctx);

/* sdk_fish_find_since for a pattern `before` on which the search reported
 * no fish at all (no fish of any class it reports, of s->kind when
 * only_kind): every fish the search reports, in the same order. A search of
 * several classes (finned basic fish with their sashimi ones, finless and
 * finned Franken fish together) then skips as much as a search of one
 * class does. */
SDK_API int sdk_fish_find_since_all(const sdk_grid *g, int digit, const sdk_fish_search *s,
                                    sdk_bb before, sdk_fish_fn fn, void *ctx);

/* Necessary conditions for kraken-like searches of finned basic fish (rows
 * and columns, sizes 2..max_size) of the digit whose candidates are `cand`
 * (lib/fish_reach.c says why they hold); cheap, and false nearly always on
 * a hard grid, where the search itself is long.
 *
 * sets (set_words words per cell, as in sdk_fish_fins) and keep (set_words
 * words): clears in keep each bit that no such fish has in common to its
 * fins and the base candidates of one cover house (any fin count); returns
 * whether a bit is left. */
SDK_API bool sdk_fish_basic_sets_keep(sdk_bb cand, const uint64_t *sets, int set_words,
                                      int max_size, uint64_t *keep);

/* reach as in sdk_fish_fins: the cells of `targets` (candidates of the
 * digit) that are a potential elimination of such a fish (a cover cell
 * outside the base) that every fin sees or reaches and not every fin sees. */
SDK_API sdk_bb sdk_fish_basic_reach_targets(sdk_bb cand, const sdk_bb *reach, sdk_bb targets,
                                            int max_size);

/* HoDoKu-style house list of a fish part, e.g. "r158", "r348b1", "r36c15".
 * houses ascending (rows, then columns, then boxes); buf >= 32. */
SDK_API char *sdk_fish_houses(const uint8_t *houses, int n, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
