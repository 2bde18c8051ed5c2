/* links.c - the link model's graph: the static implications between the
 * literals of a grid (candidates, group nodes, ALS nodes; see links.h), built
 * once per position. The shortest-chain search over it is links_search.c,
 * chain text and step records links_text.c, the dynamic search and the trace
 * links_dyn.c. */
#include "sudoku/alloc.h"
#include "sudoku/links.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "links_build.h"

/* ---- building -------------------------------------------------------- */

/* The ALS links in the order the builder makes them, each with its source
 * literal; sorted into L's arrays (by source, stable) at the end. The links
 * among candidates and those of group nodes are written in place (the
 * order of each literal's links decides which shortest chain a search
 * finds, so it is the order the builder always listed them in). */
typedef struct ebuf {
    int n, cap;
    struct {
        int from;
        sdk_ledge e;
    } * v;
} ebuf;

static inline bool eb_add(ebuf *b, int from, int to, int kind, int w)
{
    if (b->n == b->cap) {
        int nc = b->cap ? b->cap * 2 : 4096;
        void *p = sdk_xrealloc(b->v, sizeof *b->v * (size_t)nc);
        b->v = p;
        b->cap = nc;
    }
    b->v[b->n].from = from;
    b->v[b->n].e = (sdk_ledge){to, (uint8_t)kind, (uint8_t)(w > 255 ? 255 : w)};
    b->n++;
    return true;
}

static int add_node(sdk_links *L, int kind, int digit, sdk_bb cells, int als)
{
    if (L->nnode == L->cap) {
        int nc = L->cap ? L->cap * 2 : 1024;
        void *p = sdk_xrealloc(L->node, sizeof *L->node * (size_t)nc);
        L->node = p;
        L->cap = nc;
    }
    sdk_lnode *n = &L->node[L->nnode];
    n->kind = (uint8_t)kind;
    n->digit = (uint8_t)digit;
    n->cells = cells;
    n->ncell = (uint8_t)sdk_bb_count(cells);
    n->cell = (uint8_t)(sdk_bb_empty(cells) ? 0 : sdk_bb_first(cells));
    n->als = als;
    return L->nnode++;
}

/* The 729 candidate nodes every graph starts with (node cell * 9 + d - 1),
 * made once and copied. */
static sdk_lnode cand_nodes[SDK_NCAND];
static pthread_once_t cand_nodes_once = PTHREAD_ONCE_INIT;

static void cand_nodes_make(void)
{
    for (int i = 0; i < SDK_NCAND; i++)
        cand_nodes[i] = (sdk_lnode){.kind = SDK_LN_CAND,
                                    .digit = (uint8_t)(i % 9 + 1),
                                    .cell = (uint8_t)(i / 9),
                                    .ncell = 1,
                                    .als = -1,
                                    .cells = sdk_bb_cell(i / 9)};
}

int sdk_links_als_penalty(const sdk_als *a)
{
    int n = sdk_mask_count(a->digits);
    if (n <= 1) return 0;
    if (n == 2) return 1;
    return (n - 1) * 2;
}

typedef struct gnode {
    int node, digit, box, line; /* line: house index of the row/column */
    sdk_bb cells;
    sdk_bb bud;    /* the digit's cells that see every cell of the group */
    int single[2]; /* the only cell of bud in the rest of its box, line; or -1 */
} gnode;

bool sdk_links_build(const sdk_grid *g, unsigned flags, sdk_links *L)
{
    memset(L, 0, sizeof *L);
    links_room room = {0};
    bool ok = links_rebuild(g, flags, L, &room);
    links_room_free(&room);
    return ok;
}

void links_room_free(links_room *room)
{
    free(room->eb);
    free(room->ebat);
    free(room->ebsort);
    free(room->gedge);
    free(room->cg);
    free(room->cgn);
    memset(room, 0, sizeof *room);
}

/* The links among candidates from (c, d) true, in the order every graph
 * lists them first for that literal: the cell's other candidates (digit
 * order), then the digit's peers (cell order). Written to out; returns the
 * count. */
