/* service_generate.h - the `generate` method inside the request service
 * (lib/service.c): decode its params, count its items, pack one item; and
 * the one rating packer both files use. */
#ifndef SUDOKU_SERVICE_GENERATE_H
#define SUDOKU_SERVICE_GENERATE_H

#include "sudoku/generate.h"
#include "sudoku/host.h"
#include "sudoku/wire.h"

typedef struct sdk_gen_request sdk_gen_request;

/* Is k one of generate's own parameter names? */
bool sdk_gen_known_key(const msgpack_object *k);

/* Decode a generate request's params. profile rates the puzzles; observer
 * (the service's probe, NULL: none) watches the runs. NULL with
 * err set when the params are unusable. */
sdk_gen_request *sdk_gen_request_parse(const sdk_config *cfg, const sdk_observer *observer,
                                       const sdk_profile *profile, const msgpack_object *params,
                                       sdk_error *err);
int sdk_gen_request_count(const sdk_gen_request *g);
/* Make and pack item i: {index, puzzle, solution, clues, symmetry, er, ep, ed,
 * level, score, hardest, steps, level_profile, built, rated, seconds}, or
 * {index, built, rated, error} when the budget ran out. */
void sdk_gen_request_item(const sdk_gen_request *g, int i, msgpack_packer *pk);
void sdk_gen_request_free(sdk_gen_request *g);

/* A rating's six keys, from lib/service.c (rate, explain and generate):
 * er, ep, ed from r; level and score from lv (r itself, or generate's rating
 * in a second profile when a level was asked); hardest from r. */
void sdk_service_pack_rating(msgpack_packer *pk, const sdk_rating *r, const sdk_rating *lv);

#endif
