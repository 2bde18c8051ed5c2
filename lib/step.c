/* step.c - building step records (the helpers plugins call), writing their
 * effect in HoDoKu notation, and applying a step to a grid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "sudoku/alloc.h"
#include "sudoku/technique.h"

/* ---- scratch steps (technique.h) -----------------------------------------
 *
 * Per thread, SDK_SCRATCH_STEPS steps for every nesting depth of propagate
 * (ctx->depth): a find at depth d that calls propagate runs finds at d + 1,
 * so no two finds running at once on a thread share a step. A depth's steps
 * are mapped the first time it is used and kept for the thread's life (a
 * few depths of 4 steps: some 48 KiB each); the table of depths grows by
 * pointers, so steps in use never move.
 *
 * Mapped, not malloc'd: a block that never goes away, malloc'd in the middle
 * of a run, moves where the heap's free space lies, and glibc then gives back
 * and takes again the pages of the large short-lived buffers of the chaining
 * searches (brk trims, page faults): top1465 rated 24% slower that way. */
static __thread sdk_step **scratch_at; /* scratch_at[depth]: SDK_SCRATCH_STEPS steps */
static __thread int scratch_depths;

static sdk_step *scratch_block(void)
{
    size_t n = sizeof(sdk_step) * SDK_SCRATCH_STEPS;
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "sdk_scratch_step: out of memory mapping %zu bytes\n", n);
        abort();
    }
    return p;
}

sdk_step *sdk_scratch_step(const sdk_ctx *ctx, int k)
{
    if (k < 0 || k >= SDK_SCRATCH_STEPS) {
        fprintf(stderr, "sdk_scratch_step: step %d of %s asked for, there are %d (0..%d)\n", k,
                ctx->self && ctx->self->id ? ctx->self->id : "a technique", SDK_SCRATCH_STEPS,
                SDK_SCRATCH_STEPS - 1);
        abort();
    }
    int d = ctx->depth > 0 ? ctx->depth : 0;
    if (d >= scratch_depths) {
        int n = d + 4;
        scratch_at = sdk_xrealloc(scratch_at, sizeof *scratch_at * (size_t)n);
        for (int i = scratch_depths; i < n; i++) scratch_at[i] = NULL;
        scratch_depths = n;
    }
    if (!scratch_at[d]) scratch_at[d] = scratch_block();
    return &scratch_at[d][k];
}

void sdk_step_init(sdk_step *s, const sdk_technique *t)
{
    s->tech = t;
    s->difficulty = t ? t->difficulty : 0;
    s->nplace = s->nelim = s->nmark = s->nlink = 0;
    s->nhouse = 0;
    s->truncated = 0;
    s->text_final = 0;
    s->text[0] = 0;
    s->ninner = s->nclaim = 0;
    s->inner_text_len = 0;
}

void sdk_step_copy(sdk_step *d, const sdk_step *s)
{
    d->tech = s->tech;
    d->difficulty = s->difficulty;
    d->nplace = s->nplace;
    d->nelim = s->nelim;
    d->nmark = s->nmark;
    d->nlink = s->nlink;
    d->nhouse = s->nhouse;
    d->truncated = s->truncated;
    d->text_final = s->text_final;
    memcpy(d->place, s->place, sizeof *s->place * s->nplace);
    memcpy(d->elim, s->elim, sizeof *s->elim * s->nelim);
    memcpy(d->mark, s->mark, sizeof *s->mark * s->nmark);
    memcpy(d->house, s->house, sizeof *s->house * s->nhouse);
    memcpy(d->link, s->link, sizeof *s->link * s->nlink);
    size_t n = strnlen(s->text, SDK_STEP_TEXT - 1);
    memcpy(d->text, s->text, n);
    d->text[n] = 0;
    d->ninner = s->ninner;
    d->nclaim = s->nclaim;
    d->inner_text_len = s->inner_text_len;
    memcpy(d->claim, s->claim, sizeof *s->claim * s->nclaim);
    memcpy(d->inner, s->inner, sizeof *s->inner * s->ninner);
    memcpy(d->inner_text, s->inner_text, s->inner_text_len);
}

