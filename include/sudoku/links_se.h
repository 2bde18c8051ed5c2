/* sudoku/links_se.h - Sudoku Explainer's implication search (the smallest
 * addition to links.h that SE-exact ratings need).
 *
 * links.h gives every consequence one reason (one literal it came from). SE
 * rates a chain by the number of distinct potentials among all the ancestors
 * of its conclusion, and in dynamic mode a potential that becomes true through
 * a cell or house with two candidates left also has, as parents, every
 * earlier false potential that narrowed that cell or house ("hidden parents").
 * This file keeps potentials with several parents in an arena, propagates in
 * SE's order (all pending true potentials first, then one false one), and
 * counts ancestors. Chains it finds are turned into sdk_link records of
 * step.h; the length increment is sdk_chain_length_tenths() of links.h.
 */
#ifndef SUDOKU_LINKS_SE_H
#define SUDOKU_LINKS_SE_H

#include "sudoku/grid.h"
#include "sudoku/step.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Causes (why a potential holds), as SE names them. */
enum { SDK_SE_ASSUMED = 0, SDK_SE_CELL, SDK_SE_BLOCK, SDK_SE_ROW, SDK_SE_COL, SDK_SE_ADVANCED };

typedef struct sdk_se_pot {
    int16_t cand; /* cell*9 + digit-1 */
    uint8_t on, cause;
    int np, par; /* parents: par[0..np) in the arena's parent pool */
    int nested;  /* id of the nested chain that produced it (advanced), or -1 */
    int ncplx;   /* that nested chain's complexity */
} sdk_se_pot;

typedef struct sdk_se_arena {
    sdk_se_pot *p;
    int n, cap;
    int *par;
    int npar, parcap;
    void *scratch; /* the cycle search's tables, made on first use (freed with the arena) */
} sdk_se_arena;

void sdk_se_arena_free(sdk_se_arena *a);
/* New potential; parents copied. Returns its index. */
int sdk_se_new(sdk_se_arena *a, int cand, int on, int cause, const int *parents, int np);

/* The sets of one propagation: idx[cand*2+on] = arena index (only where the
 * literal's bit is set; stale elsewhere after a clear), plus the
 * insertion order of each kind, and the members as a bit set by literal.
 * Most questions a propagation asks are "not there yet": the bit set answers
 * them from 184 bytes, where idx would take a cache miss in 5.8 KB. */
#define SDK_SE_SET_WORDS ((2 * 729 + 63) / 64)
typedef struct sdk_se_set {
    uint64_t bits[SDK_SE_SET_WORDS];
    int idx[2 * 729];
    int16_t on_ord[729], off_ord[729];
    int non, noff;
} sdk_se_set;

/* Whether literal lit (cand*2 + on) is in s. */
static inline bool sdk_se_set_has(const sdk_se_set *s, int lit)
{
    return (s->bits[lit >> 6] >> (lit & 63)) & 1;
}

void sdk_se_set_init(sdk_se_set *s);
/* Empty a set made by sdk_se_set_init, touching only its members. */
void sdk_se_set_clear(sdk_se_set *s);
void sdk_se_set_add(sdk_se_set *s, const sdk_se_arena *a, int node);

#define SDK_SE_DYNAMIC 0x1u /* false potentials leave the working grid */
#define SDK_SE_NISHIO 0x2u  /* house links only (no cell links) */

/* Called when nothing is pending (nested levels): may add false potentials
 * with sdk_se_push_off and returns how many it added. cur is the working
 * grid, src the grid at the start. */
typedef int (*sdk_se_more_fn)(void *ctx, sdk_se_arena *a, sdk_se_set *s, const sdk_grid *cur,
                              const sdk_grid *src);

struct sdk_se_static;
typedef struct sdk_se_run {
    sdk_se_arena *a;
    sdk_se_set *s;
    unsigned flags;
    /* without SDK_SE_DYNAMIC the grid does not change: its links may be
     * given here, made once for many runs (sdk_se_static_init), or NULL */
    const struct sdk_se_static *t;
    sdk_se_more_fn more;
    void *more_ctx;
    int qon[1458], qoff[1458 * 4]; /* pending potentials (arena indices) */
    int hon, ton, hoff, toff;
    int absurd_on, absurd_off; /* the clash found (arena indices), -1 when none */
    sdk_grid work;             /* the working grid (dynamic: false potentials gone) */
    /* dynamic: the places of each digit (d-1) in each house of work, kept
     * with it (the off -> on test reads them); hcount0: those of the grid
     * given to sdk_se_chain (sdk_se_house_counts), or NULL: counted there */
    uint8_t hcount[27][9];
    const uint8_t (*hcount0)[9];
} sdk_se_run;

