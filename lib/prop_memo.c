/* prop_memo.c - short stuck propagations, kept per thread (prop_memo.h).
 *
 * A few slots; each holds the key and grid a propagation started from and
 * copies of the steps it applied. A slot is marked valid only when its
 * propagation got stuck within PROP_MEMO_STEPS steps, so a lookup never sees
 * one being recorded (or abandoned). A recording takes a slot holding
 * nothing, else the one kept or replayed longest ago. Each thread's slots are
 * made when it first records and freed when it ends, or when the host
 * releases the caches (sudoku/cache.h): the next recording starts empty. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/alloc.h"
#include "sudoku/cache.h"
#include "prop_memo.h"
#include "thread_cache.h"

#define PROP_MEMO_SLOTS 8
#define PROP_MEMO_STEPS 8

typedef struct prop_slot {
    bool valid, full;   /* full: more steps than it can hold */
    int handle;         /* of the recording that wrote it last (prop_memo_begin) */
    unsigned long used; /* when last kept or replayed (the oldest goes first) */
    prop_key key;
    uint8_t value[SDK_CELLS], given[SDK_CELLS];
    uint16_t cand[SDK_CELLS];
    int n;
    sdk_step *step[PROP_MEMO_STEPS]; /* made when first needed, kept */
} prop_slot;

typedef struct prop_memo {
    prop_slot slot[PROP_MEMO_SLOTS];
    unsigned long clock; /* counts keeps and replays */
    int handles;         /* recordings begun (a handle tells its slot and itself) */
} prop_memo;

static void memo_free(void *p)
{
    prop_memo *m = p;
    for (int i = 0; i < PROP_MEMO_SLOTS; i++)
        for (int j = 0; j < PROP_MEMO_STEPS; j++) free(m->slot[i].step[j]);
    free(m);
}

static void memo_release(void);
static thread_cache tc = {.destroy = memo_free, .release = memo_release};
static _Thread_local prop_memo *mine;
static bool enabled = true;
static _Thread_local unsigned long replays;

unsigned long prop_memo_replays(void)
{
    return replays;
}

static void memo_release(void)
{
    thread_cache_drop(&tc, mine);
    mine = NULL;
}

static prop_memo *memo(void)
{
    if (!mine) mine = thread_cache_new(&tc, sizeof *mine);
    return mine;
}

void prop_memo_enable(bool on)
{
    enabled = on;
}

static bool same_key(const prop_key *a, const prop_key *b)
{
    return a->call == b->call && a->profile == b->profile && a->position == b->position &&
           a->depth == b->depth && a->max_steps == b->max_steps && a->unique == b->unique;
}

static bool same_grid(const prop_slot *s, const sdk_grid *g)
{
    return !memcmp(s->cand, g->cand, sizeof s->cand) &&
           !memcmp(s->value, g->value, sizeof s->value) &&
           !memcmp(s->given, g->given, sizeof s->given);
}

const sdk_step *const *prop_memo_find(const prop_key *k, const sdk_grid *g, int *n)
{
    if (!enabled || !mine) return NULL;
    for (int i = 0; i < PROP_MEMO_SLOTS; i++) {
        prop_slot *s = &mine->slot[i];
        if (s->valid && same_key(&s->key, k) && same_grid(s, g)) {
            s->used = ++mine->clock;
            replays++;
            *n = s->n;
            return (const sdk_step *const *)s->step;
        }
    }
    return NULL;
}

int prop_memo_begin(const prop_key *k, const sdk_grid *g)
{
    if (!enabled) return -1;
    prop_memo *m = memo();
    int i = 0; /* a slot holding nothing, else the one used longest ago */
    for (int j = 1; j < PROP_MEMO_SLOTS && m->slot[i].valid; j++)
        if (!m->slot[j].valid || m->slot[j].used < m->slot[i].used) i = j;
    prop_slot *s = &m->slot[i];
    m->handles = (m->handles + 1) & 0xffffff;
    s->handle = m->handles * PROP_MEMO_SLOTS + i;
    s->valid = s->full = false;
    s->key = *k;
    memcpy(s->value, g->value, sizeof s->value);
    memcpy(s->given, g->given, sizeof s->given);
    memcpy(s->cand, g->cand, sizeof s->cand);
    s->n = 0;
    return s->handle;
}

/* The slot a handle recorded in, when no later recording took it. */
static prop_slot *recording(int handle)
{
    if (handle < 0 || !mine) return NULL;
    prop_slot *s = &mine->slot[handle % PROP_MEMO_SLOTS];
    return s->handle == handle ? s : NULL;
}

void prop_memo_add(int handle, const sdk_step *st)
{
    prop_slot *s = recording(handle);
    if (!s) return;
    if (s->full || s->n == PROP_MEMO_STEPS) {
        s->full = true;
        return;
    }
    if (!s->step[s->n]) s->step[s->n] = sdk_xmalloc(sizeof(sdk_step));
    sdk_step_copy(s->step[s->n++], st);
}

void prop_memo_keep(int handle)
{
    prop_slot *s = recording(handle);
    if (s && !s->full) {
        s->valid = true;
        s->used = ++mine->clock;
    }
}
