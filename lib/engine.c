/* engine.c - the seed rule of the sudokilo program, on a profile of ordered
 * techniques: try each technique in order; as soon as one yields a step, apply
 * it and start again from the first; when none yields, a last-resort technique
 * may act (unless no_guess), else stop "stuck". Rating (ER/EP/ED, HoDoKu-style
 * score and level) is gathered on the way. Also the services a technique may
 * call back (propagate) and the hint search. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sudoku/alloc.h"
#include "sudoku/engine.h"
#include "hodoku.h"
#include "prop_memo.h"

/* ---- profiles ----------------------------------------------------------- */

static const sdk_options no_options;

static bool same_options(const sdk_options *a, const sdk_options *b)
{
    if (a->n != b->n) return false;
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->kv[i].key, b->kv[i].key) || strcmp(a->kv[i].val, b->kv[i].val)) return false;
    return true;
}

void sdk_profile_add(sdk_profile *p, const sdk_technique *t, const sdk_options *opts,
                     int difficulty, const char *source)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 16;
        p->entry = sdk_xrealloc(p->entry, sizeof *p->entry * (size_t)p->cap);
    }
    sdk_entry *e = &p->entry[p->n++];
    memset(e, 0, sizeof *e);
    e->tech = t;
    e->opts = &no_options;
    if (opts && opts->n > 0) { /* entries with the same options share them */
        for (int k = 0; k < p->n - 1 && e->opts == &no_options; k++)
            if (p->entry[k].own_opts && same_options(p->entry[k].opts, opts))
                e->opts = p->entry[k].opts;
        if (e->opts == &no_options) {
            sdk_options *own = sdk_xmalloc(sizeof *own);
            *own = *opts;
            e->opts = own;
            e->own_opts = true;
        }
    }
    e->difficulty = difficulty >= 0 ? difficulty : t->difficulty;
    size_t sl = source ? strlen(source) : 0;
    e->source = sdk_xmalloc(sl + 1);
    if (sl) memcpy(e->source, source, sl);
    e->source[sl] = 0;
    for (int i = 0; i < e->opts->n; i++) { /* engine options (plugins ignore them) */
        const char *k = e->opts->kv[i].key, *v = e->opts->kv[i].val;
        if (!strcmp(k, "group")) snprintf(e->group, sizeof e->group, "%s", v);
        if (!strcmp(k, "scan") && sdk_scan_parse(v) > 0) e->scan = sdk_scan_parse(v);
        if (strcmp(k, "pick")) continue;
        if (sdk_pick_parse(v) >= 0) e->pick = sdk_pick_parse(v);
    }
}

int sdk_pick_parse(const char *text)
{
    static const char *const names[] = {
        [SDK_PICK_FIRST] = "first",      [SDK_PICK_BEST] = "best",
        [SDK_PICK_EASIEST] = "easiest",  [SDK_PICK_DIGIT] = "digit",
        [SDK_PICK_TABLING] = "tabling",  [SDK_PICK_NS_QUEUE] = "ns-queue",
        [SDK_PICK_HS_QUEUE] = "hs-queue"};
    for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
        if (!strcmp(text, names[i])) return i;
    return -1;
}

int sdk_scan_parse(const char *text)
{
    return !strcmp(text, "step") ? SDK_SCAN_STEP : !strcmp(text, "grid") ? SDK_SCAN_GRID : -1;
}

void sdk_profile_free(sdk_profile *p)
{
    for (int i = 0; i < p->n; i++) {
        if (p->entry[i].own_opts) free((void *)p->entry[i].opts);
        free(p->entry[i].source);
    }
    free(p->entry);
    p->entry = NULL;
    p->n = p->cap = 0;
}

int sdk_profile_find(const sdk_profile *p, const char *id)
{
    for (int i = 0; i < p->n; i++)
        if (strcmp(p->entry[i].tech->id, id) == 0) return i;
    return -1;
}

/* ---- running techniques ------------------------------------------------- */

static bool allowed(const sdk_profile *p, const sdk_entry *e, const sdk_run_opts *o)
{
    if ((e->tech->flags & SDK_TF_UNIQUENESS) && (p->no_uniqueness || !(o && o->unique)))
        return false;
    if (o && o->only) {
        for (int i = 0; i < o->nonly; i++)
            if (strcmp(o->only[i], e->tech->id) == 0) return true;
        return false;
    }
    return true;
}

