/* dyn_memo.h - what the dynamic search from each premise found, kept per
 * thread from one position to the next (dyn_memo.c). Not installed. */
#ifndef FORCING_DYN_MEMO_H
#define FORCING_DYN_MEMO_H

#include "sudoku/links.h"
#include "forcing_private.h"

enum { DYN_UNKNOWN = 0, DYN_OPEN, DYN_BROKEN }; /* dyn_memo.state */

/* One memo: the position its entries hold for (candidates, as cell masks
 * and digit bitboards) and the search flags; per premise (literal) its
 * state, the literals it derives (on, off: when DYN_OPEN) and, per digit,
 * the cells whose candidate of that digit the search read (read[p][d]). */
typedef struct dyn_memo {
    bool used;
    unsigned flags;
    uint16_t cand[SDK_CELLS];
    sdk_bb digit[9];
    uint8_t state[2 * SDK_NCAND];
    cset on[2 * SDK_NCAND], off[2 * SDK_NCAND];
    sdk_bb read[2 * SDK_NCAND][9];
    long kept, searched; /* entries carried over to a new position; searches run */
    long borrowed;       /* of the kept: taken from the other slot's memo */
    long trimmed;        /* of the kept: without candidates removed since (dyn_memo.c) */
} dyn_memo;

/* The memo of slot `slot` (0 or 1: a caller keeps apart grids that do not
 * follow each other, such as nested propagations) made to hold for g and
 * flags: entries whose search read a candidate that differs between g and
 * the memo's last position are dropped, the others kept. Slot 1 takes its
 * entries from slot 0's memo instead when that one's position is nearer to
 * g (a nested propagation's first grids follow the main path's position). */
dyn_memo *dyn_memo_for(const sdk_grid *g, unsigned flags, int slot);
/* Search premise p on g (the memo's position) unless the memo has it; d is
 * a work area: true when it holds p's search (sdk_dyn_run) now. With plain
 * links (flags 0) the memo's own closure search runs instead (dyn_memo.c),
 * and d is left as it was. */
bool dyn_memo_fill(dyn_memo *m, const sdk_grid *g, int p, sdk_dyn *d);
/* Premise p's entry is premise q's (the two imply each other on g, the
 * memo's position; q's entry is filled). */
void dyn_memo_share(dyn_memo *m, int p, int q);
/* The candidate strongly linked to candidate k in the link model (links.c):
 * the other digit of a bivalue cell, else the other place of k's digit in
 * the first house holding it twice; -1 when there is none. "k false" and
 * this partner true imply each other, so they may share an entry. */
int dyn_strong_partner(const sdk_grid *g, int k);

#endif
