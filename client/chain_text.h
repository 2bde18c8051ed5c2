/* chain_text.h - a step's chain links as branches a reader can check, written
 * in Eureka notation.
 *
 * A step carries its chains as one flat list of links (from -> to). A forcing
 * chain or net is several chains from one premise: each is a run of links
 * where every link starts where the one before it ended. chain_branches()
 * finds those runs; chain_eureka() writes one of them the way players write
 * chains: nodes as (digit)cells, "=" for a strong link, "-" for a weak one,
 * and nodes in the same cells folded into one: (2-8)r2c9=(8)r2c8-... */
#ifndef SUDOCTL_CHAIN_TEXT_H
#define SUDOCTL_CHAIN_TEXT_H

#include <stdbool.h>
#include <stdio.h>
#include <msgpack.h>

typedef struct chain_branch {
    int start, end; /* links [start, end) of the step's "links" array */
} chain_branch;

/* The branches of a step's links (at most max); returns how many. */
int chain_branches(const msgpack_object *step, chain_branch *out, int max);

/* Links [start, end) of the step as Eureka text; returns buf. */
char *chain_eureka(const msgpack_object *step, int start, int end, char *buf, size_t n);

/* The node a branch ends on, as "r2c7<>9" / "r2c7=9" (what it proves under
 * its premise); returns buf ("" when unknown). */
char *chain_branch_end(const msgpack_object *step, const chain_branch *b, char *buf, size_t n);

#endif
