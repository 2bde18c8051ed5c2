/* testutil.h - helpers shared by the tests: where the data and the build are,
 * reading a puzzle file, loading the build tree's config, loading a plugin's
 * techniques and collecting every step a technique finds. */
#ifndef SUDOKU_TESTUTIL_H
#define SUDOKU_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "sudoku/host.h"

/* $SUDOKU_DATA/name (the shared data folder). */
const char *tu_data_path(const char *name);
/* $SUDOKU_REGLIB/name. */
const char *tu_reglib_path(const char *name);
/* A file of the source tree: $SUDOKU_SOURCE/name, else ./name. */
const char *tu_source_path(const char *name);
/* Read up to max puzzles (81-char lines) of a data file, every `stride`-th.
 * Returns the count; *out is malloc'd, 81 values per puzzle. */
int tu_read_puzzles(const char *name, int max, int stride, uint8_t (**out)[81]);
/* Load the build tree's default config (fails the test on error). */
void tu_load_config(sdk_config *cfg);

/* The techniques of plugin `name` ("wings": $SUDOKU_BUILD/lib/sudokud/plugins/
 * wings.so), NULL-terminated; the plugin stays open. NULL when it cannot be
 * loaded. */
const sdk_technique *const *tu_plugin(const char *name);
/* Serve `name` from a technique list compiled into the test instead of the
 * plugin file (for tests that build a plugin's source in). */
void tu_plugin_register(const char *name, const sdk_technique *const *list);
/* Technique `id` of plugin `name`; fails the test when there is none. */
const sdk_technique *tu_tech(const char *plugin, const char *id);

/* Steps a technique emitted, in order. */
typedef struct tu_steps {
    sdk_step *s;
    int n, cap;
    int limit; /* stop the search after this many steps (0: every step) */
} tu_steps;

/* Run t on g with options text opts (NULL or "" for none; must parse) in a
 * context with unique=true; out->n is reset first. Returns what find()
 * returned (SDK_STOP when limit cut the search). */
int tu_find_all(const sdk_technique *t, const char *opts, const sdk_grid *g, tu_steps *out);
/* The sink function tu_find_all collects with (ctx: a tu_steps), for tests
 * that call a plugin's search directly. */
int tu_collect(void *ctx, const sdk_step *s);
void tu_steps_free(tu_steps *st);

#endif
