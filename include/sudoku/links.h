/* sudoku/links.h - the link model shared by chains, loops, forcing chains and
 * kraken fish.
 *
 * Nodes: every candidate (node id = cell*9 + digit-1, 0..728), group nodes (a
 * digit confined to 2-3 cells of one box/line segment acts as one node) and
 * ALS nodes (an almost locked set entered through digit j: once every j of the
 * set is false the rest is a locked set). A literal is a node with a truth
 * value: lit = node*2 + on.
 *
 * The static graph (sdk_links_build) holds the implications between literals
 * of the grid as it is: weak links (a true node makes its partners false:
 * same cell, same house, group, ALS exits) and strong links (a false node makes
 * its partner true: bivalue cell, bilocal house, group/cell conjugates). An ALS
 * is only entered by a weak link and left by a weak link, so ALS links never
 * follow each other directly. sdk_links_search() finds for one starting
 * literal every literal it implies with a shortest chain (predecessor tree),
 * which is what AICs, nice loops, static forcing chains and kraken fish need.
 *
 * The dynamic search (sdk_dyn_run) works on a copy of the grid: it assumes one
 * candidate true or false and propagates breadth first (cell and house
 * singles, optionally locked candidates and ALS links), recording for every
 * consequence the link that produced it and the literal it came from, and
 * stops at the first contradiction. sdk_trace_assumption() prints every
 * consequence in the notation of GNPX "super links":
 *
 *     r2c6/+8 [W r2c2/+1 -> r2c8/-1] => [S (ALS:r2c68) r2c8/-1 -> r2c6/+8]
 */
#ifndef SUDOKU_LINKS_H
#define SUDOKU_LINKS_H

#include "sudoku/als.h"
#include "sudoku/grid.h"
#include "sudoku/step.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SDK_LIT(node, on) ((node)*2 + ((on) ? 1 : 0))
#define SDK_LIT_NODE(lit) ((lit) >> 1)
#define SDK_LIT_ON(lit) ((lit)&1)
#define SDK_CAND_NODE(cell, digit) ((cell)*9 + (digit)-1)
#define SDK_NCAND 729

enum { SDK_LN_CAND = 0, SDK_LN_GROUP = 1, SDK_LN_ALS = 2 };

/* Build flags. */
#define SDK_LINKS_GROUPS 0x1u /* group nodes */
#define SDK_LINKS_ALS 0x2u    /* ALS nodes */

typedef struct sdk_lnode {
    uint8_t kind;  /* SDK_LN_* */
    uint8_t digit; /* the node's digit (for ALS nodes: the entry digit) */
    uint8_t cell;  /* first cell (HoDoKu's "cell index" of the node) */
    uint8_t ncell; /* cells of a candidate/group node */
    int als;       /* index in sdk_links.als for ALS nodes, else -1 */
    sdk_bb cells;  /* cells of the node (ALS: every cell of the set) */
} sdk_lnode;

typedef struct sdk_ledge {
    int to;         /* target literal */
    uint8_t kind;   /* sdk_link_kind */
    uint8_t weight; /* chain length it adds (ALS exits carry a penalty) */
} sdk_ledge;

typedef struct sdk_links {
    sdk_grid grid; /* the grid the graph was built from */
    unsigned flags;
    int nnode, cap;
    sdk_lnode *node;
    int nedge;
    int *first; /* 2*nnode+1 offsets into edge, per source literal */
    sdk_ledge *edge;
    sdk_als_list als; /* ALSs used by ALS nodes (empty without SDK_LINKS_ALS) */
    int *group_of;    /* per candidate node: first group node holding it (or -1) */
} sdk_links;

/* Build the static implication graph of g. Returns false when out of memory. */
SDK_API bool sdk_links_build(const sdk_grid *g, unsigned flags, sdk_links *L);
SDK_API void sdk_links_free(sdk_links *L);
/* The same graph from a per-thread cache of the last position per flags
 * (links_shared.c): built once for the plugins that search it one after the
 * other. Owned by the cache (never freed by the caller); valid until the
 * thread's next call. *serial (when not NULL) names the build: the same
 * serial, the same graph. NULL when out of memory. */
SDK_API const sdk_links *sdk_links_shared(const sdk_grid *g, unsigned flags, uint64_t *serial);
/* ALS chain penalty HoDoKu adds to the length of a chain through an ALS. */
SDK_API int sdk_links_als_penalty(const sdk_als *a);

/* Strongly connected components of a directed graph of n nodes, node v's
 * successors adj[first[v] .. first[v + 1]) (Tarjan, without recursion;
 * lib/scc.c). Searched from every node, or with root only from the nodes
 * whose root[v] is true (and what they reach). Components are numbered in
 * the order they complete, where each comes after every component it
 * reaches (sinks first); comp[v] is v's number, -1 when not reached. done,
 * when not NULL, is called as each completes, with its members (k nodes,
 * in depth-first order from the component's root); it may read comp[] of
 * them and of every component numbered before. work: 5 * n ints. Returns
 * the number of components. */
