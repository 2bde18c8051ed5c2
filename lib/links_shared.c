/* links_shared.c - the link graphs of the last positions, per thread, for
 * the plugins that search them.
 *
 * The grouped AICs and nice loops (chains plugin) and the static forcing
 * chains and kraken fish (forcing plugin) build the same graph of a
 * position (group nodes, ALS nodes when asked): the engine's ladder runs
 * them one after the other on a position whenever the techniques between
 * find nothing. A graph depends only on the position (values, candidates)
 * and the link flags, so each thread keeps the last graph per flags (a few
 * slots: plain, grouped, grouped with ALS) and hands it to whoever asks for
 * the same position again: one build instead of one per plugin.
 *
 * The graph belongs to the cache: a caller reads it during its find and
 * asks again in the next one (the slot may have been rebuilt for another
 * position meanwhile; `serial` tells a caller that keeps work sized on the
 * graph, such as a search buffer, whether it is still the graph it had).
 * A slot rebuilt for another position keeps its memory (links_rebuild).
 * The plain graph of a position usually comes first (AICs and nice loops
 * before their grouped kinds): a grouped graph built after it copies its
 * links among candidates, the same links, rather than making them again.
 * Each thread's slots are freed when the thread ends, or when the host
 * releases the caches (sudoku/cache.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/alloc.h"
#include "sudoku/cache.h"
#include "sudoku/links.h"
#include "links_build.h"
#include "thread_cache.h"

#define SLOTS 4

typedef struct shared_slot {
    bool used;
    unsigned flags;
    uint8_t value[SDK_CELLS];
    uint16_t cand[SDK_CELLS];
    sdk_links L;
    links_room room; /* L's arrays are refilled when the slot is rebuilt */
    uint64_t serial;
} shared_slot;

typedef struct shared_links {
    shared_slot slot[SLOTS];
    int victim; /* the slot replaced next when none is free */
} shared_links;

static void shared_free(void *p)
{
    shared_links *c = p;
    for (int i = 0; i < SLOTS; i++) {
        sdk_links_free(&c->slot[i].L);
        links_room_free(&c->slot[i].room);
    }
    free(c);
}

static void shared_release(void);
static thread_cache tc = {.destroy = shared_free, .release = shared_release};
static _Thread_local shared_links *mine;
/* Serials handed out: outside the slots, so that a graph built after the
 * host released them (sudoku/cache.h) never gets the serial of one a
 * caller still keeps (forcing's search buffer is made again by serial). */
static _Thread_local uint64_t builds;

static void shared_release(void)
{
    thread_cache_drop(&tc, mine);
    mine = NULL;
}

static shared_links *cache(void)
{
    if (!mine) mine = thread_cache_new(&tc, sizeof *mine);
    return mine;
}

const sdk_links *sdk_links_shared(const sdk_grid *g, unsigned flags, uint64_t *serial)
{
    shared_links *c = cache();
    shared_slot *s = NULL;
    for (int i = 0; i < SLOTS && !s; i++)
        if (c->slot[i].used && c->slot[i].flags == flags) s = &c->slot[i];
    if (s && !memcmp(s->value, g->value, sizeof s->value) &&
        !memcmp(s->cand, g->cand, sizeof s->cand)) {
        if (serial) *serial = s->serial;
        return &s->L;
    }
    for (int i = 0; i < SLOTS && !s; i++)
        if (!c->slot[i].used) s = &c->slot[i];
    if (!s) {
        s = &c->slot[c->victim];
        c->victim = (c->victim + 1) % SLOTS;
    }
    /* a grouped graph takes the links among candidates from the plain
     * graph of the position when a slot holds it (links_rebuild_from) */
    const sdk_links *plain = NULL;
    for (int i = 0; i < SLOTS && flags && !plain; i++) {
        const shared_slot *p = &c->slot[i];
        if (p != s && p->used && p->flags == 0 && !memcmp(p->value, g->value, sizeof p->value) &&
            !memcmp(p->cand, g->cand, sizeof p->cand))
            plain = &p->L;
    }
    s->used = false;
    if (!links_rebuild_from(g, flags, &s->L, &s->room, plain)) return NULL;
    s->used = true;
    s->flags = flags;
    memcpy(s->value, g->value, sizeof s->value);
    memcpy(s->cand, g->cand, sizeof s->cand);
    s->serial = ++builds;
    if (serial) *serial = s->serial;
    return &s->L;
}