int sdk_step_inner(sdk_step *s, const sdk_step *inner)
{
    size_t len = strlen(inner->text) + 1;
    if (s->ninner >= SDK_STEP_MAX_INNER || s->inner_text_len + len > SDK_STEP_INNER_TEXT) {
        s->truncated = 1;
        return -1;
    }
    sdk_inner *in = &s->inner[s->ninner];
    memset(in, 0, sizeof *in);
    in->tech = inner->tech;
    in->text = s->inner_text_len;
    memcpy(s->inner_text + s->inner_text_len, inner->text, len);
    s->inner_text_len = (uint16_t)(s->inner_text_len + len);
    int n = 0;
    for (int i = 0; i < inner->nplace && n < SDK_INNER_MAX_EFFECT; i++, in->nplace++)
        in->effect[n++] = inner->place[i];
    for (int i = 0; i < inner->nelim && n < SDK_INNER_MAX_EFFECT; i++, in->nelim++)
        in->effect[n++] = inner->elim[i];
    in->truncated = in->nplace < inner->nplace || in->nelim < inner->nelim || inner->truncated;
    return s->ninner++;
}

void sdk_step_claim(sdk_step *s, int cell, int digit, bool place, uint64_t steps)
{
    if (s->nclaim >= SDK_STEP_MAX_CLAIM) {
        s->truncated = 1;
        return;
    }
    s->claim[s->nclaim++] = (sdk_claim){{(uint8_t)cell, (uint8_t)digit}, place, steps};
}

const char *sdk_step_inner_text(const sdk_step *s, int i)
{
    return s->inner_text + s->inner[i].text;
}

void sdk_step_elim(sdk_step *s, int cell, int digit)
{
    for (int i = 0; i < s->nelim; i++)
        if (s->elim[i].cell == cell && s->elim[i].digit == digit) return;
    if (s->nelim >= SDK_STEP_MAX_ELIM) {
        s->truncated = 1;
        return;
    }
    s->elim[s->nelim++] = (sdk_cand){(uint8_t)cell, (uint8_t)digit};
}

void sdk_step_place(sdk_step *s, int cell, int digit)
{
    for (int i = 0; i < s->nplace; i++)
        if (s->place[i].cell == cell) return;
    if (s->nplace >= SDK_STEP_MAX_PLACE) {
        s->truncated = 1;
        return;
    }
    s->place[s->nplace++] = (sdk_cand){(uint8_t)cell, (uint8_t)digit};
}

int sdk_step_elim_bb(sdk_step *s, const sdk_grid *g, sdk_bb cells, int digit)
{
    sdk_bb hit = sdk_bb_and(cells, g->digit[digit - 1]);
    SDK_BB_FOREACH(c, hit) sdk_step_elim(s, c, digit);
    return sdk_bb_count(hit);
}

void sdk_step_mark(sdk_step *s, int cell, int digit, sdk_role role)
{
    if (s->nmark >= SDK_STEP_MAX_MARK) {
        s->truncated = 1;
        return;
    }
    s->mark[s->nmark++] = (sdk_mark){(uint8_t)cell, (uint8_t)digit, (uint8_t)role};
}

void sdk_step_mark_bb(sdk_step *s, sdk_bb cells, int digit, sdk_role role)
{
    SDK_BB_FOREACH(c, cells) sdk_step_mark(s, c, digit, role);
}

void sdk_step_house(sdk_step *s, int house, sdk_role role)
{
    if (s->nhouse >= SDK_STEP_MAX_HOUSE) {
        s->truncated = 1;
        return;
    }
    s->house[s->nhouse++] = (sdk_house_mark){(uint8_t)house, (uint8_t)role};
}

void sdk_step_link(sdk_step *s, const sdk_link *l)
{
    if (s->nlink >= SDK_STEP_MAX_LINK) {
        s->truncated = 1;
        return;
    }
    s->link[s->nlink++] = *l;
}