typedef void (*sdk_scc_fn)(void *ctx, int c, const int *members, int k);
SDK_API int sdk_graph_scc(int n, const int *first, const int *adj, const bool *root, int *comp,
                          int *work, sdk_scc_fn done, void *ctx);

/* Shortest implication tree from one literal. Arrays of 2*nnode entries. */
typedef struct sdk_lsearch {
    int nlit;
    int *dist;     /* INT_MAX when not reached */
    int *pred;     /* predecessor literal, -1 for the start */
    uint8_t *kind; /* kind of the link into the literal */
    void *heap;    /* work area */
    int start;
} sdk_lsearch;

SDK_API bool sdk_lsearch_init(sdk_lsearch *s, const sdk_links *L);
SDK_API void sdk_lsearch_free(sdk_lsearch *s);
SDK_API void sdk_links_search(const sdk_links *L, int start_lit, sdk_lsearch *s);
/* The same, but literals whose node has a cell in `avoid` are not entered
 * (except `target`): another shortest chain when the first one runs through
 * a cell it must not visit (a lasso). */
SDK_API void sdk_links_search_avoid(const sdk_links *L, int start_lit, sdk_bb avoid, int target,
                                    sdk_lsearch *s);
/* The same, but among chains of equal length the last links found win (the
 * first ones with sdk_links_search): another set of shortest chains. */
SDK_API void sdk_links_search_lifo(const sdk_links *L, int start_lit, sdk_lsearch *s);
/* The literals the last search reached (the start first, then breadth
 * first), in *lits: their count, or -1 when that search did not keep them
 * (a graph with weighted edges: read dist). */
SDK_API int sdk_lsearch_reached(const sdk_lsearch *s, const int **lits);
/* The chain start..lit as literals (start first). Returns its node count or 0
 * when lit was not reached or the chain would be longer than max. */
SDK_API int sdk_links_path(const sdk_lsearch *s, int lit, int *out, int max);

/* Cells that see every cell of the node where its digit d could be (candidate:
 * peers of the cell; group: common peers; ALS: peers of the ALS's d-cells). */
SDK_API sdk_bb sdk_links_node_buddies(const sdk_links *L, int node, int d);

/* Text: "(1)r2c2", "(4)r13c5", "(1)ALS:r2c68" for a node; a chain of literals
 * in Eureka notation "(1)r2c2-(1)r2c8=(3)r2c8-..." (a true literal is entered by
 * '=', a false one by '-'). Return buf. */
SDK_API char *sdk_links_node_text(const sdk_links *L, int node, char *buf, size_t n);
SDK_API char *sdk_links_eureka(const sdk_links *L, const int *lits, int n, char *buf, size_t size);
/* Append the chain's links (and ON/OFF marks of candidate nodes) to a step. */
SDK_API void sdk_links_to_step(const sdk_links *L, const int *lits, int n, sdk_step *s);
/* Fill an sdk_node from a literal. */
SDK_API void sdk_links_sdk_node(const sdk_links *L, int lit, sdk_node *out);

/* Length increment of Sudoku Explainer for a chain of `length` nodes, in
 * tenths: 0 up to 4, +1 past 4, 6, 8, 12, 16, 24, 32, 48, ... */
SDK_API int sdk_chain_length_tenths(int length);

/* ---- dynamic search --------------------------------------------------- */

#define SDK_DYN_ALS 0x1u    /* ALS links (GNPX super links) */
#define SDK_DYN_LOCKED 0x2u /* group links: a digit confined to a box segment */
#define SDK_DYN_NISHIO 0x4u /* only the assumed digit (nishio) */
#define SDK_DYN_GNPX 0x8u   /* sdk_trace_assumption only: GNPX's own search and lines */

/* Why a candidate got its value. */
typedef struct sdk_dyn_reason {
    int16_t from;   /* literal it came from (-1: the assumption, -2: outside propagation) */
    uint8_t kind;   /* sdk_link_kind */
    uint8_t strong; /* 1: a false -> true link, 0: true -> false */
    sdk_bb als;     /* for ALS / group links: the cells of the set */
} sdk_dyn_reason;

