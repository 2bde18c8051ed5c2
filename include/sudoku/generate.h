/* sudoku/generate.h - puzzles made to order.
 *
 * A puzzle is made in three moves, repeated until one meets the target:
 *
 *   1. a random solution grid (randomised depth-first fill, fewest
 *      candidates first), or the clue pattern's cells of one (`givens`);
 *   2. clues taken away, one symmetry orbit at a time in random order, as
 *      long as the puzzle keeps exactly one solution (the brute-force solver
 *      is the judge); what is left is minimal with respect to the orbits;
 *   3. the puzzle rated with a profile (exactly as the `rate` method does it)
 *      and checked against the target: ER/EP/ED ranges, HoDoKu level, the
 *      techniques its path must use, clue count, minimality.
 *
 * Hard targets (ER >= 7.0, level unfair or extreme) are rare among random
 * minimal puzzles, so for them step 3 starts a local search: from the hardest
 * puzzle so far, move one clue (take one away, put one or two others of the
 * same solution in, take away what became redundant) and keep the move when
 * the rating does not drop; after a run of moves that find nothing, start
 * again from a new grid.
 *
 * Everything is drawn from one generator seeded with (seed, index), so puzzle
 * `index` of a seed is the same whichever worker makes it and in whatever
 * order. The search is bounded by a candidate count and a time budget; when
 * both run out it fails with an error that says what it tried.
 */
#ifndef SUDOKU_GENERATE_H
#define SUDOKU_GENERATE_H

#include "sudoku/engine.h"
#include "sudoku/format.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sdk_symmetry {
    SDK_SYM_NONE = 0,
    SDK_SYM_ROTATIONAL,   /* 180 degrees about the centre */
    SDK_SYM_ROT90,        /* 90 degrees (and so 180, 270) */
    SDK_SYM_MIRROR,       /* left-right (about the middle column) */
    SDK_SYM_FLIP,         /* top-bottom (about the middle row) */
    SDK_SYM_BIAXIAL,      /* both mirror and flip */
    SDK_SYM_DIAGONAL,     /* about the main diagonal (r1c1-r9c9) */
    SDK_SYM_ANTIDIAGONAL, /* about the anti-diagonal (r1c9-r9c1) */
    SDK_SYM_DIHEDRAL,     /* all eight symmetries of the square */
    SDK_SYM_COUNT
} sdk_symmetry;

/* "none", "rotational", ... (NULL when out of range) and back (-1: unknown). */
const char *sdk_symmetry_name(int sym);
int sdk_symmetry_from(const char *name);
/* Every name, comma-separated, for error messages. */
const char *sdk_symmetry_names(void);

#define SDK_GEN_MAX_NEEDS 16

typedef struct sdk_gen_target {
    int er_min, er_max; /* tenths, inclusive; -1: open */
    int ep_min, ep_max;
    int ed_min, ed_max;
    int level;                /* sdk_level, judged with level_profile; 0: any */
    int clues_min, clues_max; /* 17..81 */
    bool minimal;             /* no single clue can be taken away */
    int symmetry;             /* sdk_symmetry */
    bool has_givens;
    uint8_t givens[81]; /* nonzero: a clue cell (the clue pattern) */
    int nneeds;
    const char *needs[SDK_GEN_MAX_NEEDS]; /* technique ids the path must use */
    const char *hardest;                  /* id of the hardest step, or NULL */
    bool pattern;                         /* needs[] come right after simple steps: ssts, X, ssts */
} sdk_gen_target;

typedef struct sdk_gen_opts {
    uint64_t seed, index;
    const sdk_profile *profile;       /* rates the puzzle (ER/EP/ED, path) */
    const sdk_profile *level_profile; /* judges `level` (NULL: profile) */
    const sdk_observer *observer;     /* told about every find the runs make (NULL: none) */
    bool unique_ok;                   /* uniqueness techniques allowed (config) */
    long max_tries;                   /* candidates to rate at most (0: 1e9) */
    double max_seconds;               /* time budget (0: none) */
} sdk_gen_opts;

typedef struct sdk_gen_result {
    uint8_t puzzle[81], solution[81];
    int clues;
    sdk_rating rating;       /* from profile: what `rate` answers */
    sdk_rating level_rating; /* from level_profile when a level was asked */
    long built;              /* candidate puzzles made */
    long rated;              /* candidate puzzles rated */
    double seconds;          /* CPU seconds spent */
} sdk_gen_result;

/* Check a target (ranges, clue counts against the symmetry and the givens).
 * False with a bad-request error saying what and why. */
bool sdk_gen_check(const sdk_gen_target *t, sdk_error *err);

/* Make puzzle `o->index` of `o->seed` meeting t. False with err set
 * (code "not-found") when the budget ran out first; res->built/rated then say
 * how much was tried. */
bool sdk_generate(const sdk_gen_target *t, const sdk_gen_opts *o, sdk_gen_result *res,
                  sdk_error *err);

/* Is this 81-value puzzle symmetric under sym? */
bool sdk_gen_is_symmetric(const uint8_t v[81], int sym);

#ifdef __cplusplus
}
#endif
#endif