void sdk_step_vprintf(sdk_step *s, const char *fmt, va_list ap)
{
    size_t len = strlen(s->text);
    if (len + 1 >= sizeof s->text) return;
    vsnprintf(s->text + len, sizeof s->text - len, fmt, ap);
}

void sdk_step_printf(sdk_step *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sdk_step_vprintf(s, fmt, ap);
    va_end(ap);
}

bool sdk_step_empty(const sdk_step *s)
{
    return s->nplace == 0 && s->nelim == 0;
}

/* Append to buf at *len, never past n. */
static void put(char *buf, size_t n, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
    if (*len + 1 >= n) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *len, n - *len, fmt, ap);
    va_end(ap);
    if (k > 0) *len = *len + (size_t)k < n ? *len + (size_t)k : n - 1;
}

/* Write a set of cells the way HoDoKu does: grouped by row when that is
 * shorter ("r2c46"), else by column ("r25c4"), joined by commas. */
char *sdk_cells_compact(sdk_bb cells, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    /* Greedy: take the lowest cell, gather the cells of its row that share no
     * other grouping, and print them as one token; simple and readable. */
    sdk_bb left = cells;
    bool first = true;
    while (!sdk_bb_empty(left)) {
        int c = sdk_bb_first(left);
        sdk_bb row = sdk_bb_and(left, sdk_house_bb[sdk_row(c)]);
        sdk_bb col = sdk_bb_and(left, sdk_house_bb[9 + sdk_col(c)]);
        put(buf, n, &len, "%s", first ? "" : ",");
        first = false;
        if (sdk_bb_count(col) > sdk_bb_count(row)) {
            put(buf, n, &len, "r");
            SDK_BB_FOREACH(x, col) put(buf, n, &len, "%d", sdk_row(x) + 1);
            put(buf, n, &len, "c%d", sdk_col(c) + 1);
            left = sdk_bb_andnot(left, col);
        } else {
            put(buf, n, &len, "r%dc", sdk_row(c) + 1);
            SDK_BB_FOREACH(x, row) put(buf, n, &len, "%d", sdk_col(x) + 1);
            left = sdk_bb_andnot(left, row);
        }
    }
    return buf;
}

char *sdk_node_cells(const sdk_node *nd, char *buf, size_t n)
{
    sdk_bb b = sdk_bb_none();
    for (int i = 0; i < nd->ncell && i < 3; i++) sdk_bb_add(&b, nd->cell[i]);
    return sdk_cells_compact(b, buf, n);
}

char *sdk_step_effect(const sdk_step *s, char *buf, size_t n)
{
    size_t len = 0;
    char cells[256];
    buf[0] = 0;
    for (int i = 0; i < s->nplace; i++) {
        char name[8];
        put(buf, n, &len, "%s%s=%d", i ? ", " : "", sdk_cell_name(s->place[i].cell, name),
            s->place[i].digit);
    }
    bool first = s->nplace == 0;
    for (int d = 1; d <= 9; d++) {
        sdk_bb b = sdk_bb_none();
        for (int i = 0; i < s->nelim; i++)
            if (s->elim[i].digit == d) sdk_bb_add(&b, s->elim[i].cell);
        if (sdk_bb_empty(b)) continue;
        put(buf, n, &len, "%s%s<>%d", first ? "" : ", ", sdk_cells_compact(b, cells, sizeof cells),
            d);
        first = false;
    }
    return buf;
}

int sdk_emit(sdk_sink *sink, sdk_step *s)
{
    if (sdk_step_empty(s)) return SDK_CONTINUE;
    if (!s->text_final) {
        char eff[512];
        sdk_step_printf(s, " => %s", sdk_step_effect(s, eff, sizeof eff));
        s->text_final = 1;
    }
    return sink->emit(sink->ctx, s);
}

void sdk_step_apply(const sdk_step *s, sdk_grid *g)
{
    for (int i = 0; i < s->nplace; i++)
        if (!g->value[s->place[i].cell])
            sdk_grid_place(g, s->place[i].cell, s->place[i].digit, false);
    for (int i = 0; i < s->nelim; i++) sdk_grid_eliminate(g, s->elim[i].cell, s->elim[i].digit);
}
