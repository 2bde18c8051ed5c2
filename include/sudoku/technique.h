/* sudoku/technique.h - the technique (plugin) ABI, version 2.
 *
 * A plugin is a shared object exporting one symbol, SDK_PLUGIN_SYMBOL
 * ("sudoku_techniques"): a function returning a NULL-terminated array of
 * technique descriptors. A family (fish, wings, chains) exports several
 * techniques from one .so and usually one find() for all of them: each
 * descriptor's `data` points at that technique's parameters, and find() reads
 * them from its own descriptor, ctx->self:
 *
 *     typedef struct fish_kind { int size; } fish_kind;
 *     static int find_fish(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
 *     {
 *         const fish_kind *k = ctx->self->data;
 *         ...
 *     }
 *     static const fish_kind two = {2}, three = {3};
 *     static const sdk_technique x_wing = {
 *         .abi = SDK_ABI_VERSION, .size = sizeof(sdk_technique),
 *         .id = "x-wing", .name = "X-Wing", .difficulty = 32, .score = 140,
 *         .level = SDK_LEVEL_HARD, .find = find_fish, .data = &two,
 *     ,};
 *     static const sdk_technique swordfish = { ... .find = find_fish, .data = &three ,};
 *     SDK_PLUGIN(&x_wing, &swordfish)
 *
 * docs/PLUGINS.md is the tutorial; examples/ holds a plugin built out of tree.
 *
 * The contract of find()
 *
 *   find(ctx, g, sink) looks for the technique in g and hands every step it
 *   finds to the sink (sdk_emit). It is pure: g is read-only, no globals
 *   (but per-thread caches that change no answer, sudoku/cache.h), no
 *   I/O, reentrant (a daemon runs it in several processes, tests in several
 *   threads, and forcing techniques call it nested through ctx->propagate).
 *   It keeps emitting until the sink answers SDK_STOP, then returns SDK_STOP
 *   at once. When it has searched everything it returns SDK_CONTINUE (0),
 *   whether it found steps or none: "nothing found" is not an error, the
 *   engine counts what reached the sink.
 *
 * Ownership and lifetime
 *
 *   - Descriptors, and what their `id`, `name`, `summary` and `data` point
 *     at, are owned by the plugin and must live as long as the .so is loaded
 *     (static const storage). The host never writes to them.
 *   - ctx, ctx->opts, g and sink are owned by the host and valid only during
 *     the find() call: copy what you need, keep no pointer to them.
 *   - The step passed to sdk_emit()/sink->emit() is owned by its caller and
 *     lives only during the call: a sink that keeps a step copies it (the
 *     struct is flat: no pointers inside but `tech`, which points at a
 *     descriptor). find() may reuse or free its step as soon as emit returns.
 *   - The grid handed to ctx->propagate is the caller's (a copy it made); the
 *     engine changes it in place and keeps nothing.
 *   - Scratch steps (sdk_scratch_step) are owned by the host: find() builds
 *     its steps in them, never frees them and keeps no pointer to them
 *     after it returns (below).
 *
 * Versions
 *
 *   SDK_ABI_VERSION is bumped on any change to the layout (or the meaning of
 *   a field) of a struct a plugin shares with the host: sdk_technique,
 *   sdk_ctx, sdk_options, sdk_prop_result, sdk_sink, sdk_step and its parts,
 *   sdk_grid, and the pattern helpers' structs (als.h, fish.h, links.h,
 *   strong.h). The loader refuses a plugin whose descriptors carry another
 *   version, naming the file, its ABI and ours. Within one version,
 *   sdk_technique.size is a second guard: the host refuses a descriptor
 *   smaller than the sdk_technique it was built with (a plugin built from a
 *   stale or hand-made header) and accepts a larger one (it reads only the
 *   fields it knows).
 *
 *   Adding a function to the SDK changes no layout and keeps the version: a
 *   plugin that calls it needs a libsudoku that has it (the dynamic linker
 *   names the missing symbol), and older plugins load as before.
 *
 *   History: 1 - first release. 2 - sdk_technique.size and .data, ctx->self,
 *   sdk_fish_search.only_kind (fish.h). 3 - a nested step carries the inner
 *   steps behind its contradiction (sdk_step.inner, .claim, .inner_text: the
 *   step is flat, so sinks that copy it keep them) and ctx->propagate_steps
 *   reports the steps it applies. A new field of sdk_step could not be added
 *   without a new layout: sinks copy steps by value. Within 3, with no
 *   layout change: sdk_scratch_step(), the cache registry (sudoku/cache.h:
 *   a cache kept between finds registers a function that frees it, which
 *   the host calls between requests).
 */
