/* forcing_private.h - what the forcing plugin's files share (forcing.c: the
 * forcing chains and nets; kraken.c: kraken fish). Not installed.
 *
 * Static forcing chains work on tables: for every premise (a candidate
 * assumed true, or false) the set of candidates its chains make true and the
 * set they make false, both as bit sets over the 729 candidates (cset). A
 * conclusion is drawn when the tables of premises of which one must hold
 * (the candidates of a cell, the places of a digit in a house, a fish or its
 * fins) agree on a candidate; `seen` keeps each conclusion to one step, and
 * forcing_add_chain() writes the chain from a premise to the conclusion into
 * the step (links for the explainer, Eureka text for the reader). */
#ifndef FORCING_PRIVATE_H
#define FORCING_PRIVATE_H

#include "sudoku/links.h"
#include "sudoku/technique.h"

/* A set of candidates (cell * 9 + digit - 1), 729 bits. */
typedef struct cset {
    uint64_t w[12];
} cset;

static inline void cs_add(cset *s, int k)
{
    s->w[k >> 6] |= 1ULL << (k & 63);
}
static inline void cs_del(cset *s, int k)
{
    s->w[k >> 6] &= ~(1ULL << (k & 63));
}
static inline bool cs_has(const cset *s, int k)
{
    return s->w[k >> 6] >> (k & 63) & 1;
}
static inline void cs_and(cset *a, const cset *b)
{
    for (int i = 0; i < 12; i++) a->w[i] &= b->w[i];
}
/* on &= b_on and off &= b_off; false when both are empty then (a set
 * intersection that only shrinks can stop there). */
static inline bool cs_and_pair(cset *on, cset *off, const cset *b_on, const cset *b_off)
{
    uint64_t left = 0;
    for (int i = 0; i < 12; i++) {
        on->w[i] &= b_on->w[i];
        off->w[i] &= b_off->w[i];
        left |= on->w[i] | off->w[i];
    }
    return left != 0;
}
/* The first member of s from k on, SDK_NCAND when there is none. */
static inline int cs_next(const cset *s, int k)
{
    for (int w = k >> 6; w < 12; w++) {
        uint64_t m = s->w[w];
        if (w == k >> 6) m &= ~0ULL << (k & 63);
        if (m) {
            int r = w * 64 + __builtin_ctzll(m);
            return r < SDK_NCAND ? r : SDK_NCAND;
        }
    }
    return SDK_NCAND;
}
static inline bool cs_empty(const cset *a)
{
    for (int i = 0; i < 12; i++)
        if (a->w[i]) return false;
    return true;
}
/* The cells of the candidates in both s and within, read from their
 * common bits (within holds one digit's candidates, so a cell comes once):
 * the cells x with cs_has(s, k) and cs_has(within, k) for k = x * 9 + d - 1,
 * without asking cell by cell. */
static inline sdk_bb cs_cells_within(const cset *s, const cset *within)
{
    sdk_bb b = sdk_bb_none();
    for (int w = 0; w < 12; w++)
        for (uint64_t m = s->w[w] & within->w[w]; m; m &= m - 1)
            sdk_bb_add(&b, (w * 64 + __builtin_ctzll(m)) / 9);
    return b;
}

/* Per premise (literal of a candidate): what it implies. The sets of a
 * premise whose component tables_all() computed stay in that component's
 * table (forcing.c), which every premise of the component shares: `sets`
 * points there, or to the table itself (searched alone). Read them through
 * forcing_table(). */
typedef struct table {
    cset on, off;
    bool valid;
    int comp;                 /* its component in forcing.c's graph (tables_all), or -1 */
    const struct table *sets; /* where its on and off are (valid tables) */
} table;

/* Conclusions already emitted (one step per conclusion). */
typedef struct seen {
    cset place, elim;
} seen;

/* The static chain search over a grid: its link model, a search buffer and
 * the premise tables (t[lit], 2 * 729 of them; t[lit].valid once known).
 * The tables live in a per-thread cache of the last position (forcing.c):
 * the finds that run one after the other on a position share them, so a
 * thread has one sctx at a time. */
typedef struct sctx {
    const sdk_grid *g;
    const sdk_links *L; /* the links of g (sdk_links_shared(): not ours) */
    uint64_t serial;    /* their build (sdk_links_shared) */
    sdk_lsearch *S;     /* a search buffer on them, NULL until a search wants one */
    table *t;           /* 2 * 729 */
    bool all_tried;     /* forcing_table() computed every table (or tried to) */
} sctx;

/* Build the links of g (flags of links.h: groups, ALS) and every premise's
 * table; false when the links cannot be built (forcing_static_free() is then
 * not needed). false_of: NULL, or a solution of g (81 digits) when only the
 * premises it makes false are wanted (contradictions); the others may get
 * their tables too (they come together, forcing_table()). */
bool forcing_static_init(sctx *s, const sdk_grid *g, unsigned flags, const uint8_t *false_of);
/* Only the links and the tables the cache holds: the first forcing_table()
 * call that misses computes every premise's table at once (forcing.c:
 * tables_all, one pass over the graph). */
bool forcing_links_init(sctx *s, const sdk_grid *g, unsigned flags);
const table *forcing_table(sctx *s, int lit);
void forcing_static_free(sctx *s);
/* Add the chain premise -> lit to the step (links and marks), its Eureka text
 * to txt when txt is not NULL; returns its node count (0: no chain). */
int forcing_add_chain(sctx *s, int premise, int lit, sdk_step *st, char *txt, size_t n);

/* A solution of g into sol (81 digits); false when g has none. From a
 * per-thread cache when an earlier grid's answer holds for g (forcing.c):
 * then possibly another solution than the solver's first, for callers that
 * only need one. */
bool forcing_solution(const sdk_grid *g, uint8_t sol[SDK_CELLS]);

/* Set the conclusion "lit is true" (placement or elimination). */
static inline void conclude(sdk_step *st, int lit)
{
    int k = lit >> 1;
    if (lit & 1)
        sdk_step_place(st, k / 9, k % 9 + 1);
    else
        sdk_step_elim(st, k / 9, k % 9 + 1);
}

/* A conclusion not drawn before? Then it is drawn now. */
static inline bool seen_add(seen *sn, int lit)
{
    cset *s = (lit & 1) ? &sn->place : &sn->elim;
    if (cs_has(s, lit >> 1)) return false;
    cs_add(s, lit >> 1);
    return true;
}

/* Sudoku Explainer's rating of a chain: its base plus the length increment. */
static inline int diff_len(int base, int len)
{
    return base + sdk_chain_length_tenths(len);
}

/* kraken.c's techniques, listed by forcing.c's SDK_PLUGIN. */
extern const sdk_technique kraken_type1, kraken_type2;

#endif
