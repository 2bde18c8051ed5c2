/* sudoku/engine.h - ordered techniques, the seed rule, rating.
 *
 * A profile is an ordered list of techniques with their options and
 * difficulties. The engine applies the seed rule of the sudokilo program: try
 * the techniques in order; as soon as one yields a step, apply it and start
 * again from the first; when none yields, the last-resort technique (if any and
 * allowed) may act, else stop and report "stuck" with the grid reached.
 */
#ifndef SUDOKU_ENGINE_H
#define SUDOKU_ENGINE_H

#include "sudoku/technique.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A profile's entry. Small: a config holds hundreds (every profile lists
 * its techniques), and each worker loads the config, so the options (2 KiB
 * when present, absent from most entries, shared by the entries of a
 * profile that have the same) and the source path live apart. */
typedef struct sdk_entry {
    const sdk_technique *tech;
    const sdk_options *opts; /* never NULL: an empty set when it has none */
    bool own_opts;           /* opts is this entry's (else another's or the empty set) */
    int difficulty;          /* effective default (config override or descriptor) */
    char *source;            /* the .so it came from */
    int pick;                /* SDK_PICK_*: which of the steps found is taken (option pick=) */
    char group[24];          /* option group=: neighbours with one group are searched as one */
    int scan;                /* SDK_SCAN_*: option scan= (SDK_SCAN_DEFAULT: the profile's) */
} sdk_entry;

/* How much one step of a technique does before the engine starts again from
 * the first technique (profile line `scan = step|grid`, entry option
 * scan=step|grid overriding it for one technique). step: the first instance
 * found (the default). grid: every instance the technique finds in the
 * position, applied one after the other (an instance that an earlier one made
 * empty is skipped, one that it made partly redundant keeps the rest): the
 * sudokilo seed's loop, where a step scans the whole grid before going back to
 * rule 1. Only at the top level; last-resort techniques always take one. */
enum { SDK_SCAN_DEFAULT = 0, SDK_SCAN_STEP, SDK_SCAN_GRID };

/* Which step of a technique the engine takes (entry option pick=...):
 * first found (default); HoDoKu's best (most eliminations, smallest index
 * sum, shortest chain); the easiest (lowest difficulty, then entry order, as
 * SE sorts its unique loops); the lowest digit, then first found (HoDoKu's
 * fish search, digit by digit); HoDoKu's best as it sorts forcing chains and
 * nets (eliminations compared candidate by candidate); the first of HoDoKu's
 * naked / hidden single queue. */
enum {
    SDK_PICK_FIRST = 0,
    SDK_PICK_BEST,
    SDK_PICK_EASIEST,
    SDK_PICK_DIGIT,
    SDK_PICK_TABLING,  /* pick=best as HoDoKu sorts its forcing chains and nets */
    SDK_PICK_NS_QUEUE, /* the queue picks last: the engine keeps queues for them */
    SDK_PICK_HS_QUEUE
};

typedef struct sdk_profile {
    char name[48];
    int n, cap;
    sdk_entry *entry;
    bool no_uniqueness; /* uniqueness techniques never act (config: uniqueness = off) */
    int scan;           /* SDK_SCAN_*: the profile's `scan =` (DEFAULT: step) */
} sdk_profile;

/* "step" / "grid" -> SDK_SCAN_*, anything else -1. */
int sdk_scan_parse(const char *text);
/* A pick= value's SDK_PICK_*, or -1 when it names none. */
int sdk_pick_parse(const char *text);

/* Append a technique (opts may be NULL; difficulty < 0 keeps the default). */
void sdk_profile_add(sdk_profile *p, const sdk_technique *t, const sdk_options *opts,
                     int difficulty, const char *source);
void sdk_profile_free(sdk_profile *p);
int sdk_profile_find(const sdk_profile *p, const char *id); /* index or -1 */

/* An observer of the engine's work: told before and after every find() the
 * engine runs, the ones nested in ctx->propagate included, with the entry's
 * index in the profile and the nesting depth (0: the top level). `outer` is
 * the entry whose find() is still running around this one (-1: none), so
 * that an observer can say "entry i runs" on enter and "outer runs again" on
 * leave without keeping a stack. sudokud's probe (which technique a worker
 * is in, to blame a crash or a hang) and bench_rate's per-technique timing
 * are observers. Both callbacks may be NULL. */
typedef struct sdk_observer {
    void (*enter)(void *arg, const sdk_profile *p, int entry, int depth);
    void (*leave)(void *arg, const sdk_profile *p, int entry, int depth, int outer);
    void *arg;
} sdk_observer;

typedef struct sdk_run_opts {
    bool no_guess;           /* never use last-resort techniques */
    bool unique;             /* puzzle known to have one solution (uniqueness techniques allowed) */
    int max_steps;           /* 0: no limit */
    const char *const *only; /* hint: restrict to these ids (NULL: all) */
    int nonly;
    const sdk_observer *observer; /* NULL: none */
} sdk_run_opts;

typedef enum sdk_run_status {
    SDK_RUN_SOLVED = 0,
    SDK_RUN_STUCK,  /* no technique applies */
    SDK_RUN_BROKEN, /* the grid became impossible (bad candidate grid input) */
    SDK_RUN_LIMIT,  /* max_steps reached */
} sdk_run_status;

typedef struct sdk_rating {
    int er, ep, ed; /* tenths; ER hardest, EP up to first placement, ED up to first step */
    int score;      /* HoDoKu-style score: sum of step scores */
    int level;      /* HoDoKu's rule: sdk_level of the hardest technique used,
                     * promoted by score; stuck: Extreme */
    const sdk_technique *hardest;
    int steps;
    int status; /* sdk_run_status */
    /* the techniques that set ep (the hardest up to the first placement) and ed
     * (the first step) */
    const sdk_technique *pearl, *diamond;
} sdk_rating;

/* Called for every applied step with the grid before it; return nonzero to stop. */
typedef int (*sdk_step_fn)(void *ctx, const sdk_step *s, const sdk_grid *before);

/* Run the profile on g until solved or stuck; g ends as the grid reached. */
sdk_run_status sdk_engine_run(const sdk_profile *p, sdk_grid *g, const sdk_run_opts *o,
                              sdk_step_fn on_step, void *ctx, sdk_rating *rating);

/* Find the next step from g (first technique in order that yields), or with
 * all=true every step of every (allowed) technique in g. Returns the number of
 * steps sent to the sink. */
int sdk_engine_hint(const sdk_profile *p, const sdk_grid *g, const sdk_run_opts *o, bool all,
                    sdk_sink *sink);

/* Run one technique of p (index i) on g; the context is set up as the engine
 * does it. Used by hint, tests and the reglib runner. */
int sdk_engine_find(const sdk_profile *p, int i, const sdk_grid *g, const sdk_run_opts *o,
                    sdk_sink *sink);

const char *sdk_level_name(int level);
const char *sdk_run_status_name(int status);

/* The difficulty "3.2" from tenths: writes into buf (>= 8). */
const char *sdk_difficulty_text(int tenths, char *buf);

#ifdef __cplusplus
}
#endif
#endif
