/* sudoku/technique.h - the technique (plugin) ABI.
 *
 * A plugin .so exports one symbol, SDK_PLUGIN_SYMBOL, a function returning a
 * NULL-terminated array of const technique descriptors. A family (fish, wings,
 * chains) may export several techniques from one .so:
 *
 *     static const sdk_technique x_wing = {
 *         .abi = SDK_ABI_VERSION, .id = "x-wing", .name = "X-Wing",
 *         .difficulty = 32, .score = 140, .level = SDK_LEVEL_HARD,
 *         .find = find_x_wing,
 *     };
 *     SDK_PLUGIN(&x_wing, &swordfish, &jellyfish)
 *
 * find() is pure: read-only grid in, steps out through the sink; no globals,
 * no I/O, reentrant. It keeps emitting until the sink answers SDK_STOP, then
 * returns SDK_STOP at once. Options come from the config through the context.
 */
#ifndef SUDOKU_TECHNIQUE_H
#define SUDOKU_TECHNIQUE_H

#include "sudoku/grid.h"
#include "sudoku/step.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SDK_ABI_VERSION 1u
#define SDK_PLUGIN_SYMBOL "sudoku_techniques"

/* HoDoKu's levels. */
typedef enum sdk_level {
    SDK_LEVEL_NONE = 0,
    SDK_LEVEL_EASY,
    SDK_LEVEL_MEDIUM,
    SDK_LEVEL_HARD,
    SDK_LEVEL_UNFAIR,
    SDK_LEVEL_EXTREME,
} sdk_level;

/* Technique flags. */
#define SDK_TF_UNIQUENESS 0x1u  /* sound only when the puzzle has one solution */
#define SDK_TF_LAST_RESORT 0x2u /* trial and error: runs only when all else fails */
#define SDK_TF_USES_ENGINE 0x4u /* calls ctx->propagate (forcing, bifurcation) */

/* Per-technique options from the config: `x-wing = max-size=4 difficulty=3.2`. */
#define SDK_MAX_OPTIONS 16
typedef struct sdk_options {
    int n;
    struct {
        char key[32];
        char val[96];
    } kv[SDK_MAX_OPTIONS];
} sdk_options;

/* Result of propagating an assumption with the configured techniques. */
typedef enum sdk_prop {
    SDK_PROP_STUCK = 0,     /* no contradiction, not solved */
    SDK_PROP_SOLVED,        /* the grid got solved */
    SDK_PROP_CONTRADICTION, /* the grid became impossible: see why */
} sdk_prop;

typedef struct sdk_prop_result {
    sdk_prop outcome;
    int steps;     /* steps applied */
    char why[256]; /* for a contradiction: what broke, in words */
} sdk_prop_result;

typedef struct sdk_ctx sdk_ctx;
struct sdk_ctx {
    const sdk_options *opts; /* this technique's options (never NULL) */
    bool unique;             /* the puzzle is known to have exactly one solution */
    /* Engine services for techniques flagged SDK_TF_USES_ENGINE: apply the
     * techniques configured before this one (singles first) to g until nothing
     * more is found, the grid is solved or it breaks; max_steps bounds the work
     * (0: no bound). */
    sdk_prop (*propagate)(const sdk_ctx *ctx, sdk_grid *g, int max_steps, sdk_prop_result *res);
    const void *engine; /* opaque, for propagate */
    int position;       /* this technique's index in the engine's order */
    int depth;          /* nesting depth of propagate calls */
};

typedef int (*sdk_find_fn)(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);

typedef struct sdk_technique {
    uint32_t abi;            /* SDK_ABI_VERSION */
    const char *id;          /* stable kebab-case id: "x-wing" */
    const char *name;        /* display name: "X-Wing" */
    int difficulty;          /* default, Sudoku Explainer scale in tenths (32 = 3.2) */
    int score;               /* HoDoKu-style score per use */
    int level;               /* sdk_level */
    unsigned flags;          /* SDK_TF_* */
    sdk_find_fn find;
    const char *summary;     /* one line for `sudoctl techniques` */
} sdk_technique;

typedef const sdk_technique *const *(*sdk_plugin_fn)(void);

#define SDK_PLUGIN(...)                                                                            \
    __attribute__((visibility("default"))) const sdk_technique *const *sudoku_techniques(void)     \
    {                                                                                              \
        static const sdk_technique *const list[] = {__VA_ARGS__, NULL};                             \
        return list;                                                                               \
    }

/* Option lookup: the value of key, or NULL / def when absent. */
const char *sdk_opt(const sdk_ctx *ctx, const char *key);
int sdk_opt_int(const sdk_ctx *ctx, const char *key, int def);
bool sdk_opt_bool(const sdk_ctx *ctx, const char *key, bool def);

#ifdef __cplusplus
}
#endif
#endif