static inline int cand_edges_on(const sdk_grid *g, int c, int d, sdk_ledge *out)
{
    int n = 0;
    SDK_MASK_FOREACH(e, g->cand[c])
        if (e != d) out[n++] = (sdk_ledge){SDK_LIT(SDK_CAND_NODE(c, e), 0), SDK_LINK_CELL, 1};
    sdk_bb peers = sdk_bb_and(sdk_peer_bb[c], g->digit[d - 1]);
    SDK_BB_FOREACH(p, peers)
        out[n++] = (sdk_ledge){SDK_LIT(SDK_CAND_NODE(p, d), 0), SDK_LINK_HOUSE, 1};
    return n;
}

/* The same from (c, d) false: the cell's other candidate when it has two,
 * then the digit's other place in the row, column and box (each cell once)
 * where it has two. */
static inline int cand_edges_off(const sdk_grid *g, int c, int d, sdk_ledge *out)
{
    int n = 0;
    unsigned m = g->cand[c];
    if (sdk_mask_count(m) == 2)
        out[n++] = (sdk_ledge){SDK_LIT(SDK_CAND_NODE(c, sdk_mask_first(m & ~sdk_digit_bit(d))), 1),
                               SDK_LINK_CELL, 1};
    int seen = -1;
    for (int k = 0; k < 3; k++) {
        sdk_bb h = sdk_house_digit(g, sdk_cell_house[c][k], d);
        if (sdk_bb_count(h) != 2) continue;
        sdk_bb_del(&h, c);
        int o = sdk_bb_first(h);
        if (o == seen) continue;
        seen = o;
        out[n++] = (sdk_ledge){SDK_LIT(SDK_CAND_NODE(o, d), 1), SDK_LINK_HOUSE, 1};
    }
    return n;
}

/* Candidate literal lit's links into group nodes (listed per literal in
 * room->cg) to L->edge + at; returns the new end. */
static inline int group_edges_of(const links_room *room, int lit, sdk_links *L, int at)
{
    int n = room->cgn[lit];
    memcpy(L->edge + at, room->cg[lit], sizeof(sdk_ledge) * (size_t)n);
    return at + n;
}

/* Literal lit's listed links (sorted by source in room->ebsort, see
 * links_rebuild) to L->edge + at; returns the new end. */
static inline int listed_edges(const links_room *room, int lit, sdk_links *L, int at)
{
    int from = lit ? room->ebat[lit - 1] : 0, to = room->ebat[lit];
    if (to > from) {
        memcpy(L->edge + at, room->ebsort + from, sizeof(sdk_ledge) * (size_t)(to - from));
        at += to - from;
    }
    return at;
}

/* The links among candidates of literal lit (cand_edges_on/off's) to
 * L->edge + at, copied from the plain graph `plain` of the same position,
 * where they are all of lit's links; returns the new end. */
static inline int plain_edges(const sdk_links *plain, int lit, sdk_links *L, int at)
{
    int from = plain->first[lit], n = plain->first[lit + 1] - from;
    memcpy(L->edge + at, plain->edge + from, sizeof(sdk_ledge) * (size_t)n);
    return at + n;
}

bool links_rebuild(const sdk_grid *g, unsigned flags, sdk_links *L, links_room *room)
{
    return links_rebuild_from(g, flags, L, room, NULL);
}

