/* grid_text.h - the candidate grid in the terminal, with a step's pattern
 * coloured by role (grid_text.c). */
#ifndef SUDOCTL_GRID_TEXT_H
#define SUDOCTL_GRID_TEXT_H

#include <stdbool.h>
#include <stdio.h>
#include <msgpack.h>

#include "sudoku/grid.h"

#include "color.h" /* COLOR_AUTO / ALWAYS / NEVER */

/* --color=auto: a terminal, NO_COLOR unset, TERM not "dumb". */
bool grid_colour_wanted(int mode, FILE *out);

/* The grid g with step (may be NULL) drawn on it, then a legend line. */
void grid_text_draw(FILE *f, const sdk_grid *g, const msgpack_object *step, bool colour);

#endif