static sdk_prop propagate(const sdk_ctx *ctx, sdk_grid *g, int max_steps, sdk_prop_result *res);
static sdk_prop propagate_steps(const sdk_ctx *ctx, sdk_grid *g, int max_steps,
                                sdk_prop_result *res, sdk_sink *applied);
static bool consistent_after(const sdk_grid *g, const sdk_step *s);

/* What a find() runs in; ctx->engine points here (opaque to plugins), so
 * that propagate finds the profile, the observer and who called it (a
 * plugin may lower ctx->position to propagate with fewer techniques). */
typedef struct engine_frame {
    const sdk_profile *p;
    const sdk_observer *obs;
    int entry;          /* the entry whose find() runs in this frame (-1: none yet) */
    unsigned long call; /* which public call (run, find, hint) of this thread */
} engine_frame;

static _Thread_local unsigned long engine_calls; /* public calls so far */

static engine_frame frame_of(const sdk_profile *p, const sdk_run_opts *o)
{
    return (engine_frame){p, o ? o->observer : NULL, -1, ++engine_calls};
}

/* Run entry i's find() with the context the engine gives it, telling the
 * observer; f is the frame of the caller (f->entry called propagate, or -1). */
static int run_find(const engine_frame *f, int i, const sdk_grid *g, const sdk_run_opts *o,
                    int depth, sdk_sink *sink)
{
    const sdk_entry *e = &f->p->entry[i];
    engine_frame inner = {f->p, f->obs, i, f->call};
    sdk_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.self = e->tech;
    ctx.opts = e->opts;
    ctx.unique = o && o->unique;
    ctx.propagate = propagate;
    ctx.propagate_steps = propagate_steps;
    ctx.engine = &inner;
    ctx.position = i;
    ctx.depth = depth;
    const sdk_observer *obs = f->obs;
    if (obs && obs->enter) obs->enter(obs->arg, f->p, i, depth);
    int rc = e->tech->find(&ctx, g, sink);
    if (obs && obs->leave) obs->leave(obs->arg, f->p, i, depth, f->entry);
    return rc;
}

/* A sink that keeps the first step and stops. */
typedef struct first_sink {
    sdk_step *step;
    bool got;
} first_sink;

static int keep_first(void *c, const sdk_step *s)
{
    first_sink *f = c;
    sdk_step_copy(f->step, s);
    f->got = true;
    return SDK_STOP;
}

/* Run entry i; on success *out holds its step with the entry's difficulty. */
static bool find_one(const engine_frame *fr, int i, const sdk_grid *g, const sdk_run_opts *o,
                     int depth, sdk_step *out)
{
    first_sink f = {out, false};
    sdk_sink sink = {keep_first, &f};
    run_find(fr, i, g, o, depth, &sink);
    const sdk_entry *e = &fr->p->entry[i];
    if (f.got) out->difficulty += e->difficulty - e->tech->difficulty;
    return f.got;
}

/* A sink that keeps the best step by the entry's pick rule (hodoku.h). */
typedef struct choose_sink {
    sdk_step *best;
    const sdk_hq *hq;
    int pick, rank, delta;
    bool got, taken; /* taken: this entry's search improved on the best */
} choose_sink;

static int rank_of(const choose_sink *c, const sdk_step *s)
{
    if (!c->hq || c->pick < SDK_PICK_NS_QUEUE) return 0;
    return c->pick == SDK_PICK_NS_QUEUE ? sdk_hq_rank_ns(c->hq, s) : sdk_hq_rank_hs(c->hq, s);
}

/* The digit a one-digit step (a fish) eliminates or places. */
static int step_digit(const sdk_step *s)
{
    return s->nelim ? s->elim[0].digit : s->nplace ? s->place[0].digit : 10;
}

static int keep_best(void *ctx, const sdk_step *s)
{
    choose_sink *c = ctx;
    int r = rank_of(c, s);
    if (c->got) { /* keep the best so far unless s beats it */
        bool worse = c->pick == SDK_PICK_BEST      ? !sdk_hodoku_better(s, c->best)
                     : c->pick == SDK_PICK_TABLING ? !sdk_hodoku_better_tabling(s, c->best)
                     : c->pick == SDK_PICK_EASIEST ? s->difficulty + c->delta >= c->best->difficulty
                     : c->pick == SDK_PICK_DIGIT   ? step_digit(s) >= step_digit(c->best)
                                                   : r >= c->rank;
        if (worse) return SDK_CONTINUE;
    }
    sdk_step_copy(c->best, s);
    c->best->difficulty += c->delta;
    c->rank = r;
    c->got = c->taken = true;
    return SDK_CONTINUE;
}

