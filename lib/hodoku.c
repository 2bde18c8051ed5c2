/* hodoku.c - HoDoKu's singles queues and its order of steps (see hodoku.h).
 *
 * The queues replay HoDoKu's grid bookkeeping change by change: setting a
 * cell removes the digit from its peers in cell order (each removal may leave
 * a cell with one candidate, or a house with one place for the digit), then
 * takes the cell's own candidates out of its three houses. An entry is live
 * while its cell is empty and still holds the digit; dead entries are skipped,
 * as HoDoKu's getSingle() drops them.
 */
#include <limits.h>
#include <string.h>
#include "hodoku.h"

static void push(sdk_hq_entry *queue, int *n, const uint8_t *value, int cell, int digit)
{
    if (*n == SDK_HQ_MAX) { /* full: drop the entries of set cells */
        int k = 0;
        for (int i = 0; i < *n; i++)
            if (!value[queue[i].cell]) queue[k++] = queue[i];
        *n = k;
        if (k == SDK_HQ_MAX) return;
    }
    queue[*n].cell = (uint8_t)cell;
    queue[*n].digit = (uint8_t)digit;
    (*n)++;
}

/* HoDoKu's addHiddenSingle: the first cell of the house holding the digit. */
static void add_hidden(sdk_hq *q, int house, int digit)
{
    for (int i = 0; i < 9; i++) {
        int c = sdk_house_cell[house][i];
        if (q->cand[c] & (1u << digit)) {
            push(q->hs, &q->nhs, q->value, c, digit);
            return;
        }
    }
}

/* HoDoKu's deleteHiddenSingle: the first entry of the digit in the house. */
static void drop_hidden(sdk_hq *q, int house, int digit)
{
    for (int i = 0; i < q->nhs; i++) {
        int c = q->hs[i].cell;
        if (q->hs[i].digit == digit &&
            (sdk_cell_house[c][0] == house || sdk_cell_house[c][1] == house ||
             sdk_cell_house[c][2] == house)) {
            memmove(&q->hs[i], &q->hs[i + 1], sizeof *q->hs * (size_t)(q->nhs - i - 1));
            q->nhs--;
            return;
        }
    }
}

static void del_cand(sdk_hq *q, int cell, int digit)
{
    if (!(q->cand[cell] & (1u << digit))) return;
    q->cand[cell] &= (uint16_t) ~(1u << digit);
    if (!q->cand[cell]) return; /* broken grid */
    if (sdk_mask_count(q->cand[cell]) == 1)
        push(q->ns, &q->nns, q->value, cell, __builtin_ctz(q->cand[cell]));
    for (int k = 0; k < 3; k++) {
        int h = sdk_cell_house[cell][k];
        int left = --q->free[h][digit];
        if (left == 1)
            add_hidden(q, h, digit);
        else if (left == 0)
            drop_hidden(q, h, digit);
    }
}

static void set_cell(sdk_hq *q, int cell, int digit)
{
    if (q->value[cell]) return;
    uint16_t had = q->cand[cell];
    q->value[cell] = (uint8_t)digit;
    q->cand[cell] = 0;
    for (int c = 0; c < 81; c++) /* peers in cell order */
        if (c != cell && (sdk_cell_house[c][0] == sdk_cell_house[cell][0] ||
                          sdk_cell_house[c][1] == sdk_cell_house[cell][1] ||
                          sdk_cell_house[c][2] == sdk_cell_house[cell][2]))
            del_cand(q, c, digit);
    for (int d = 1; d <= 9; d++) {
        if (!(had & (1u << d))) continue;
        for (int k = 0; k < 3; k++) {
            int h = sdk_cell_house[cell][k];
            int left = --q->free[h][d];
            if (left == 1 && d != digit) add_hidden(q, h, d);
        }
    }
}

