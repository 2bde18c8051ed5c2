/* walk.h - the soundness walk shared by the per-family unit tests.
 *
 * Puzzles of a data file are walked towards their solution; at every position
 * reached, each technique under test is asked for ALL its steps, and every
 * step is checked against the brute-force solution (sdk_solve): no eliminated
 * candidate may be the solution digit, no placement may differ from it. How
 * the walk moves on (a simple reducer before each position, which step is
 * applied, what to do when nothing is found) is chosen per test, so each keeps
 * the sample it always had. Counts are returned per technique and in total.
 *
 * walk_profile() walks the positions an engine profile reaches instead: every
 * applied step is checked, and a hook may check more on the grid before it. */
#ifndef SUDOKU_WALK_H
#define SUDOKU_WALK_H

#include "testutil.h"

/* Count what step s gets wrong against the solution sol (81 digits): each
 * eliminated solution digit and each wrong placement, printed with who. */
int walk_check_step(const sdk_step *s, const uint8_t *sol, const char *who);

/* Simple reducers. walk_single: one naked single (first cell), else one
 * hidden single (houses in order); true when one was placed. walk_basic:
 * naked and hidden singles and locked candidates (pointing, claiming) until
 * none applies; false when the grid broke (a cell without a candidate). */
bool walk_single(sdk_grid *g);
bool walk_basic(sdk_grid *g);

/* The start of a hard-path walk: g from the puzzle's values, its solution
 * into sol (81 digits), then walk_basic. False when the puzzle has no
 * single solution or walk_basic breaks the grid. */
bool walk_hard_start(sdk_grid *g, const uint8_t *values, uint8_t *sol);

/* Random wrong candidates gone: `tries` times a cell drawn by *seed (an LCG
 * step each), when empty, loses its first candidate that is not sol's
 * digit. Tests that follow hard paths use it to reach new positions. */
void walk_drop_wrong(sdk_grid *g, const uint8_t *sol, int tries, uint32_t *seed);

/* How a hard path moves on from a position (walk_hard_rounds). A round drops
 * wrong candidates with walk_drop_wrong: tries_min tries or, when tries_max is
 * larger, a number in [tries_min, tries_max] drawn from the walk's seed (one
 * LCG step) first. */
typedef struct walk_hard_pace {
    int rounds;               /* positions a puzzle at most */
    int tries_min, tries_max; /* walk_drop_wrong tries a round */
    int basic_every;          /* walk_basic after every Nth round only (0 or 1: each) */
} walk_hard_pace;

/* A hard path through each of the puzzles values[0..n): from
 * walk_hard_start, up to pace->rounds times while a cell is empty, a few wrong
 * candidates dropped (walk_drop_wrong), visit(before, after, ctx), then
 * walk_basic at the rounds pace->basic_every says (the next puzzle when it
 * breaks the grid). Each position (`before`) descends from the last one of
 * its puzzle. False when a puzzle does not start (no single solution). */
typedef void (*walk_visit_fn)(const sdk_grid *before, const sdk_grid *after, void *ctx);
bool walk_hard_rounds(const uint8_t (*values)[81], int n, const walk_hard_pace *pace,
                      uint32_t *seed, walk_visit_fn visit, void *ctx);

/* walk_hard_rounds on the first npuz puzzles of forum_hardest_1106.txt (every
 * third), seed 1106, 8 rounds of 3 tries: the positions the memo and cut
 * tests of the misc plugin check. -1 when the file cannot be read (the test
 * skips), 0 when a puzzle does not start, else 1. */
int walk_hardest_1106(int npuz, walk_visit_fn visit, void *ctx);

typedef enum walk_reduce {
    WALK_REDUCE_NONE = 0,
    WALK_REDUCE_SINGLES, /* naked and hidden singles until none */
    WALK_REDUCE_BASIC,   /* walk_basic */
} walk_reduce;

/* What is applied in preference to the step the techniques found. */
typedef enum walk_prefer {
    WALK_PREFER_NONE = 0,
    WALK_PREFER_SINGLE,  /* walk_single */
    WALK_PREFER_PLUGINS, /* the first step of the singles, intersections and
                            subsets plugins' techniques, in that order */
} walk_prefer;