bool links_rebuild_from(const sdk_grid *g, unsigned flags, sdk_links *L, links_room *room,
                        const sdk_links *plain)
{
    /* what L holds is kept for its memory: the arrays are refilled */
    sdk_als_list_free(&L->als);
    L->grid = *g;
    L->flags = flags;
    L->nnode = 0;
    L->nedge = 0;
    ebuf eb = {0, room->eb_cap, room->eb};
    bool ok = true;
    pthread_once(&cand_nodes_once, cand_nodes_make);
    if (L->cap < SDK_NCAND) {
        free(L->node);
        L->node = sdk_xmalloc(sizeof *L->node * 1024);
        L->cap = 1024;
        room->cand_nodes = false;
    }
    /* the candidate nodes are never changed after: copied once per memory */
    if (!room->cand_nodes) memcpy(L->node, cand_nodes, sizeof cand_nodes);
    room->cand_nodes = true;
    L->nnode = SDK_NCAND;
    if (!L->group_of) L->group_of = sdk_xmalloc(sizeof(int) * SDK_NCAND);
    memset(L->group_of, 0xff, sizeof(int) * SDK_NCAND); /* -1: no group */

    /* The links among candidates (cand_edges_on/off) and those of the
     * group nodes go straight to their place at the end; the ALS links are
     * listed here (eb) first. */

    /* group nodes */
    gnode *gn = NULL;
    int ngn = 0;
    int gid[9][9][6]; /* per digit, box, segment: the group's index in gn, or -1 */
    if (flags & (SDK_LINKS_GROUPS | SDK_LINKS_ALS)) {
        memset(gid, 0xff, sizeof gid);
        gn = sdk_xmalloc(sizeof *gn * 9 * 9 * 6);
        for (int d = 1; d <= 9; d++)
            for (int b = 0; b < 9; b++) {
                int bh = 18 + b;
                for (int t = 0; t < 6; t++) {
                    int line = t < 3 ? (b / 3) * 3 + t : 9 + (b % 3) * 3 + (t - 3);
                    sdk_bb cells = sdk_bb_and(sdk_bb_and(sdk_house_bb[bh], sdk_house_bb[line]),
                                              g->digit[d - 1]);
                    if (sdk_bb_count(cells) < 2) continue;
                    int node = add_node(L, SDK_LN_GROUP, d, cells, -1);
                    if (node < 0) {
                        free(gn);
                        goto oom;
                    }
                    gid[d - 1][b][t] = ngn;
                    gn[ngn++] = (gnode){node, d, bh, line, cells, sdk_bb_none(), {-1, -1}};
                    SDK_BB_FOREACH(c, cells)
                        if (L->group_of[SDK_CAND_NODE(c, d)] < 0)
                            L->group_of[SDK_CAND_NODE(c, d)] = node;
                }
            }
    }
    /* The group nodes' own links, node by node (false, then true: gat[2i],
     * gat[2i + 1] start them in room->gedge), in the order the builder
     * first listed them: false: to the only bud cell of the rest of its box,
     * then of its line; to the only other group of the box, then of the
     * line, when the two hold every place of the digit there. True: to the
     * bud, then to the groups of its box and line that share no cell (in
     * group order). The candidates' links into groups, group by group, in
     * room->cg: from true to each group whose bud holds it, from false to
     * each group whose only bud cell of a box or line it is (at most 8
     * each: a cell in the bud of a group is in its box or on its line). */
    int gat[2 * 9 * 9 * 6 + 1];
    int ngedge = 0;
    if (flags & SDK_LINKS_GROUPS) {
        if (room->gedge_cap < ngn * 32 || !room->gedge) {
            free(room->gedge);
            room->gedge = sdk_xmalloc(sizeof(sdk_ledge) * (size_t)(ngn ? ngn * 32 : 1));
            room->gedge_cap = ngn * 32;
        }
        sdk_ledge *ge = room->gedge;
        if (!room->cg) {
            room->cg = sdk_xmalloc(sizeof *room->cg * 2 * SDK_NCAND);
            room->cgn = sdk_xmalloc(2 * SDK_NCAND);
        }
        sdk_ledge(*cg)[8] = room->cg;
        uint8_t *cgn = room->cgn;
        memset(cgn, 0, 2 * SDK_NCAND);
        for (int i = 0; i < ngn; i++) {
            gnode *a = &gn[i];
            a->bud = sdk_bb_and(sdk_common_peers(a->cells), g->digit[a->digit - 1]);
            int hs[2] = {a->box, a->line};
            for (int k = 0; k < 2; k++) {
                sdk_bb in = sdk_bb_and(a->bud, sdk_house_bb[hs[k]]);
                a->single[k] = sdk_bb_count(in) == 1 ? sdk_bb_first(in) : -1;
            }
        }
        for (int i = 0; i < ngn; i++) {
            const gnode *a = &gn[i];
            int d = a->digit, hs[2] = {a->box, a->line};
            /* the groups of the line's three boxes (all of a's box), in
             * group order */
            int cnt[2] = {0, 0}, one[2] = {-1, -1}, pair[16], npair = 0;
            int boxes[3], tline;
            if (a->line < 9) {
                for (int k = 0; k < 3; k++) boxes[k] = (a->line / 3) * 3 + k;
                tline = a->line % 3;
            } else {
                for (int k = 0; k < 3; k++) boxes[k] = (a->line - 9) / 3 + 3 * k;
                tline = 3 + (a->line - 9) % 3;
            }
            for (int k = 0; k < 3; k++) {
                int bb = boxes[k];
                bool own = 18 + bb == a->box;
                for (int t = own ? 0 : tline; t < (own ? 6 : tline + 1); t++) {
                    int j = gid[d - 1][bb][t];
                    if (j < 0 || j == i) continue;
                    const gnode *b = &gn[j];
                    bool same_line = b->line == a->line, same_box = b->box == a->box;
                    if (!(same_line || same_box)) continue;
                    if (!sdk_bb_empty(sdk_bb_and(a->cells, b->cells))) continue;
                    if (same_line && cnt[1]++ == 0) one[1] = j;
                    if (same_box && cnt[0]++ == 0) one[0] = j;
                    pair[npair++] = j;
                }
            }
            gat[2 * i] = ngedge;
            for (int k = 0; k < 2; k++)
                if (a->single[k] >= 0)
                    ge[ngedge++] =
                        (sdk_ledge){SDK_LIT(SDK_CAND_NODE(a->single[k], d), 1), SDK_LINK_GROUP, 1};
            for (int k = 0; k < 2; k++) {
                if (cnt[k] != 1) continue;
                const gnode *b = &gn[one[k]];
                sdk_bb rest = sdk_house_digit(g, hs[k], d);
                rest = sdk_bb_andnot(sdk_bb_andnot(rest, a->cells), b->cells);
                if (sdk_bb_empty(rest))
                    ge[ngedge++] = (sdk_ledge){SDK_LIT(b->node, 1), SDK_LINK_GROUP, 1};
            }
            gat[2 * i + 1] = ngedge;
            SDK_BB_FOREACH(c, a->bud)
                ge[ngedge++] = (sdk_ledge){SDK_LIT(SDK_CAND_NODE(c, d), 0), SDK_LINK_GROUP, 1};
            /* the candidates' links into the group (in group order) */
            SDK_BB_FOREACH(c, a->bud) {
                int lit = SDK_LIT(SDK_CAND_NODE(c, d), 1);
                cg[lit][cgn[lit]++] = (sdk_ledge){SDK_LIT(a->node, 0), SDK_LINK_GROUP, 1};
            }
            for (int k = 0; k < 2; k++)
                if (a->single[k] >= 0) {
                    int lit = SDK_LIT(SDK_CAND_NODE(a->single[k], d), 0);
                    cg[lit][cgn[lit]++] = (sdk_ledge){SDK_LIT(a->node, 1), SDK_LINK_GROUP, 1};
                }
            for (int p = 0; p < npair; p++)
                ge[ngedge++] = (sdk_ledge){SDK_LIT(gn[pair[p]].node, 0), SDK_LINK_GROUP, 1};
        }
        gat[2 * ngn] = ngedge;
    }
    if (!ok) {
        free(gn);
        goto oom;
    }

    /* ALS nodes */
    if (flags & SDK_LINKS_ALS) {
        sdk_als_opts ao = {2, 8};
        if (sdk_als_collect(g, &ao, &L->als) < 0) {
            free(gn);
            goto oom;
        }
        int na = L->als.n;
        int *alsnode = sdk_xmalloc(sizeof(int) * (size_t)na * 9);
        for (int i = 0; i < na * 9; i++) alsnode[i] = -1;
        sdk_bb elim[9];
        /* pass 1: create the nodes that have eliminations */
        for (int a = 0; a < na; a++) {
            const sdk_als *A = &L->als.als[a];
            SDK_MASK_FOREACH(j, A->digits) {
                bool any = false;
                SDK_MASK_FOREACH(k, A->digits) {
                    if (k == j) continue;
                    if (!sdk_bb_empty(sdk_bb_and(A->peers[k - 1], g->digit[k - 1]))) any = true;
                }
                if (!any) continue;
                int node = add_node(L, SDK_LN_ALS, j, A->cells, a);
                if (node < 0) {
                    free(alsnode);
                    free(gn);
                    goto oom;
                }
                L->node[node].cell = (uint8_t)sdk_bb_first(A->dcells[j - 1]);
                alsnode[a * 9 + j - 1] = node;
            }
        }
        /* pass 2: edges */
        for (int a = 0; a < na; a++) {
            const sdk_als *A = &L->als.als[a];
            int pen = sdk_links_als_penalty(A);
            SDK_MASK_FOREACH(j, A->digits) {
                int node = alsnode[a * 9 + j - 1];
                if (node < 0) continue;
                sdk_bb entry = sdk_bb_and(A->peers[j - 1], g->digit[j - 1]);
                SDK_BB_FOREACH(c, entry)
                    ok &= eb_add(&eb, SDK_LIT(SDK_CAND_NODE(c, j), 1), SDK_LIT(node, 0),
                                 SDK_LINK_ALS, 1);
                if (flags & SDK_LINKS_GROUPS)
                    for (int i = 0; i < ngn; i++) {
                        if (gn[i].digit != j) continue;
                        if (!sdk_bb_empty(sdk_bb_and(gn[i].cells, A->cells))) continue;
                        if (!sdk_bb_subset(gn[i].cells, entry)) continue;
                        ok &=
                            eb_add(&eb, SDK_LIT(gn[i].node, 1), SDK_LIT(node, 0), SDK_LINK_ALS, 1);
                    }
                for (int k = 0; k < 9; k++) elim[k] = sdk_bb_none();
                SDK_MASK_FOREACH(k, A->digits) {
                    if (k == j) continue;
                    elim[k - 1] = sdk_bb_and(A->peers[k - 1], g->digit[k - 1]);
                    SDK_BB_FOREACH(c, elim[k - 1])
                        ok &= eb_add(&eb, SDK_LIT(node, 0), SDK_LIT(SDK_CAND_NODE(c, k), 0),
                                     SDK_LINK_ALS, 1 + pen);
                    if (flags & SDK_LINKS_GROUPS)
                        for (int i = 0; i < ngn; i++) {
                            if (gn[i].digit != k || !sdk_bb_subset(gn[i].cells, elim[k - 1]))
                                continue;
                            ok &= eb_add(&eb, SDK_LIT(node, 0), SDK_LIT(gn[i].node, 0),
                                         SDK_LINK_ALS, 1 + pen);
                        }
                }
                for (int b = 0; b < na; b++) {
                    if (b == a) continue;
                    const sdk_als *B = &L->als.als[b];
                    if (sdk_als_overlap(A, B)) continue;
                    SDK_MASK_FOREACH(l, B->digits) {
                        int n2 = alsnode[b * 9 + l - 1];
                        if (n2 < 0 || sdk_bb_empty(elim[l - 1])) continue;
                        if (!sdk_bb_subset(B->dcells[l - 1], elim[l - 1])) continue;
                        ok &= eb_add(&eb, SDK_LIT(node, 0), SDK_LIT(n2, 0), SDK_LINK_ALS, 1 + pen);
                    }
                }
                /* forcings: a cell left with one candidate */
                sdk_bb bud = sdk_bb_none();
                for (int k = 0; k < 9; k++) bud = sdk_bb_or(bud, elim[k]);
                SDK_BB_FOREACH(c, bud) {
                    if (g->value[c] || sdk_mask_count(g->cand[c]) == 2) continue;
                    unsigned left = g->cand[c];
                    for (int k = 0; k < 9; k++)
                        if (sdk_bb_has(elim[k], c)) left &= ~(1u << k);
                    if (sdk_mask_count(left) == 1)
                        ok &= eb_add(&eb, SDK_LIT(node, 0),
                                     SDK_LIT(SDK_CAND_NODE(c, sdk_mask_first(left)), 1),
                                     SDK_LINK_ALS, 2 + pen);
                }
            }
        }
        free(alsnode);
    }
    if (!ok) {
        free(gn);
        goto oom;
    }

    /* CSR: per source literal in order, its links among candidates, then
     * its listed links in the order listed (a stable counting sort of eb:
     * ebat[lit] is where lit's start in ebsort) */
    room->eb = eb.v;
    room->eb_cap = eb.cap;
    int nlit = L->nnode * 2;
    if (room->first_cap < nlit + 1 || !L->first || !room->ebat) {
        free(L->first);
        L->first = sdk_xmalloc(sizeof(int) * ((size_t)nlit + 1));
        free(room->ebat);
        room->ebat = sdk_xmalloc(sizeof(int) * ((size_t)nlit + 1));
        room->first_cap = nlit + 1;
    }
    if (room->ebsort_cap < eb.n) {
        free(room->ebsort);
        room->ebsort = sdk_xmalloc(sizeof(sdk_ledge) * (size_t)eb.n);
        room->ebsort_cap = eb.n;
    }
    int *ebat = room->ebat;
    bool listed = eb.n > 0;
    if (listed) {
        memset(ebat, 0, sizeof(int) * ((size_t)nlit + 1));
        for (int i = 0; i < eb.n; i++) ebat[eb.v[i].from + 1]++;
        for (int i = 0; i < nlit; i++) ebat[i + 1] += ebat[i];
        for (int i = 0; i < eb.n; i++) room->ebsort[ebat[eb.v[i].from]++] = eb.v[i].e;
        /* ebat[lit] is now where lit + 1's start: lit's run is ebat[lit - 1]
         * .. ebat[lit] (from 0 for the first) */
    }
    /* room for every edge: a candidate has at most 8 cell links and 20
     * house links when true, 1 and 3 when false */
    int present = 0;
    for (int c = 0; c < SDK_CELLS; c++)
        if (!g->value[c]) present += sdk_mask_count(g->cand[c]);
    int need = present * 32 + eb.n + 2 * ngedge; /* a candidate's links into groups: */
    /* as many as the groups' into the bud and their only cells */
    if (room->edge_cap < need || !L->edge) {
        free(L->edge);
        L->edge = sdk_xmalloc(sizeof(sdk_ledge) * (size_t)(need ? need : 1));
        room->edge_cap = need ? need : 1;
    }
    /* the literals in order: the present candidates' (false, then true),
     * the absent ones' between them (no links), then the other nodes' */
    bool groups = flags & SDK_LINKS_GROUPS;
    int *first = L->first, at = 0, next = 0;
    for (int c = 0; c < SDK_CELLS; c++) {
        if (g->value[c]) continue;
        SDK_MASK_FOREACH(d, g->cand[c]) {
            int off = SDK_LIT(SDK_CAND_NODE(c, d), 0);
            if (!listed) /* the absent candidates' literals: no links */
                for (; next < off; next++) first[next] = at;
            for (; next < off; next++) {
                first[next] = at;
                at = listed_edges(room, next, L, at);
            }
            first[off] = at;
            if (plain && !listed && !(groups && room->cgn[off])) {
                /* the false literal has no links past those among
                 * candidates: its and the true one's, one run in plain */
                int from = plain->first[off], mid = plain->first[off + 1],
                    to = plain->first[off + 2];
                memcpy(L->edge + at, plain->edge + from, sizeof(sdk_ledge) * (size_t)(to - from));
                first[off + 1] = at + (mid - from);
                at += to - from;
                if (groups) at = group_edges_of(room, off + 1, L, at);
                next = off + 2;
                continue;
            }
            if (plain)
                at = plain_edges(plain, off, L, at);
            else
                at += cand_edges_off(g, c, d, L->edge + at);
            if (groups) at = group_edges_of(room, off, L, at);
            if (listed) at = listed_edges(room, off, L, at);
            first[off + 1] = at;
            if (plain)
                at = plain_edges(plain, off + 1, L, at);
            else
                at += cand_edges_on(g, c, d, L->edge + at);
            if (groups) at = group_edges_of(room, off + 1, L, at);
            if (listed) at = listed_edges(room, off + 1, L, at);
            next = off + 2;
        }
    }
    for (; next < nlit; next++) {
        first[next] = at;
        int i = next / 2 - SDK_NCAND; /* a group node: gn[i] */
        if (groups && i >= 0 && i < ngn) {
            int from = gat[next - 2 * SDK_NCAND], to = gat[next - 2 * SDK_NCAND + 1];
            memcpy(L->edge + at, room->gedge + from, sizeof(sdk_ledge) * (size_t)(to - from));
            at += to - from;
        }
        if (listed) at = listed_edges(room, next, L, at);
    }
    free(gn);
    first[nlit] = at;
    L->nedge = at;
    return true;
oom:
    room->eb = eb.v;
    room->eb_cap = eb.cap;
    sdk_links_free(L);
    room->first_cap = room->edge_cap = 0;
    room->cand_nodes = false;
    return false;
}

void sdk_links_free(sdk_links *L)
{
    free(L->node);
    free(L->first);
    free(L->edge);
    free(L->group_of);
    sdk_als_list_free(&L->als);
    memset(L, 0, sizeof *L);
}