/* The places of each digit d (index d-1) in each house of g. */
void sdk_se_house_counts(const sdk_grid *g, uint8_t out[27][9]);

/* Propagate from the potentials already in s (SE's doChaining). Returns true
 * on a contradiction (absurd_on / absurd_off set). */
bool sdk_se_chain(sdk_se_run *r, const sdk_grid *g);
/* Go on with a propagation that stopped with nothing pending: s and work as
 * it left them (same arena), `more` is asked first, then as sdk_se_chain. */
bool sdk_se_chain_resume(sdk_se_run *r, const sdk_grid *g);
/* Queue a false potential from a `more` callback (false when already known). */
bool sdk_se_push_off(sdk_se_run *r, int node);

/* A set of literals as bit boards: b[di] holds the cells whose candidate
 * di + 1 is true, b[9 + di] those where it is false. */
typedef struct sdk_se_lits {
    sdk_bb b[18];
} sdk_se_lits;

/* Whether literal lit (cand*2 + on) is in l. */
static inline bool sdk_se_lits_has(const sdk_se_lits *l, int lit)
{
    int cand = lit >> 1;
    return sdk_bb_has(l->b[(lit & 1 ? 0 : 9) + cand % 9], cand / 9);
}

/* The literals of set s as boards. */
void sdk_se_lits_of_set(const sdk_se_set *s, sdk_se_lits *out);

/* The literals a dynamic run from literal lit on g reaches (SDK_SE_DYNAMIC,
 * no `more`; y: cell links too, as without SDK_SE_NISHIO), into out, found
 * without potentials (hcount: g's sdk_se_house_counts; ccount: g's
 * sdk_se_closure_cells, read with y only). A run that meets
 * no clash ends where nothing more follows, and what follows does not depend on the
 * order: a true candidate makes its cell's other candidates and its peers
 * with the digit false; false candidates make true the last candidate of a
 * cell (y) or the last place of a digit in a house that are not false. So
 * its literals are the least set closed under those rules, whatever the
 * order; and the run meets a clash exactly when that set holds a candidate
 * both true and false, or a cell (y) or a house with two places or more all
 * false (the last two of them make each other true). Returns false in that
 * case (out then undefined): where the clash is met, and so what the run
 * holds then, depends on the order, and only the run itself (sdk_se_chain)
 * says. */
bool sdk_se_closure(const sdk_grid *g, const uint8_t hcount[27][9], const uint8_t ccount[81],
                    int lit, bool y, sdk_se_lits *out);
/* The cell counts sdk_se_closure starts from: a cell's candidates where it
 * has two or more, else a count no false candidate takes down to one (a
 * cell of one candidate has no cell link). */
void sdk_se_closure_cells(const sdk_grid *g, uint8_t out[81]);

/* Whether l, what sdk_se_closure found (true) on a grid g, is also its
 * answer on a grid that differs from g only in the candidates diff[0..n)
 * (cell*9 + digit-1, each a candidate of one of the two grids only), with
 * the same y. The rules read a candidate X of cell c only through: a true
 * literal of X's digit in c or a peer (it makes X false), with y one of
 * another digit in c (the same); a false literal of X's digit in a house of
 * c (that house's count of places); with y a false one in c (the cell's
 * count). Where l holds none of those for any X, every step that made l
 * reads the same on both grids, and l is closed under the rules of both,
 * with the same counts wherever it has a false literal: the least closed
 * set, without a clash, on both. */
bool sdk_se_closure_keeps(const sdk_se_lits *l, const int16_t *diff, int n, bool y);

/* The links of a grid that does not change (static chains), made once:
 * bivalue partner, conjugate in box/row/column. The peers with the digit
 * come from the grid's boards (sdk_se_static_peers), in SE's order. */
typedef struct sdk_se_static sdk_se_static;
struct sdk_se_static {
    uint16_t cand[81];
    int16_t bi[729];      /* the other candidate of a bivalue cell, or -1 */
    int16_t conj[729][3]; /* the other place in the box, row, column when two, or -1 */
    uint8_t strong[729];  /* bit 0: a bivalue partner; bit 1: a conjugate */
    sdk_bb digit[9];      /* the grid's places of each digit */
    /* the candidates with strong bit k (as in strong) of each digit */
    sdk_bb strongbb[2][9];
};
void sdk_se_static_init(sdk_se_static *t, const sdk_grid *g);
/* The same, where t holds the links of another grid already (made by
 * either): only the candidates whose links may differ are made again. */