/* Entries i..j (one group): every step of each, the best by the first
 * entry's pick rule into *out. Returns the entry that found it, or -1. */
static int find_best(const engine_frame *fr, int i, int j, const sdk_grid *g, const sdk_run_opts *o,
                     const sdk_hq *hq, sdk_step *out)
{
    const sdk_profile *p = fr->p;
    choose_sink c = {out, hq, p->entry[i].pick, 0, 0, false, false};
    sdk_sink sink = {keep_best, &c};
    int who = -1;
    for (int k = i; k <= j; k++) {
        if (!allowed(p, &p->entry[k], o)) continue;
        c.delta = p->entry[k].difficulty - p->entry[k].tech->difficulty;
        c.taken = false;
        run_find(fr, k, g, o, 0, &sink);
        if (c.taken) who = k;
    }
    return who;
}

/* Adjusts difficulty of every step sent on to the real sink. */
typedef struct adjust_sink {
    sdk_sink *next;
    int delta;
    int count;
    sdk_step *scratch; /* the adjusted copy, when delta != 0 */
} adjust_sink;

static int adjust(void *c, const sdk_step *s)
{
    adjust_sink *a = c;
    a->count++;
    if (a->delta == 0) return a->next->emit(a->next->ctx, s);
    if (!a->scratch) a->scratch = sdk_xmalloc(sizeof *a->scratch); /* once per find */
    sdk_step_copy(a->scratch, s);
    a->scratch->difficulty += a->delta;
    return a->next->emit(a->next->ctx, a->scratch);
}

int sdk_engine_find(const sdk_profile *p, int i, const sdk_grid *g, const sdk_run_opts *o,
                    sdk_sink *sink)
{
    engine_frame fr = frame_of(p, o);
    adjust_sink a = {sink, p->entry[i].difficulty - p->entry[i].tech->difficulty, 0, NULL};
    sdk_sink s = {adjust, &a};
    run_find(&fr, i, g, o, 0, &s);
    free(a.scratch);
    return a.count;
}

/* The first step of the profile in order (last-resort techniques only when
 * nothing else yields and guessing is allowed). Returns the entry index or -1. */
static int next_step(const engine_frame *fr, const sdk_grid *g, const sdk_run_opts *o, int limit,
                     int depth, const sdk_hq *hq, sdk_step *out)
{
    const sdk_profile *p = fr->p;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < limit; i++) {
            const sdk_entry *e = &p->entry[i];
            bool last = e->tech->flags & SDK_TF_LAST_RESORT;
            if (last != (pass == 1)) continue;
            if (depth == 0 && (e->pick || e->group[0])) { /* HoDoKu's choice, top level only */
                int j = i;
                while (e->group[0] && j + 1 < limit && !strcmp(p->entry[j + 1].group, e->group))
                    j++;
                int who = find_best(fr, i, j, g, o, hq, out);
                if (who >= 0) return who;
                i = j;
                continue;
            }
            if (!allowed(p, e, o)) continue;
            if (depth > 0 && (e->tech->flags & (SDK_TF_USES_ENGINE | SDK_TF_LAST_RESORT))) continue;
            if (find_one(fr, i, g, o, depth, out)) return i;
        }
        if (o && o->no_guess) break;
    }
    return -1;
}

static sdk_prop propagate(const sdk_ctx *ctx, sdk_grid *g, int max_steps, sdk_prop_result *res)
{
    return propagate_steps(ctx, g, max_steps, res, NULL);
}

