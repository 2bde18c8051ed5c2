/* templates.c - Template Set and Template Delete (HoDoKu). A template of a
 * digit is one placement of it in all nine rows, columns and boxes. Every
 * template still compatible with the grid is enumerated per digit; templates
 * that would cover a cell some other digit must take (it lies in all that
 * digit's templates) are dropped, repeatedly. A cell in every remaining
 * template takes the digit (set); a candidate in none loses it (delete). */
#include <stdlib.h>
#include "sudoku/alloc.h"
#include "sudoku/technique.h"

static int find_templates(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static const bool set_kind = true, delete_kind = false; /* data: place (set) or eliminate */

static const sdk_technique template_set = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "template-set",
    .name = "Template Set",
    .difficulty = 76,
    .score = 10000,
    .level = SDK_LEVEL_EXTREME,
    .find = find_templates,
    .data = &set_kind,
    .summary = "a cell in every possible placement pattern of a digit takes it",
};
static const sdk_technique template_delete = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "template-delete",
    .name = "Template Delete",
    .difficulty = 76,
    .score = 10000,
    .level = SDK_LEVEL_EXTREME,
    .find = find_templates,
    .data = &delete_kind,
    .summary = "a candidate in no possible placement pattern of its digit goes",
};

SDK_PLUGIN(&template_set, &template_delete)

typedef struct tlist {
    int n, cap;
    sdk_bb *t;
} tlist;

typedef struct walk {
    const sdk_grid *g;
    int d;
    tlist *out;
    bool oom;
} walk;

/* Rows 0..8 in turn: choose a column where d fits (its cell holds d or has d
 * as a candidate), with its column and box still free. */
static void enumerate(walk *w, int row, unsigned cols, unsigned boxes, sdk_bb acc)
{
    if (row == 9) {
        tlist *l = w->out;
        if (l->n == l->cap) {
            int cap = l->cap ? l->cap * 2 : 256;
            sdk_bb *p = sdk_xrealloc(l->t, sizeof *p * (size_t)cap);
            l->t = p;
            l->cap = cap;
        }
        l->t[l->n++] = acc;
        return;
    }
    for (int c = 0; c < 9; c++) {
        int cell = row * 9 + c, box = sdk_box(cell);
        if (cols >> c & 1 || boxes >> box & 1) continue;
        if (w->g->value[cell] ? w->g->value[cell] != w->d : !sdk_grid_has(w->g, cell, w->d))
            continue;
        sdk_bb next = acc;
        sdk_bb_add(&next, cell);
        enumerate(w, row + 1, cols | 1u << c, boxes | 1u << box, next);
        if (w->oom) return;
    }
}

/* must[d-1]: cells in every template; may[d-1]: cells in some template.
 * Returns false when a digit has no template (broken grid) or memory ran out. */
static bool templates(const sdk_grid *g, sdk_bb must[9], sdk_bb may[9])
{
    tlist l[9] = {{0, 0, NULL}};
    bool ok = true;
    for (int d = 1; d <= 9 && ok; d++) {
        walk w = {g, d, &l[d - 1], false};
        enumerate(&w, 0, 0, 0, sdk_bb_none());
        ok = !w.oom && l[d - 1].n > 0;
    }
    for (int removed = 1; ok && removed;) {
        removed = 0;
        for (int j = 0; j < 9 && ok; j++) {
            must[j] = (sdk_bb){~0ULL, (1ULL << 17) - 1};
            may[j] = sdk_bb_none();
            int k = 0;
            for (int i = 0; i < l[j].n; i++) {
                sdk_bb t = l[j].t[i];
                bool clash = false;
                for (int o = 0; o < 9 && !clash; o++)
                    clash = o != j && !sdk_bb_empty(sdk_bb_and(t, must[o]));
                if (clash) {
                    removed++;
                    continue;
                }
                must[j] = sdk_bb_and(must[j], t);
                may[j] = sdk_bb_or(may[j], t);
                l[j].t[k++] = t;
            }
            l[j].n = k;
            ok = k > 0;
        }
    }
    for (int d = 0; d < 9; d++) free(l[d].t);
    return ok;
}

static int find_templates(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    bool set = *(const bool *)ctx->self->data;
    sdk_bb must[9], may[9];
    /* must[] starts "everything" for digits not yet computed in the first pass */
    for (int d = 0; d < 9; d++) must[d] = sdk_bb_none();
    if (!templates(g, must, may)) return SDK_CONTINUE;
    for (int d = 1; d <= 9; d++) {
        sdk_step *s = sdk_scratch_step(ctx, 0);
        sdk_step_init(s, set ? &template_set : &template_delete);
        if (set) {
            sdk_bb cells = sdk_bb_andnot(must[d - 1], g->solved);
            if (sdk_bb_empty(cells)) continue;
            SDK_BB_FOREACH(c, cells) sdk_step_place(s, c, d);
            sdk_step_mark_bb(s, cells, d, SDK_ROLE_TARGET);
        } else {
            sdk_bb cells = sdk_bb_andnot(g->digit[d - 1], may[d - 1]);
            if (sdk_bb_empty(cells)) continue;
            sdk_step_elim_bb(s, g, cells, d);
        }
        sdk_step_printf(s, "%s: %d", set ? template_set.name : template_delete.name, d);
        if (sdk_emit(sink, s) == SDK_STOP) return SDK_STOP;
    }
    return SDK_CONTINUE;
}
