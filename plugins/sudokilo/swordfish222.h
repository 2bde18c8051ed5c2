/* swordfish222.h - sudokilo steps 16/17 (swordfish222.c). */
#ifndef SUDOKILO_SWORDFISH222_H
#define SUDOKILO_SWORDFISH222_H
#include "sudoku/technique.h"
/* The technique's find: its descriptor is ctx->self. */
int sudokilo_find_swordfish222(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
#endif