static sdk_prop propagate_steps(const sdk_ctx *ctx, sdk_grid *g, int max_steps,
                                sdk_prop_result *res, sdk_sink *applied)
{
    const engine_frame *fr = ctx->engine;
    sdk_run_opts o = {.no_guess = true, .unique = ctx->unique, .observer = fr->obs};
    sdk_step *step = sdk_xmalloc(sizeof *step);
    sdk_prop_result local;
    if (!res) res = &local;
    memset(res, 0, sizeof *res);
    sdk_prop out = SDK_PROP_STUCK;
    /* the same propagation from the same grid before: its steps (prop_memo.h) */
    prop_key key = {fr->call, fr->p, ctx->position, ctx->depth, max_steps, ctx->unique};
    int nkept = 0;
    const sdk_step *const *kept = prop_memo_find(&key, g, &nkept);
    int rec = kept ? -1 : prop_memo_begin(&key, g);
    bool ok = sdk_grid_check(g, res->why, sizeof res->why);
    for (;;) {
        if (!ok) {
            sdk_grid_check(g, res->why, sizeof res->why);
            out = SDK_PROP_CONTRADICTION;
            break;
        }
        if (sdk_grid_solved(g)) {
            out = SDK_PROP_SOLVED;
            break;
        }
        if (max_steps && res->steps >= max_steps) break;
        const sdk_step *s = step;
        if (kept) {
            if (res->steps == nkept) break;
            s = kept[res->steps];
        } else if (next_step(fr, g, &o, ctx->position, ctx->depth + 1, NULL, step) < 0) {
            prop_memo_keep(rec); /* stuck: nothing more found */
            break;
        }
        if (applied && applied->emit(applied->ctx, s) == SDK_STOP) break;
        prop_memo_add(rec, s);
        sdk_step_apply(s, g);
        ok = consistent_after(g, s);
        res->steps++;
    }
    free(step);
    res->outcome = out;
    return out;
}

/* Is the grid still consistent where step s touched it? Only the cells and
 * (house, digit) pairs a step can break are looked at, so that checking after
 * every step costs far less than the step; sdk_grid_check() then says what
 * broke. */
static bool consistent_after(const sdk_grid *g, const sdk_step *s)
{
    uint32_t houses[10] = {0}; /* per digit: houses to look at */
    sdk_bb cells = sdk_bb_none(), placed[10];
    memset(placed, 0, sizeof placed);
    SDK_BB_FOREACH(c, g->solved) sdk_bb_add(&placed[g->value[c]], c);
    for (int i = 0; i < s->nplace; i++) {
        int c = s->place[i].cell, d = s->place[i].digit;
        for (int k = 0; k < 3; k++) {
            sdk_bb in = sdk_bb_and(sdk_house_bb[sdk_cell_house[c][k]], placed[d]);
            if ((in.lo & (in.lo - 1)) || (in.hi & (in.hi - 1)) || (in.lo && in.hi)) return false;
        }
        cells = sdk_bb_or(cells, sdk_peer_bb[c]);
        for (int e = 1; e <= 9; e++) /* c's other digits lost a place */
            for (int k = 0; k < 3; k++) houses[e] |= 1u << sdk_cell_house[c][k];
        for (int j = 0; j < 20; j++)
            for (int k = 0; k < 3; k++) houses[d] |= 1u << sdk_cell_house[sdk_cell_peer[c][j]][k];
    }
    for (int i = 0; i < s->nelim; i++) {
        int c = s->elim[i].cell, d = s->elim[i].digit;
        sdk_bb_add(&cells, c);
        for (int k = 0; k < 3; k++) houses[d] |= 1u << sdk_cell_house[c][k];
    }
    SDK_BB_FOREACH(c, cells)
        if (!g->value[c] && !g->cand[c]) return false;
    for (int d = 1; d <= 9; d++) {
        sdk_bb where = sdk_bb_or(g->digit[d - 1], placed[d]);
        for (uint32_t m = houses[d]; m; m &= m - 1)
            if (sdk_bb_empty(sdk_bb_and(sdk_house_bb[__builtin_ctz(m)], where))) return false;
    }
    return true;
}

static void rate_step(sdk_rating *r, const sdk_step *s, const sdk_technique *t, bool *placed)
{
    if (s->difficulty > r->er) {
        r->er = s->difficulty;
        r->hardest = t;
    }
    if (r->steps == 0) {
        r->ed = s->difficulty;
        r->diamond = t;
    }
    if (!*placed && s->difficulty > r->ep) {
        r->ep = s->difficulty;
        r->pearl = t;
    }
    if (s->nplace) *placed = true;
    r->score += t->score;
    if (t->level > r->level) r->level = t->level;
    r->steps++;
}

/* HoDoKu's level: the highest level of the steps used, promoted while the
 * score passes the level's maximum (Easy 800, Medium 1000, Hard 1600, Unfair
 * 1800); a puzzle the profile leaves stuck is Extreme. */
