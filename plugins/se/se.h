/* se.h - shared declarations of the Sudoku Explainer plugin. */
#ifndef SE_PLUGIN_H
#define SE_PLUGIN_H
#include "sudoku/links_se.h"
#include "sudoku/technique.h"

extern const sdk_technique se_direct_pointing, se_direct_claiming, se_direct_hidden_pair,
    se_direct_hidden_triple;
#endif