typedef struct sdk_dyn {
    sdk_grid g;              /* the working grid (candidates narrowed) */
    int8_t state[SDK_NCAND]; /* 0 unknown, 1 true, -1 false (candidates of g's empty cells) */
    sdk_dyn_reason why[SDK_NCAND];
    int16_t order[SDK_NCAND]; /* derived literals in order (the assumption first) */
    uint16_t depth[SDK_NCAND];
    int n;
    int start; /* assumed literal */
    bool contradiction;
    int bad_lit;               /* a literal found both true and false, or -1 */
    sdk_dyn_reason bad_reason; /* the derivation that clashed with bad_lit's value */
    int bad_cell, bad_house;   /* a cell without candidates / house without the digit, or -1 */
    int bad_digit;
    char why_text[160]; /* what broke */
    bool gnpx;          /* unused (always false): GNPX's search is sdk_trace_assumption's */
    /* unused: kept so that the struct keeps the layout of ABI v2 */
    sdk_dyn_reason shown[SDK_NCAND];
    bool has_shown[SDK_NCAND];
} sdk_dyn;

/* Assume cell=digit (on) or cell<>digit (off) in g and propagate. ALS links use
 * als (may be NULL; built from g by the caller with sdk_als_collect). Returns
 * true when a contradiction was found. */
SDK_API bool sdk_dyn_run(const sdk_grid *g, int cell, int digit, bool on, unsigned flags,
                         const sdk_als_list *als, sdk_dyn *d);
/* The chain of reasons that led to lit, assumption first: literals in out
 * (returns the count, 0 when lit was not derived). */
SDK_API int sdk_dyn_chain(const sdk_dyn *d, int lit, int *out, int max);
/* "r2c6/+8 [W r2c2/+1 -> r2c8/-1] => [S (ALS:r2c68) r2c8/-1 -> r2c6/+8]" */
SDK_API char *sdk_dyn_explain(const sdk_dyn *d, int lit, char *buf, size_t n);

/* Trace an assumption: call fn once per consequence (sorted by cell, then
 * digit) with its line of text, then once with lit = -1 and a summary line
 * ("r1c6/#8 is false: ..." on a contradiction, else "no contradiction, N
 * consequences"). flags as for sdk_dyn_run; ALS links are on when
 * SDK_DYN_ALS is given. Returns true when the assumption is contradictory. */
typedef void (*sdk_trace_fn)(void *ctx, int lit, const char *line);
SDK_API bool sdk_trace_assumption(const sdk_grid *g, int cell, int digit, bool on, unsigned flags,
                                  sdk_trace_fn fn, void *ctx);

/* ---- a step's links as consequence lines ------------------------------ */

/* A step's links (sdk_step.link, or links decoded from the wire) hold one or
 * more chains one after the other: a link whose `from` is not the previous
 * link's `to` starts a new chain. Each chain is written as one line, the
 * candidate it derives first, then its links from the premise on:
 *
 *     r2c6/+8 [W r2c2/+1 -> r2c8/-1] => [S (ALS:r2c68) r2c8/-1 -> r2c6/+8]
 *
 * W: a weak link (true -> false), S: a strong one (false -> true). An ALS
 * link carries "(ALS:cells)"; a dynamic group link (a digit confined to a box
 * segment) with cells carries "(GROUP:cells)". A static ALS node (entered by a
 * weak link, left by an elimination) is folded into one link from the
 * candidate that enters the set to the candidate it eliminates. */

/* "r2c2/+1", "r2c46/-1", "r46c2/+1", "r1c1,r2c3/-1" (sdk_node_text's
 * form) into a node. False when malformed. */
SDK_API bool sdk_node_parse(const char *text, sdk_node *out);
/* "cell", "house", "group", "als" -> sdk_link_kind; -1 when unknown. */
SDK_API int sdk_link_kind_parse(const char *name);
/* "r2c2/+1" for a node (group: "r2c46/-1"). Returns buf. */
SDK_API char *sdk_node_text(const sdk_node *nd, char *buf, size_t n);
/* "[W r2c2/+1 -> r2c8/-1]" for one link. Returns buf. */
SDK_API char *sdk_link_text(const sdk_link *l, char *buf, size_t n);

typedef void (*sdk_link_line_fn)(void *ctx, const sdk_node *derived, const char *line);
/* Call fn once per chain of links[0..n) with its line. Returns the line count. */
SDK_API int sdk_links_trace_lines(const sdk_link *links, int n, sdk_link_line_fn fn, void *ctx);
/* The same with flags: SDK_TRACE_GNPX writes the lines as GNPX does: a link
 * inside a cell only as a chain's last one, group (AIC) nodes in angle
 * brackets ("<r2c46>/+1"). */
#define SDK_TRACE_GNPX 0x1u
SDK_API int sdk_links_trace_lines_flags(const sdk_link *links, int n, unsigned flags,
                                        sdk_link_line_fn fn, void *ctx);
/* The lines of a step's links joined by '\n' (no newline after the last).
 * Returns buf ("" when the step has no links). */
SDK_API char *sdk_step_trace_text(const sdk_step *s, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