static void hodoku_level(sdk_rating *r)
{
    static const int max_score[] = {0, 800, 1000, 1600, 1800};
    if (r->status == SDK_RUN_STUCK) {
        r->level = SDK_LEVEL_EXTREME;
        return;
    }
    if (r->level < SDK_LEVEL_EASY) r->level = SDK_LEVEL_EASY;
    while (r->level < SDK_LEVEL_EXTREME && r->score > max_score[r->level]) r->level++;
}

/* What a run carries from step to step. */
typedef struct run_state {
    const sdk_profile *p;
    sdk_grid *g;
    const sdk_run_opts *o;
    sdk_step_fn on_step;
    void *ctx;
    sdk_rating *rating;
    sdk_hq *hq;
    bool placed;
} run_state;

/* Apply step s of entry i: rate it, apply it, tell on_step. Returns -1 to go
 * on, else the status the run ends with. */
static int take_step(run_state *rs, int i, const sdk_step *s)
{
    sdk_grid before = *rs->g;
    if (rs->hq) sdk_hq_apply(rs->hq, s);
    rate_step(rs->rating, s, rs->p->entry[i].tech, &rs->placed);
    sdk_step_apply(s, rs->g);
    bool ok = consistent_after(rs->g, s);
    if (sdk_bb_eq(before.solved, rs->g->solved) &&
        memcmp(before.cand, rs->g->cand, sizeof rs->g->cand) == 0)
        return SDK_RUN_STUCK; /* a step that changes nothing would loop forever: a plugin bug */
    if (rs->on_step && rs->on_step(rs->ctx, s, &before)) return SDK_RUN_LIMIT;
    return ok ? -1 : SDK_RUN_BROKEN;
}

static int scan_of(const sdk_profile *p, int i)
{
    const sdk_entry *e = &p->entry[i];
    if (e->tech->flags & SDK_TF_LAST_RESORT) return SDK_SCAN_STEP;
    int scan = e->scan ? e->scan : p->scan;
    return scan ? scan : SDK_SCAN_STEP;
}

/* Every step one find() sends, in order (at most SCAN_MAX: a scan that finds
 * more leaves the rest to the technique's next turn). */
#define SCAN_MAX 512
typedef struct all_sink {
    sdk_step *s;
    int n, cap;
} all_sink;

static int keep_all(void *c, const sdk_step *s)
{
    all_sink *a = c;
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 8;
        a->s = sdk_xrealloc(a->s, sizeof *a->s * (size_t)a->cap);
    }
    sdk_step_copy(&a->s[a->n++], s);
    return a->n < SCAN_MAX ? SDK_CONTINUE : SDK_STOP;
}

/* Cut step s down to what it still does on g: eliminations of candidates
 * still there, placements in empty cells; its text's " => effect" is
 * rewritten to match. Returns false when s now contradicts g (a placement
 * where another digit stands or the digit is gone: the grid was not sound). */
static bool still_does(sdk_step *s, const sdk_grid *g)
{
    char was[512], now[512];
    sdk_step_effect(s, was, sizeof was);
    int np = 0, ne = 0;
    for (int k = 0; k < s->nplace; k++) {
        int c = s->place[k].cell, d = s->place[k].digit;
        if (g->value[c] == d) continue;
        if (g->value[c] || !sdk_grid_has(g, c, d)) return false;
        s->place[np++] = s->place[k];
    }
    for (int k = 0; k < s->nelim; k++)
        if (!g->value[s->elim[k].cell] && sdk_grid_has(g, s->elim[k].cell, s->elim[k].digit))
            s->elim[ne++] = s->elim[k];
    if (np == s->nplace && ne == s->nelim) return true;
    s->nplace = (uint16_t)np;
    s->nelim = (uint16_t)ne;
    size_t tl = strlen(s->text), wl = strlen(was);
    if (tl >= wl + 4 && !strcmp(s->text + tl - wl, was) &&
        !strncmp(s->text + tl - wl - 4, " => ", 4))
        snprintf(s->text + tl - wl, sizeof s->text - (tl - wl), "%s",
                 sdk_step_effect(s, now, sizeof now));
    return true;
}