/* What happens when neither a preferred step nor a found step applies. */
typedef enum walk_stuck {
    WALK_STUCK_STOP = 0,     /* next puzzle */
    WALK_STUCK_PLACE_FEWEST, /* place the solution digit of the (first) cell with
                                fewest candidates */
    WALK_STUCK_PLACE_MOST,   /* ... with most candidates */
    WALK_STUCK_PLACE_FIRST,  /* ... of the first empty cell */
    WALK_STUCK_ELIM_RANDOM,  /* remove a false candidate chosen by a fixed
                                pseudo-random sequence per puzzle */
} walk_stuck;

/* When a technique runs. */
typedef enum walk_when {
    WALK_ALWAYS = 0,
    WALK_EVEN_ITER, /* only at a puzzle's even-numbered positions (0, 2, ...) */
    WALK_ODD_ITER,
} walk_when;

/* A technique under test, with its counters (added to by each walk). */
typedef struct walk_tech {
    const char *plugin, *id, *opts;
    int every; /* > 1: only at positions whose running number (walk_result
                  positions, 1-based) is a multiple of it */
    walk_when when;
    long calls; /* positions it ran at */
    long found; /* positions where it found a step */
    long steps, elims, wrong;
    double ms; /* time in find() */
} walk_tech;

#define WALK_TECH(plugin_, id_, opts_)                                                             \
    {                                                                                              \
        .plugin = (plugin_), .id = (id_), .opts = (opts_)                                          \
    }

typedef struct walk_spec {
    const char *file; /* data file (tu_read_puzzles) */
    int npuz, stride;
    int max_iter; /* positions per puzzle at most (0: until solved) */
    walk_reduce reduce;
    walk_prefer prefer;
    bool at_once; /* move on right after the first technique that finds a
                     step (the techniques after it see the new grid) */
    walk_stuck stuck;
    walk_tech *tech;
    int ntech;
    /* Called for every step found, after the solution check (may be NULL). */
    void (*on_step)(void *ctx, walk_tech *t, const sdk_step *s, const uint8_t *sol);
    void *ctx;
} walk_spec;

typedef struct walk_result {
    long puzzles;   /* read */
    long unique;    /* with one solution: walked */
    long positions; /* positions where the techniques ran */
    long steps, elims, wrong;
} walk_result;

/* Walk the puzzles of w; adds to *res and to the techniques' counters, so
 * several walks can be summed. Returns the violations of this walk. */
long walk_run(const walk_spec *w, walk_result *res);

/* The sample the wings, misc and uniqueness tests walk: 300 puzzles of
 * top1465, 300 of unbiased_1k and 100 of forum_hardest_1106, moving on by the
 * first step of the basic plugins, else the first step found, else the
 * solution digit of the cell with fewest candidates. file_opts (NULL, or one
 * entry a file, NULL entries keep them) replaces every technique's options for
 * that file. Prints the counts (walk_print); returns the violations. */
long walk_standard(walk_tech *t, int ntech, const char *const *file_opts, walk_result *res);

/* The walk of the single-digit, coloring, templates and sudokilo tests: one
 * single when there is one, else the first step found (at once, so the
 * techniques after it see the new grid), else the solution digit of the first
 * empty cell; at most 400 positions a puzzle. Returns the violations. */
long walk_singles_first(walk_tech *t, int ntech, const char *file, int npuz, int stride,
                        walk_result *res);

/* Print "  soundness: N positions, N steps checked, N violations" and the
 * steps of each technique. */
void walk_print(const walk_result *res, const walk_tech *t, int ntech);

/* Profile walk: run p (no guessing, unique) on every puzzle of file; every
 * applied step is checked against the solution, and a solved end grid must
 * be the solution. hook (may be NULL) sees each step with the grid before it
 * and its number in the puzzle's path (1-based). Adds to *res (positions:
 * steps applied) and to *solved (may be NULL); returns the violations. */
typedef void (*walk_hook)(void *ctx, const sdk_step *s, const sdk_grid *before, const uint8_t *sol,
                          int nstep);
long walk_profile(const sdk_profile *p, const char *file, int npuz, int stride, walk_hook hook,
                  void *ctx, walk_result *res, long *solved);

#endif
