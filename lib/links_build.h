/* links_build.h - building a link graph again in the memory of an earlier
 * one (links.c), for links_shared.c's per-thread slots. Not installed. */
#ifndef SUDOKU_LINKS_BUILD_H
#define SUDOKU_LINKS_BUILD_H

#include "sudoku/links.h"

/* What a graph's rebuild keeps besides the graph: the builder's edge list
 * and the sizes of the graph's arrays (sdk_links records only the nodes'). */
typedef struct links_room {
    void *eb;
    int eb_cap;
    int first_cap, edge_cap; /* also ebat's size: first_cap */
    int *ebat;               /* per source literal: where its listed links go */
    sdk_ledge *ebsort;       /* the listed links sorted by source */
    int ebsort_cap;
    sdk_ledge *gedge; /* the group nodes' own links, node by node */
    int gedge_cap;
    sdk_ledge (*cg)[8]; /* per candidate literal: its links into group nodes */
    uint8_t *cgn;       /* their count */
    bool cand_nodes;    /* L->node starts with the 729 candidate nodes */
} links_room;

/* sdk_links_build() into L, which holds a graph made by this function with
 * the same room, or is zeroed (room then zeroed too): its arrays are
 * reused. The same graph as sdk_links_build(). On failure L is freed (and
 * zeroed) as by sdk_links_free(). */
bool links_rebuild(const sdk_grid *g, unsigned flags, sdk_links *L, links_room *room);
/* The same, with the links among candidates copied from `plain` (NULL:
 * made here), a graph of the same position (values and candidates) built
 * with flags 0: a candidate literal's links there are exactly those, and
 * any graph lists them first for the literal, before its links into group
 * and ALS nodes. Not L itself. */
bool links_rebuild_from(const sdk_grid *g, unsigned flags, sdk_links *L, links_room *room,
                        const sdk_links *plain);
void links_room_free(links_room *room);

#endif