/* scan = grid: the other instances entry i finds in the position `at` (where
 * its first step was found and has been applied since), each cut to what it
 * still does on the grid reached. Returns -1 to go on, else the run's end. */
static int take_rest(run_state *rs, int i, const sdk_grid *at, const sdk_step *first)
{
    all_sink all = {NULL, 0, 0};
    sdk_sink sink = {keep_all, &all};
    sdk_engine_find(rs->p, i, at, rs->o, &sink);
    int rc = -1;
    for (int k = 0; k < all.n && rc < 0; k++) {
        sdk_step *s = &all.s[k];
        if (!strcmp(s->text, first->text)) continue;
        if (sdk_grid_solved(rs->g)) break;
        if (rs->o && rs->o->max_steps && rs->rating->steps >= rs->o->max_steps) break;
        if (!still_does(s, rs->g))
            rc = SDK_RUN_BROKEN;
        else if (!sdk_step_empty(s))
            rc = take_step(rs, i, s);
    }
    free(all.s);
    return rc;
}

sdk_run_status sdk_engine_run(const sdk_profile *p, sdk_grid *g, const sdk_run_opts *o,
                              sdk_step_fn on_step, void *ctx, sdk_rating *rating)
{
    sdk_rating local;
    if (!rating) rating = &local;
    memset(rating, 0, sizeof *rating);
    sdk_step *step = sdk_xmalloc(sizeof *step);
    sdk_grid *at = NULL; /* scan = grid: the position the step was found in */
    char why[256];
    int st = sdk_grid_check(g, why, sizeof why) ? -1 : SDK_RUN_BROKEN;
    engine_frame fr = frame_of(p, o);
    run_state rs = {p, g, o, on_step, ctx, rating, NULL, false};
    for (int i = 0; i < p->n && !rs.hq; i++) /* HoDoKu's singles queues, when picked from */
        if (p->entry[i].pick >= SDK_PICK_NS_QUEUE) {
            rs.hq = sdk_xmalloc(sizeof *rs.hq);
            sdk_hq_init(rs.hq, g);
        }
    while (st < 0) {
        if (sdk_grid_solved(g)) {
            st = SDK_RUN_SOLVED;
            break;
        }
        if (o && o->max_steps && rating->steps >= o->max_steps) {
            st = SDK_RUN_LIMIT;
            break;
        }
        int i = next_step(&fr, g, o, p->n, 0, rs.hq, step);
        if (i < 0) {
            st = SDK_RUN_STUCK;
            break;
        }
        bool grid = scan_of(p, i) == SDK_SCAN_GRID;
        if (grid) {
            if (!at) at = sdk_xmalloc(sizeof *at);
            *at = *g;
        }
        st = take_step(&rs, i, step);
        if (st < 0 && grid) st = take_rest(&rs, i, at, step);
    }
    free(step);
    free(at);
    free(rs.hq);
    rating->status = st;
    hodoku_level(rating);
    return (sdk_run_status)st;
}

int sdk_engine_hint(const sdk_profile *p, const sdk_grid *g, const sdk_run_opts *o, bool all,
                    sdk_sink *sink)
{
    if (all) {
        int count = 0;
        for (int i = 0; i < p->n; i++) {
            if (!allowed(p, &p->entry[i], o)) continue;
            if ((p->entry[i].tech->flags & SDK_TF_LAST_RESORT) && o && o->no_guess) continue;
            count += sdk_engine_find(p, i, g, o, sink);
        }
        return count;
    }
    engine_frame fr = frame_of(p, o);
    sdk_step *step = sdk_xmalloc(sizeof *step);
    int i = next_step(&fr, g, o, p->n, 0, NULL, step);
    if (i >= 0) sink->emit(sink->ctx, step);
    free(step);
    return i >= 0;
}

const char *sdk_level_name(int level)
{
    static const char *names[] = {"none", "easy", "medium", "hard", "unfair", "extreme"};
    return level >= 0 && level <= SDK_LEVEL_EXTREME ? names[level] : "none";
}

const char *sdk_run_status_name(int status)
{
    static const char *names[] = {"solved", "stuck", "broken", "limit"};
    return status >= 0 && status <= SDK_RUN_LIMIT ? names[status] : "unknown";
}

const char *sdk_difficulty_text(int tenths, char *buf)
{
    snprintf(buf, 8, "%d.%d", tenths / 10 % 1000, tenths % 10);
    return buf;
}