void sdk_hq_init(sdk_hq *q, const sdk_grid *g)
{
    memset(q, 0, sizeof *q);
    for (int c = 0; c < 81; c++) q->cand[c] = 0x3fe;
    for (int h = 0; h < 27; h++)
        for (int d = 1; d <= 9; d++) q->free[h][d] = 9;
    for (int c = 0; c < 81; c++)
        if (g->value[c]) set_cell(q, c, g->value[c]);
    for (int c = 0; c < 81; c++)
        if (!g->value[c])
            for (int d = 1; d <= 9; d++)
                if (!sdk_grid_has(g, c, d)) del_cand(q, c, d);
}

void sdk_hq_apply(sdk_hq *q, const sdk_step *s)
{
    for (int i = 0; i < s->nplace; i++) set_cell(q, s->place[i].cell, s->place[i].digit);
    for (int i = 0; i < s->nelim; i++) del_cand(q, s->elim[i].cell, s->elim[i].digit);
}

static bool live(const sdk_hq *q, const sdk_hq_entry *e)
{
    return !q->value[e->cell] && (q->cand[e->cell] & (1u << e->digit));
}

static int rank(const sdk_hq *q, const sdk_hq_entry *queue, int n, const sdk_step *s)
{
    if (s->nplace != 1 || s->nelim) return INT_MAX;
    for (int i = 0; i < n; i++)
        if (live(q, &queue[i]) && queue[i].cell == s->place[0].cell &&
            queue[i].digit == s->place[0].digit)
            return i;
    return INT_MAX;
}

int sdk_hq_rank_ns(const sdk_hq *q, const sdk_step *s)
{
    return rank(q, q->ns, q->nns, s);
}

int sdk_hq_rank_hs(const sdk_hq *q, const sdk_step *s)
{
    return rank(q, q->hs, q->nhs, s);
}

/* The eliminations as cell*10+digit, in that order. */
static int elim_keys(const sdk_step *s, int *key)
{
    int n = s->nelim;
    for (int i = 0; i < n; i++) key[i] = s->elim[i].cell * 10 + s->elim[i].digit;
    for (int i = 1; i < n; i++) /* insertion sort: small lists */
        for (int j = i; j > 0 && key[j - 1] > key[j]; j--) {
            int t = key[j];
            key[j] = key[j - 1];
            key[j - 1] = t;
        }
    return n;
}

/* HoDoKu's getIndexSumme over the eliminations in cell, digit order. */
static long index_sum(const sdk_step *s)
{
    int key[SDK_STEP_MAX_ELIM], n = elim_keys(s, key);
    long sum = 0, offset = 1;
    for (int i = 0; i < n; i++, offset += 80) sum += (key[i] / 10) * offset + key[i] % 10;
    return sum;
}

/* The sum of the placed cells' indices (HoDoKu's getSumme over a step's
 * indices). */
static int place_sum(const sdk_step *s)
{
    int sum = 0;
    for (int i = 0; i < s->nplace; i++) sum += s->place[i].cell;
    return sum;
}

bool sdk_hodoku_better(const sdk_step *a, const sdk_step *b)
{
    if (a->nplace != b->nplace) return a->nplace > b->nplace;
    if (a->nplace) { /* placements: lower cells first, then the shorter chain */
        int pa = place_sum(a), pb = place_sum(b);
        if (pa != pb) return pa < pb;
        return a->nlink < b->nlink;
    }
    if (a->nelim != b->nelim) return a->nelim > b->nelim;
    long sa = index_sum(a), sb = index_sum(b);
    if (sa != sb) return sa < sb;
    return a->nlink < b->nlink;
}

bool sdk_hodoku_better_tabling(const sdk_step *a, const sdk_step *b)
{
    if (a->nplace != b->nplace) return a->nplace > b->nplace;
    if (a->nplace) return sdk_hodoku_better(a, b);
    if (a->nelim != b->nelim) return a->nelim > b->nelim;
    int ka[SDK_STEP_MAX_ELIM], kb[SDK_STEP_MAX_ELIM], n = elim_keys(a, ka);
    elim_keys(b, kb);
    for (int i = 0; i < n; i++)
        if (ka[i] != kb[i]) return ka[i] < kb[i];
    return a->nlink < b->nlink;
}