void sdk_se_static_update(sdk_se_static *t, const sdk_grid *g);

/* The peers of candidate cand (cell, digit) with its digit, in SE's order
 * (getOnToOff): pb[0] those in its box, pb[1] those in its row outside the
 * box, pb[2] those in its column outside the box (causes SDK_SE_BLOCK, ROW,
 * COL), each read in increasing cell order. */
static inline void sdk_se_static_peers(const sdk_se_static *t, int cand, sdk_bb pb[3])
{
    int cell = cand / 9, di = cand % 9;
    sdk_bb with = sdk_bb_and(t->digit[di], sdk_peer_bb[cell]);
    sdk_bb box = sdk_house_bb[sdk_cell_house[cell][SDK_BOX]];
    sdk_bb out = sdk_bb_andnot(with, box);
    pb[0] = sdk_bb_and(with, box);
    pb[1] = sdk_bb_and(out, sdk_house_bb[sdk_cell_house[cell][SDK_ROW]]);
    pb[2] = sdk_bb_and(out, sdk_house_bb[sdk_cell_house[cell][SDK_COL]]);
}

/* Strongly connected components of the static implication graph (cell
 * links when y, house links when x; the graph the unary searches walk).
 * Components are numbered in Tarjan's order: when a literal reaches another
 * of a different component, its number is the larger. A search whose source
 * cannot reach its target, or a cycle through a literal alone in its
 * component, finds nothing: callers skip it. */
typedef struct sdk_se_scc {
    int16_t comp[1458]; /* by literal cand*2 + on; -1: not in the graph */
    int16_t size[1458]; /* literals per component */
    /* the graph's literals are its nodes, numbered in literal order: node
     * (by literal, -1: not in the graph), lit (by node), cnode (component
     * by node); the successors of node v are adj[first[v]..first[v+1]) */
    int16_t node[1458], lit[1458], cnode[1458];
    int nnode;
    int first[1459];
    int adj[1458 * 28];
    int16_t order[1458];  /* literals by component, sinks first */
    int16_t ostart[1459]; /* where each component starts in order */
    int norder, ncomp;
    int nlinkcomp;      /* components of linked literals: 0..nlinkcomp; each
                         * one above is a true literal alone, with no edge in */
    bool linked[729];   /* the candidate has a strong link in this graph */
    uint16_t lmask[81]; /* the same as digit masks by cell */
    sdk_bb ldigit[9];   /* and as cells by digit */
    const sdk_se_static *t;
    bool y;
} sdk_se_scc;
void sdk_se_scc_init(sdk_se_scc *r, const sdk_se_static *t, bool y, bool x);
/* out[i]: whether literal from[i] reaches literal to[i] (64 at a time, one
 * pass over the graph in component order each); n is at most 1458. */
void sdk_se_reach(const sdk_se_scc *r, const int *from, const int *to, int n, bool *out);

/* Unary chains (SE's cycles and forcing X/Y-chains) from cand being true:
 * every cycle end and every forcing-chain target found is appended to out
 * (arena indices). y: cell links; x: house links. */
int sdk_se_cycles(sdk_se_arena *a, const sdk_se_static *t, int cand, bool y, bool x, int *out,
                  int max);
int sdk_se_forcing(sdk_se_arena *a, const sdk_se_static *t, int cand, bool on, bool y, int *out,
                   int max);

/* Number of distinct potentials among node and its ancestors; *nested gets
 * the summed complexity of the distinct nested chains met (may be NULL). */
int sdk_se_ancestors(const sdk_se_arena *a, int node, int *nested);
/* SE's complexity of a hint whose chains end at nodes[0..n): the distinct
 * potentials among each end's ancestors (SE's getAncestorCount), summed,
 * plus the complexity of every distinct nested chain (by id) among them,
 * each counted once (getNestedComplexity); one walk per end. */
int sdk_se_complexity(const sdk_se_arena *a, const int *nodes, int n);
/* Append the chain to node as links and ON/OFF marks. */
void sdk_se_to_step(const sdk_se_arena *a, int node, sdk_step *s);
/* "r1c2+5 -> r1c3-5 -> ..." along first parents, root first. */
char *sdk_se_path_text(const sdk_se_arena *a, int node, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