#ifndef SUDOKU_TECHNIQUE_H
#define SUDOKU_TECHNIQUE_H

#include "sudoku/grid.h"
#include "sudoku/step.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SDK_ABI_VERSION 3u
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

typedef struct sdk_technique sdk_technique;
typedef struct sdk_ctx sdk_ctx;

/* What the host tells find(): valid only during the call. */
struct sdk_ctx {
    const sdk_technique *self; /* the descriptor find() runs for (read self->data) */
    const sdk_options *opts;   /* this technique's options (never NULL) */
    bool unique;               /* the puzzle is known to have exactly one solution */
    /* Engine services for techniques flagged SDK_TF_USES_ENGINE: apply the
     * techniques configured before this one (singles first) to g until nothing
     * more is found, the grid is solved or it breaks; max_steps bounds the work
     * (0: no bound). */
    sdk_prop (*propagate)(const sdk_ctx *ctx, sdk_grid *g, int max_steps, sdk_prop_result *res);
    const void *engine; /* opaque, for propagate */
    int position;       /* this technique's index in the engine's order */
    int depth;          /* nesting depth of propagate calls */
    /* propagate that also sends every step it applies to `applied`, in
     * order, before applying it (the sink's SDK_STOP ends the propagation):
     * what a nested step shows its reader (ABI 3; NULL from a host without) */
    sdk_prop (*propagate_steps)(const sdk_ctx *ctx, sdk_grid *g, int max_steps,
                                sdk_prop_result *res, sdk_sink *applied);
};

typedef int (*sdk_find_fn)(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);

/* A technique descriptor: static const storage in the plugin. */
struct sdk_technique {
    uint32_t abi;     /* SDK_ABI_VERSION */
    uint32_t size;    /* sizeof(sdk_technique) as the plugin was built */
    const char *id;   /* stable kebab-case id: "x-wing" */
    const char *name; /* display name: "X-Wing" */
    int difficulty;   /* default, Sudoku Explainer scale in tenths (32 = 3.2) */
    int score;        /* HoDoKu-style score per use */
    int level;        /* sdk_level */
    unsigned flags;   /* SDK_TF_* */
    sdk_find_fn find;
    const char *summary; /* one line for `sudoctl techniques` */
    const void *data;    /* the technique's own parameters, for find (NULL: none) */
};

typedef const sdk_technique *const *(*sdk_plugin_fn)(void);

#define SDK_PLUGIN(...)                                                                            \
    __attribute__((visibility("default"))) const sdk_technique *const *sudoku_techniques(void)     \
    {                                                                                              \
        static const sdk_technique *const list[] = {__VA_ARGS__, NULL};                            \
        return list;                                                                               \
    }

/* Scratch steps: a step (some 12 KiB) for find() to build in, owned by the
 * host, so that no find() keeps one on its stack (nested propagate calls
 * stack finds inside finds) or allocates one per call.
 *
 *   sdk_step *s = sdk_scratch_step(ctx, 0);
 *   sdk_step_init(s, ctx->self);
 *   ...
 *   if (sdk_emit(sink, s) == SDK_STOP) return SDK_STOP;
 *
 * - The step lives until this find() call returns: the same (ctx, k) gives
 *   the same step all through the call (also after sdk_emit and after
 *   ctx->propagate), and its content is whatever was left in it: call
 *   sdk_step_init() before filling it. The host owns it; never free it.
 * - k = 0 .. SDK_SCRATCH_STEPS - 1 gives that many distinct steps, for a
 *   find() that builds several at once (a step and an adjusted copy of
 *   another); any other k aborts with a message.
 * - Re-entrant: the finds that ctx->propagate runs (ctx->depth + 1) get
 *   steps of their own, so a caller's steps survive propagate; a copy of ctx
 *   (with a lower position) gives the same steps as ctx. Steps are per thread.
 * - The host's side of the contract: a host that runs find() itself (not
 *   through the engine) starts no second find() at the same ctx->depth on
 *   the same thread while one runs (from inside a sink, say): the two would
 *   share their steps. */
#define SDK_SCRATCH_STEPS 4
SDK_API sdk_step *sdk_scratch_step(const sdk_ctx *ctx, int k);

/* Option lookup: the value of key, or NULL / def when absent. */
SDK_API const char *sdk_opt(const sdk_ctx *ctx, const char *key);
SDK_API int sdk_opt_int(const sdk_ctx *ctx, const char *key, int def);
SDK_API bool sdk_opt_bool(const sdk_ctx *ctx, const char *key, bool def);

#ifdef __cplusplus
}
#endif
#endif
