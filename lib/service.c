/* service.c - executing one request in-process: params map in, result map out
 * (solve, rate, explain, hint, techniques, trace), as docs/PROTOCOL.md says.
 * Also the probe that tells a watching daemon which technique is running. */
#include "sudoku/service.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sudoku/alloc.h"
#include "sudoku/links.h"
#include "sudoku/solver.h"
#include "service_generate.h"

#define MAX_PUZZLE_TEXT 65536
#define DEFAULT_MAX_TRACE 100000
#define MAX_MAX_TRACE 2000000

/* ---- the probe: an engine observer that names the running technique ----- */

/* What the observer needs: the probe, and the probe's index of every entry
 * of every profile of the config. On the heap, so that copies of the
 * sdk_service struct share it (one probe, one running technique: a watch
 * serves one thread, as its probe does). */
struct sdk_probe_watch {
    sdk_service_probe *probe;
    const sdk_config *cfg;
    int32_t **index; /* [profile][entry] */
    /* the profile of the last find and its row of index (NULL: not one of
     * the config's); told twice per find, so looked up once per change */
    const sdk_profile *last;
    const int32_t *last_row;
};

/* p's row of the index: one of the config's profiles (known by its
 * address: a profile made for one request, e.g. hint --technique outside
 * the profile, is not, and gets NULL). */
static const int32_t *probe_row(const sdk_probe_watch *w, const sdk_profile *p)
{
    for (int k = 0; k < w->cfg->nprofile; k++)
        if (&w->cfg->profile[k] == p) return w->index[k];
    return NULL;
}

/* The cache of the last profile holds only the config's profiles' rows,
 * which live as long as the watch; a request's own profile (whose address
 * a later one may reuse) is looked up by technique id every time. */
static int32_t probe_index(sdk_probe_watch *w, const sdk_profile *p, int i)
{
    if (p != w->last) {
        w->last = p;
        w->last_row = probe_row(w, p);
    }
    if (i < 0 || i >= p->n) return -1;
    if (w->last_row) return w->last_row[i];
    const char *id = p->entry[i].tech ? p->entry[i].tech->id : NULL;
    for (int32_t k = 0; id && k < w->probe->nid && k < SDK_PROBE_MAX; k++)
        if (!strcmp(w->probe->id[k], id)) return k;
    return -1;
}

static void probe_enter(void *arg, const sdk_profile *p, int entry, int depth)
{
    (void)depth;
    sdk_probe_watch *w = arg;
    w->probe->current = probe_index(w, p, entry);
}

static void probe_leave(void *arg, const sdk_profile *p, int entry, int depth, int outer)
{
    (void)entry, (void)depth;
    sdk_probe_watch *w = arg;
    w->probe->current = outer >= 0 ? probe_index(w, p, outer) : -1;
}

const char *sdk_service_probe_current(const sdk_service_probe *probe)
{
    int32_t k = probe->current;
    if (k < 0 || k >= probe->nid || k >= SDK_PROBE_MAX) return NULL;
    return probe->id[k];
}

/* The probe index of a technique id, added when new; -1 when the probe is full. */
static int32_t probe_id(sdk_service_probe *probe, const char *id)
{
    for (int32_t k = 0; k < probe->nid; k++)
        if (strcmp(probe->id[k], id) == 0) return k;
    if (probe->nid == SDK_PROBE_MAX) return -1;
    snprintf(probe->id[probe->nid], SDK_PROBE_ID, "%s", id);
    return probe->nid++;
}

bool sdk_service_init(sdk_service *sv, const sdk_config *cfg, sdk_service_probe *probe,
                      sdk_error *err)
{
    memset(sv, 0, sizeof *sv);
    sv->cfg = cfg;
    if (!probe) return true;
    probe->nid = 0;
    probe->current = -1;
    sdk_probe_watch *w = sdk_xcalloc(1, sizeof *w);
    w->probe = probe;
    w->cfg = cfg;
    w->index = sdk_xcalloc(cfg->nprofile > 0 ? (size_t)cfg->nprofile : 1, sizeof *w->index);
    sv->probe = probe;
    sv->watch = w;
    sv->observer = (sdk_observer){probe_enter, probe_leave, w};
    for (int i = 0; i < cfg->nprofile; i++) {
        const sdk_profile *p = &cfg->profile[i];
        w->index[i] = sdk_xcalloc(p->n > 0 ? (size_t)p->n : 1, sizeof(int32_t));
        for (int e = 0; e < p->n; e++) {
            const char *id = p->entry[e].tech->id;
            int32_t k = probe_id(probe, id ? id : "?");
            if (k < 0) {
                sdk_error_set(err, SDK_E_INTERNAL, "more than %d techniques to watch",
                              SDK_PROBE_MAX);
                sdk_service_free(sv);
                return false;
            }
            w->index[i][e] = k;
        }
    }
    return true;
}

void sdk_service_free(sdk_service *sv)
{
    sdk_probe_watch *w = sv->watch;
    if (w) {
        for (int i = 0; i < w->cfg->nprofile; i++) free(w->index[i]);
        free(w->index);
        free(w);
    }
    memset(sv, 0, sizeof *sv);
}

/* ---- requests ------------------------------------------------------------ */

enum method { M_SOLVE, M_RATE, M_EXPLAIN, M_HINT, M_TECHNIQUES, M_TRACE, M_GENERATE };
static const char *const method_names[] = {"solve",      "rate",  "explain", "hint",
                                           "techniques", "trace", "generate"};

struct sdk_request {
    enum method m;
    const sdk_profile *profile;   /* from the config (names, descriptors) */
    const sdk_observer *observer; /* the service's probe (NULL: none) */
    bool no_guess, logic, trace, all;
    bool passes;  /* explain: also the seed 004 program's pass count */
    bool timing;  /* rate: the time each puzzle took (`time`) */
    bool compact; /* solve: a unique plain answer as [solution, guesses] */
    long max_trace;
    const msgpack_object *puzzle;  /* str */
    const msgpack_object *puzzles; /* array of str */
    int nonly;
    const char **only;
    char *only_buf;
    sdk_profile ext; /* the profile plus techniques named that it lacks (ext.n > 0) */
    /* trace: the assumption cell=digit (on) or cell<>digit, ALS links */
    int a_cell, a_digit;
    bool a_on, als, gnpx;
    char a_text[16];      /* normalised: "r2c2=1" / "r2c2<>1" */
    sdk_gen_request *gen; /* generate: the target and budget */
    long gen_first;       /* generate: the index of item 0 */
};

static bool method_from(const char *s, size_t n, enum method *m)
{
    for (size_t i = 0; i < sizeof method_names / sizeof *method_names; i++)
        if (strlen(method_names[i]) == n && memcmp(method_names[i], s, n) == 0) {
            *m = (enum method)i;
            return true;
        }
    return false;
}

static bool known_key(enum method m, const msgpack_object *k)
{
    if (m == M_TECHNIQUES) /* a list of the profile's (all: every loaded) techniques */
        return sdk_wire_str_is(k, "profile") || sdk_wire_str_is(k, "progress") ||
               sdk_wire_str_is(k, "all");
    static const char *const keys[] = {"puzzle",     "puzzles",  "profile", "no_guess",
                                       "techniques", "all",      "logic",   "trace",
                                       "max_trace",  "progress", "passes"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (sdk_wire_str_is(k, keys[i])) return true;
    if (m == M_TRACE && (sdk_wire_str_is(k, "assumption") || sdk_wire_str_is(k, "als") ||
                         sdk_wire_str_is(k, "gnpx")))
        return true;
    if (m == M_GENERATE && sdk_gen_known_key(k)) return true;
    if (m == M_RATE && sdk_wire_str_is(k, "timing")) return true;
    if (m == M_SOLVE && sdk_wire_str_is(k, "compact")) return true;
    return false;
}

/* "r2c2=1" or "r2c2<>1" (case and blanks around the operator ignored) into
 * rq->a_*. False with a bad-request error saying what, where and why. */
static bool parse_assumption(sdk_request *rq, const char *s, uint32_t n, sdk_error *err)
{
    char text[40];
    if (n == 0) {
        sdk_error_set(err, SDK_E_REQUEST,
                      "'assumption' is empty: give a candidate like \"r2c2=1\" or \"r2c2<>1\"");
        return false;
    }
    if (n >= sizeof text) {
        sdk_error_set(err, SDK_E_REQUEST,
                      "'assumption' of %u bytes is too long: give a candidate like \"r2c2=1\" or "
                      "\"r2c2<>1\"",
                      n);
        return false;
    }
    memcpy(text, s, n);
    text[n] = 0;
    if (strlen(text) != n) {
        sdk_error_set(err, SDK_E_REQUEST, "'assumption' holds a NUL byte");
        return false;
    }
    uint32_t i = 0;
#define BAD(...)                                                                                   \
    do {                                                                                           \
        char why_[128];                                                                            \
        snprintf(why_, sizeof why_, __VA_ARGS__);                                                  \
        sdk_error_set(err, SDK_E_REQUEST, "bad assumption '%s' at character %u: %s", text, i + 1,  \
                      why_);                                                                       \
        return false;                                                                              \
    } while (0)
    while (i < n && text[i] == ' ') i++;
    if (i >= n || (text[i] != 'r' && text[i] != 'R')) BAD("expected 'r' (like \"r2c2=1\")");
    i++;
    if (i >= n || text[i] < '1' || text[i] > '9') BAD("expected a row 1..9 after 'r'");
    int row = text[i++] - '1';
    if (i >= n || (text[i] != 'c' && text[i] != 'C')) BAD("expected 'c' after the row");
    i++;
    if (i >= n || text[i] < '1' || text[i] > '9') BAD("expected a column 1..9 after 'c'");
    int col = text[i++] - '1';
    while (i < n && text[i] == ' ') i++;
    bool on;
    if (i < n && text[i] == '=') {
        on = true;
        i++;
    } else if (i + 1 < n && text[i] == '<' && text[i + 1] == '>') {
        on = false;
        i += 2;
    } else if (i + 1 < n && text[i] == '!' && text[i + 1] == '=') {
        on = false;
        i += 2;
    } else {
        BAD("expected '=' (the candidate is true) or '<>' (it is false) after the cell");
    }
    while (i < n && text[i] == ' ') i++;
    if (i >= n || text[i] < '1' || text[i] > '9') BAD("expected a digit 1..9");
    int digit = text[i++] - '0';
    while (i < n && text[i] == ' ') i++;
    if (i < n) BAD("unexpected '%c' after the digit", text[i]);
#undef BAD
    rq->a_cell = row * 9 + col;
    rq->a_digit = digit;
    rq->a_on = on;
    snprintf(rq->a_text, sizeof rq->a_text, "r%dc%d%s%d", row + 1, col + 1, on ? "=" : "<>", digit);
    return true;
}

void sdk_request_free(sdk_request *rq)
{
    if (!rq) return;
    if (rq->gen) sdk_gen_request_free(rq->gen);
    free(rq->only);
    free(rq->only_buf);
    sdk_profile_free(&rq->ext);
    free(rq);
}

static bool get_only(const sdk_config *cfg, sdk_request *rq, const msgpack_object *params,
                     sdk_error *err)
{
    const msgpack_object *v = sdk_wire_get(params, "techniques");
    if (!v || v->type == MSGPACK_OBJECT_NIL) return true;
    if (v->type != MSGPACK_OBJECT_ARRAY) {
        sdk_error_set(err, SDK_E_REQUEST, "'techniques' must be an array of technique ids");
        return false;
    }
    uint32_t n = v->via.array.size;
    size_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        const msgpack_object *t = &v->via.array.ptr[i];
        if (t->type != MSGPACK_OBJECT_STR || t->via.str.size == 0 || t->via.str.size > 63) {
            sdk_error_set(err, SDK_E_REQUEST, "'techniques'[%u] must be a technique id", i);
            return false;
        }
        total += t->via.str.size + 1;
    }
    if (n == 0) return true;
    rq->only = sdk_xcalloc(n, sizeof *rq->only);
    rq->only_buf = sdk_xmalloc(total);
    char *p = rq->only_buf;
    for (uint32_t i = 0; i < n; i++) {
        const msgpack_object *t = &v->via.array.ptr[i];
        memcpy(p, t->via.str.ptr, t->via.str.size);
        p[t->via.str.size] = 0;
        const char *source = NULL;
        const sdk_technique *tech;
        if (sdk_profile_find(rq->profile, p) < 0) {
            if (!(tech = sdk_config_technique(cfg, p, &source))) {
                sdk_error_set(err, SDK_E_TECHNIQUE, "unknown technique '%s'", p);
                return false;
            }
            /* loaded but not in the profile: asked for by name, it runs
             * after the profile's own techniques (with its own defaults) */
            if (!rq->ext.n)
                for (int k = 0; k < rq->profile->n; k++) {
                    const sdk_entry *e = &rq->profile->entry[k];
                    sdk_profile_add(&rq->ext, e->tech, e->opts, e->difficulty, e->source);
                }
            if (sdk_profile_find(&rq->ext, p) < 0)
                sdk_profile_add(&rq->ext, tech, NULL, -1, source);
        }
        rq->only[rq->nonly++] = p;
        p += t->via.str.size + 1;
    }
    return true;
}

sdk_request *sdk_service_prepare(sdk_service *sv, const char *method, size_t method_len,
                                 const msgpack_object *params, sdk_error *err)
{
    enum method m;
    if (!method_from(method, method_len, &m)) {
        sdk_error_set(err, SDK_E_METHOD, "unknown method '%.*s'",
                      (int)(method_len > 64 ? 64 : method_len), method);
        return NULL;
    }
    if (params && params->type != MSGPACK_OBJECT_MAP) {
        sdk_error_set(err, SDK_E_REQUEST, "params must be a map");
        return NULL;
    }
    sdk_request *rq = sdk_xcalloc(1, sizeof *rq);
    rq->m = m;
    /* the config caps max_trace (an answer grows with it) */
    long trace_cap = sv->cfg->max_trace > 0 ? sv->cfg->max_trace : MAX_MAX_TRACE;
    if (trace_cap > MAX_MAX_TRACE) trace_cap = MAX_MAX_TRACE;
    rq->max_trace = DEFAULT_MAX_TRACE < trace_cap ? DEFAULT_MAX_TRACE : trace_cap;
    if (params)
        for (uint32_t i = 0; i < params->via.map.size; i++) {
            const msgpack_object *k = &params->via.map.ptr[i].key;
            if (!known_key(m, k)) {
                if (k->type == MSGPACK_OBJECT_STR)
                    sdk_error_set(err, SDK_E_REQUEST, "unknown parameter '%.*s'",
                                  (int)(k->via.str.size > 64 ? 64 : k->via.str.size),
                                  k->via.str.ptr);
                else
                    sdk_error_set(err, SDK_E_REQUEST, "parameter names must be strings");
                goto fail;
            }
        }

    const char *pname = NULL;
    uint32_t plen = 0;
    if (!sdk_wire_get_str(params, "profile", &pname, &plen, err)) goto fail;
    char name[64] = "";
    if (pname) {
        if (plen >= sizeof name) {
            sdk_error_set(err, SDK_E_PROFILE, "unknown profile (name too long)");
            goto fail;
        }
        memcpy(name, pname, plen);
        name[plen] = 0;
    }
    /* generate with a level and no profile: HoDoKu's levels, its profile */
    if (m == M_GENERATE && !pname && sdk_wire_get(params, "level") &&
        sdk_config_profile(sv->cfg, "hodoku") && !sdk_wire_get(params, "er") &&
        !sdk_wire_get(params, "ep") && !sdk_wire_get(params, "ed"))
        snprintf(name, sizeof name, "hodoku");
    rq->observer = sv->watch ? &sv->observer : NULL;
    /* explain and hint are read by people: without a profile they use the
     * config's `reading` profile when it has one (rate keeps the default). */
    if (!name[0] && (m == M_EXPLAIN || m == M_HINT) && sdk_config_profile(sv->cfg, "reading"))
        snprintf(name, sizeof name, "reading");
    rq->profile = sdk_config_profile(sv->cfg, name);
    if (!rq->profile) {
        char list[160] = "";
        size_t k = 0;
        for (int i = 0; i < sv->cfg->nprofile && k < sizeof list; i++)
            k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", i ? ", " : "",
                                  sv->cfg->profile[i].name);
        if (name[0])
            sdk_error_set(err, SDK_E_PROFILE, "unknown profile '%s' (profiles: %s)", name, list);
        else
            sdk_error_set(err, SDK_E_PROFILE, "the config names no default profile");
        goto fail;
    }

    if (!sdk_wire_get_bool(params, "no_guess", &rq->no_guess, err) ||
        !sdk_wire_get_bool(params, "logic", &rq->logic, err) ||
        !sdk_wire_get_bool(params, "trace", &rq->trace, err) ||
        !sdk_wire_get_bool(params, "all", &rq->all, err) ||
        !sdk_wire_get_bool(params, "passes", &rq->passes, err) ||
        !sdk_wire_get_bool(params, "timing", &rq->timing, err) ||
        !sdk_wire_get_bool(params, "compact", &rq->compact, err) ||
        !sdk_wire_get_int(params, "max_trace", 1, trace_cap, &rq->max_trace, err))
        goto fail;
    bool progress = false;
    if (!sdk_wire_get_bool(params, "progress", &progress, err)) goto fail;
    if (!get_only(sv->cfg, rq, params, err)) goto fail;
    if (rq->ext.n) {
        snprintf(rq->ext.name, sizeof rq->ext.name, "%s", rq->profile->name);
        rq->ext.no_uniqueness = rq->profile->no_uniqueness;
        rq->ext.scan = rq->profile->scan;
    }
    if (m == M_TRACE) {
        const msgpack_object *a = sdk_wire_get(params, "assumption");
        if (!a || a->type == MSGPACK_OBJECT_NIL) {
            sdk_error_set(err, SDK_E_REQUEST,
                          "missing 'assumption' (a candidate like \"r2c2=1\" or \"r2c2<>1\")");
            goto fail;
        }
        if (a->type != MSGPACK_OBJECT_STR) {
            sdk_error_set(err, SDK_E_REQUEST,
                          "'assumption' must be a string like \"r2c2=1\" or \"r2c2<>1\"");
            goto fail;
        }
        if (!parse_assumption(rq, a->via.str.ptr, a->via.str.size, err)) goto fail;
        if (!sdk_wire_get_bool(params, "als", &rq->als, err)) goto fail;
        if (!sdk_wire_get_bool(params, "gnpx", &rq->gnpx, err)) goto fail;
    }

    if (m == M_TECHNIQUES) return rq;
    if (m == M_GENERATE) {
        rq->gen = sdk_gen_request_parse(sv->cfg, rq->observer, rq->profile, params, err);
        if (!rq->gen) goto fail;
        const msgpack_object *fv = sdk_wire_get(params, "first");
        if (fv && fv->type == MSGPACK_OBJECT_POSITIVE_INTEGER && fv->via.u64 <= INT32_MAX)
            rq->gen_first = (long)fv->via.u64;
        return rq;
    }
    const msgpack_object *p1 = sdk_wire_get(params, "puzzle");
    const msgpack_object *pn = sdk_wire_get(params, "puzzles");
    if (p1 && p1->type == MSGPACK_OBJECT_NIL) p1 = NULL;
    if (pn && pn->type == MSGPACK_OBJECT_NIL) pn = NULL;
    if (p1 && pn) {
        sdk_error_set(err, SDK_E_REQUEST, "give either 'puzzle' or 'puzzles', not both");
        goto fail;
    }
    if (!p1 && !pn) {
        sdk_error_set(err, SDK_E_REQUEST, "missing 'puzzle' (or 'puzzles')");
        goto fail;
    }
    if (p1) {
        if (p1->type != MSGPACK_OBJECT_STR) {
            sdk_error_set(err, SDK_E_REQUEST, "'puzzle' must be a string");
            goto fail;
        }
        rq->puzzle = p1;
        return rq;
    }
    if (pn->type != MSGPACK_OBJECT_ARRAY || pn->via.array.size > INT32_MAX) {
        sdk_error_set(err, SDK_E_REQUEST, "'puzzles' must be an array of strings");
        goto fail;
    }
    for (uint32_t i = 0; i < pn->via.array.size; i++)
        if (pn->via.array.ptr[i].type != MSGPACK_OBJECT_STR) {
            sdk_error_set(err, SDK_E_REQUEST, "'puzzles'[%u] must be a string", i);
            goto fail;
        }
    rq->puzzles = pn;
    return rq;
fail:
    sdk_request_free(rq);
    return NULL;
}

int sdk_request_batch_size(const sdk_request *rq)
{
    if (rq->gen) return sdk_gen_request_count(rq->gen);
    return rq->puzzles ? (int)rq->puzzles->via.array.size : -1;
}

/* ---- packing helpers ----------------------------------------------------- */

/* Raw, already packed bytes appended to a packer. */
static void pack_raw(msgpack_packer *pk, const char *buf, size_t n)
{
    if (n) pk->callback(pk->data, buf, n);
}

static void pack_key(msgpack_packer *pk, const char *k)
{
    sdk_wire_str(pk, k);
}

static void pack_cells81(msgpack_packer *pk, const char *key, const uint8_t v[81])
{
    char s[82];
    for (int i = 0; i < 81; i++) s[i] = v[i] ? (char)('0' + v[i]) : '.';
    s[81] = 0;
    sdk_wire_kv_str(pk, key, s);
}

static void pack_puzzle_echo(msgpack_packer *pk, const msgpack_object *text)
{
    pack_key(pk, "puzzle");
    msgpack_pack_str(pk, text->via.str.size);
    msgpack_pack_str_body(pk, text->via.str.ptr, text->via.str.size);
}

/* A growing list of packed items (steps, trace events) with their count. */
typedef struct list {
    msgpack_sbuffer buf;
    msgpack_packer pk;
    size_t n;
} list;

static void list_init(list *l)
{
    msgpack_sbuffer_init(&l->buf);
    msgpack_packer_init(&l->pk, &l->buf, msgpack_sbuffer_write);
    l->n = 0;
}

static void list_pack(list *l, const char *key, msgpack_packer *pk)
{
    pack_key(pk, key);
    msgpack_pack_array(pk, l->n);
    pack_raw(pk, l->buf.data, l->buf.size);
}

static void list_free(list *l)
{
    msgpack_sbuffer_destroy(&l->buf);
}

/* ---- one puzzle ---------------------------------------------------------- */

typedef struct puzzle {
    const msgpack_object *text;
    sdk_grid g;
    int count; /* solutions, up to 2 */
    uint8_t sol[2][81];
    uint64_t guesses;
} puzzle;

/* Parse and check with the solver. For every method but solve, a puzzle
 * without exactly one solution is an error. */
static bool load_puzzle(const sdk_request *rq, const msgpack_object *text, puzzle *pz,
                        sdk_error *err)
{
    pz->text = text;
    uint32_t n = text->via.str.size;
    if (n > MAX_PUZZLE_TEXT) {
        sdk_error_set(err, SDK_E_FORMAT, "puzzle text of %u bytes is longer than %d", n,
                      MAX_PUZZLE_TEXT);
        return false;
    }
    char *s = sdk_xmalloc((size_t)n + 1);
    memcpy(s, text->via.str.ptr, n);
    s[n] = 0;
    bool ok = strlen(s) == n;
    if (!ok)
        sdk_error_set(err, SDK_E_FORMAT, "puzzle text holds a NUL byte");
    else
        ok = sdk_parse(s, &pz->g, err);
    free(s);
    if (!ok) return false;
    sdk_solver_stats st = {0};
    pz->count = sdk_solve_grid(&pz->g, 2, pz->sol, &st);
    pz->guesses = st.guesses;
    if (rq->m == M_SOLVE) return true;
    if (pz->count == 0) {
        sdk_error_set(err, SDK_E_NO_SOLUTION, "the puzzle has no solution");
        return false;
    }
    if (pz->count > 1) {
        char where[200] = "";
        size_t k = 0;
        int shown = 0, total = 0;
        for (int c = 0; c < 81; c++) {
            if (pz->sol[0][c] == pz->sol[1][c]) continue;
            total++;
            if (shown < 8 && k < sizeof where) {
                k += (size_t)snprintf(where + k, sizeof where - k, "%sr%dc%d (%d or %d)",
                                      shown ? ", " : "", c / 9 + 1, c % 9 + 1, pz->sol[0][c],
                                      pz->sol[1][c]);
                shown++;
            }
        }
        sdk_error_set(err, SDK_E_MULTIPLE,
                      "the puzzle has more than one solution; two of them differ in %s%s", where,
                      total > shown ? ", ..." : "");
        return false;
    }
    return true;
}

static int collect_step(void *ctx, const sdk_step *s, const sdk_grid *before)
{
    (void)before;
    list *l = ctx;
    sdk_wire_pack_step(&l->pk, s);
    l->n++;
    return 0;
}

static int sink_step(void *ctx, const sdk_step *s)
{
    list *l = ctx;
    sdk_wire_pack_step(&l->pk, s);
    l->n++;
    return SDK_CONTINUE;
}

static int sink_first(void *ctx, const sdk_step *s)
{
    sink_step(ctx, s);
    return SDK_STOP;
}

static void trace_event(void *ctx, const sdk_trace_event *ev)
{
    list *l = ctx;
    msgpack_pack_array(&l->pk, 4);
    msgpack_pack_long(&l->pk, ev->step);
    msgpack_pack_int(&l->pk, ev->cell);
    msgpack_pack_int(&l->pk, ev->digit);
    sdk_wire_str(&l->pk, sdk_trace_result_text(ev->result));
    l->n++;
}

static sdk_run_opts run_opts(const sdk_request *rq, bool unique)
{
    sdk_run_opts o = {0};
    o.no_guess = rq->no_guess;
    o.unique = unique;
    o.only = rq->nonly ? rq->only : NULL;
    o.nonly = rq->nonly;
    o.observer = rq->observer;
    return o;
}

/* What the engine runs: the profile, or the profile and the techniques the
 * request named that it lacks. */
static const sdk_profile *run_profile(const sdk_request *rq)
{
    return rq->ext.n ? &rq->ext : rq->profile;
}

/* Run the engine; steps (when wanted) into l. Returns the final status. */
static sdk_rating run_engine(const sdk_request *rq, puzzle *pz, list *l, sdk_grid *g)
{
    sdk_rating r;
    memset(&r, 0, sizeof r);
    *g = pz->g;
    sdk_run_opts o = run_opts(rq, pz->count == 1);
    o.only = NULL; /* `techniques` restricts hints only (explain: adds the missing ones) */
    o.nonly = 0;
    sdk_engine_run(run_profile(rq), g, &o, l ? collect_step : NULL, l, &r);
    return r;
}

static void pack_solve(const sdk_request *rq, puzzle *pz, msgpack_packer *pk)
{
    const char *status = pz->count == 0 ? "none" : pz->count == 1 ? "unique" : "multiple";
    bool logic = rq->logic && pz->count > 0;
    list l;
    sdk_grid g;
    sdk_rating r;
    if (logic) {
        list_init(&l);
        r = run_engine(rq, pz, &l, &g);
    }
    int n = 5 + (pz->count > 1 ? 2 : 0) + (logic ? 2 + (r.status != SDK_RUN_SOLVED) : 0);
    msgpack_pack_map(pk, (size_t)n);
    pack_puzzle_echo(pk, pz->text);
    sdk_wire_kv_str(pk, "status", status);
    if (pz->count > 0)
        pack_cells81(pk, "solution", pz->sol[0]);
    else {
        pack_key(pk, "solution");
        msgpack_pack_nil(pk);
    }
    sdk_wire_kv_int(pk, "solutions", pz->count);
    sdk_wire_kv_int(pk, "guesses", (long)pz->guesses);
    if (pz->count > 1) {
        pack_cells81(pk, "solution2", pz->sol[1]);
        int nd = 0;
        for (int c = 0; c < 81; c++) nd += pz->sol[0][c] != pz->sol[1][c];
        pack_key(pk, "differ");
        msgpack_pack_array(pk, (size_t)nd);
        for (int c = 0; c < 81; c++)
            if (pz->sol[0][c] != pz->sol[1][c]) {
                char b[8];
                snprintf(b, sizeof b, "r%dc%d", c / 9 + 1, c % 9 + 1);
                sdk_wire_str(pk, b);
            }
    }
    if (logic) {
        sdk_wire_kv_bool(pk, "solved", r.status == SDK_RUN_SOLVED);
        list_pack(&l, "steps", pk);
        if (r.status != SDK_RUN_SOLVED) {
            char c729[730];
            sdk_wire_kv_str(pk, "stuck_grid", sdk_format_cands729(&g, c729));
        }
        list_free(&l);
    }
}

void sdk_service_pack_rating(msgpack_packer *pk, const sdk_rating *r, const sdk_rating *lv)
{
    sdk_wire_kv_tenths(pk, "er", r->er);
    sdk_wire_kv_tenths(pk, "ep", r->ep);
    sdk_wire_kv_tenths(pk, "ed", r->ed);
    sdk_wire_kv_str(pk, "level", sdk_level_name(lv->level));
    sdk_wire_kv_int(pk, "score", lv->score);
    pack_key(pk, "hardest");
    if (r->hardest && r->hardest->id)
        sdk_wire_str(pk, r->hardest->id);
    else
        msgpack_pack_nil(pk);
}

static void pack_rate(const sdk_request *rq, puzzle *pz, msgpack_packer *pk)
{
    sdk_grid g;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    sdk_rating r = run_engine(rq, pz, NULL, &g);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    bool solved = r.status == SDK_RUN_SOLVED;
    msgpack_pack_map(pk, 11 + (rq->timing ? 1 : 0) + (solved ? 0 : 1));
    pack_puzzle_echo(pk, pz->text);
    sdk_service_pack_rating(pk, &r, &r);
    sdk_wire_kv_bool(pk, "solved", solved);
    sdk_wire_kv_int(pk, "steps", r.steps);
    /* serate's %P / %D: the techniques behind EP and ED; its %e: the time */
    const sdk_technique *by[2] = {r.pearl, r.diamond};
    const char *key[2] = {"ep_technique", "ed_technique"};
    for (int i = 0; i < 2; i++) {
        pack_key(pk, key[i]);
        if (by[i] && by[i]->id)
            sdk_wire_str(pk, by[i]->id);
        else
            msgpack_pack_nil(pk);
    }
    if (rq->timing) { /* asked for only: answers stay reproducible */
        pack_key(pk, "time");
        msgpack_pack_double(pk, (double)(t1.tv_sec - t0.tv_sec) +
                                    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    }
    if (!solved) {
        char c729[730];
        sdk_wire_kv_str(pk, "stuck_grid", sdk_format_cands729(&g, c729));
    }
}

static void pack_explain(const sdk_request *rq, puzzle *pz, msgpack_packer *pk)
{
    list l, t;
    sdk_grid g;
    list_init(&l);
    sdk_rating r = run_engine(rq, pz, &l, &g);
    bool solved = r.status == SDK_RUN_SOLVED;
    int trace_rc = 0;
    double trace_sec = 0;
    if (rq->trace) {
        list_init(&t);
        uint8_t v[81];
        memcpy(v, pz->g.value, sizeof v);
        struct timespec t0, t1;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
        trace_rc = sdk_backtrack_trace(v, rq->max_trace, trace_event, &t);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
        trace_sec = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    }
    msgpack_pack_map(pk, 10 + (solved ? 0 : 1) + (rq->trace ? 4 : 0) + (rq->passes ? 2 : 0));
    pack_puzzle_echo(pk, pz->text);
    sdk_wire_kv_bool(pk, "solved", solved);
    sdk_wire_kv_str(pk, "status", sdk_run_status_name(r.status));
    /* the rating of this run (by the profile that explained), for summaries */
    sdk_service_pack_rating(pk, &r, &r);
    list_pack(&l, "steps", pk);
    list_free(&l);
    if (!solved) {
        char c729[730];
        sdk_wire_kv_str(pk, "stuck_grid", sdk_format_cands729(&g, c729));
    }
    if (rq->trace) {
        list_pack(&t, "trace", pk);
        list_free(&t);
        sdk_wire_kv_str(pk, "trace_status",
                        trace_rc > 0    ? "solved"
                        : trace_rc == 0 ? "no-solution"
                                        : "cut-off");
        sdk_wire_kv_bool(pk, "trace_truncated", trace_rc < 0);
        sdk_wire_str(pk, "trace_seconds"); /* CPU time of the trace alone */
        msgpack_pack_double(pk, trace_sec);
    }
    if (rq->passes) { /* the Hindi seed's singles program: its pass count and grid */
        uint8_t out[81];
        sdk_wire_kv_int(pk, "passes", sdk_seed004_passes(pz->g.value, out));
        pack_cells81(pk, "passes_grid", out);
    }
}

static void pack_hint(const sdk_request *rq, puzzle *pz, msgpack_packer *pk)
{
    list l;
    list_init(&l);
    sdk_run_opts o = run_opts(rq, pz->count == 1);
    sdk_sink sink = {rq->all ? sink_step : sink_first, &l};
    if (!sdk_grid_solved(&pz->g)) sdk_engine_hint(run_profile(rq), &pz->g, &o, rq->all, &sink);
    msgpack_pack_map(pk, 2);
    pack_puzzle_echo(pk, pz->text);
    list_pack(&l, "steps", pk);
    list_free(&l);
}

/* trace: the assumption must name a candidate of an empty cell. */
static bool check_assumption(const sdk_request *rq, const puzzle *pz, sdk_error *err)
{
    const sdk_grid *g = &pz->g;
    int c = rq->a_cell, d = rq->a_digit;
    char cn[8];
    sdk_cell_name(c, cn);
    if (g->value[c]) {
        sdk_error_set(err, SDK_E_REQUEST,
                      "assumption '%s': %s is already solved (it holds %s %d); assume a "
                      "candidate of an empty cell",
                      rq->a_text, cn, g->given[c] ? "the given" : "the placed digit", g->value[c]);
        return false;
    }
    if (!sdk_grid_has(g, c, d)) {
        char list[32];
        size_t k = 0;
        list[0] = 0;
        SDK_MASK_FOREACH(x, g->cand[c])
            k += (size_t)snprintf(list + k, k < sizeof list ? sizeof list - k : 0, "%s%d",
                                  k ? "," : "", x);
        sdk_error_set(err, SDK_E_REQUEST,
                      "assumption '%s': %d is not a candidate of %s (its candidates: %s)",
                      rq->a_text, d, cn, list);
        return false;
    }
    return true;
}

typedef struct trace_out {
    list l;
    char *summary;
} trace_out;

static void trace_line(void *ctx, int lit, const char *line)
{
    trace_out *t = ctx;
    if (lit < 0) {
        size_t n = strlen(line) + 1;
        free(t->summary);
        t->summary = sdk_xmalloc(n);
        memcpy(t->summary, line, n);
        return;
    }
    sdk_wire_str(&t->l.pk, line);
    t->l.n++;
}

static void pack_trace(const sdk_request *rq, puzzle *pz, msgpack_packer *pk)
{
    trace_out t = {.summary = NULL};
    list_init(&t.l);
    unsigned flags = rq->als ? SDK_DYN_ALS : 0;
    if (rq->gnpx) flags |= SDK_DYN_GNPX;
    bool bad =
        sdk_trace_assumption(&pz->g, rq->a_cell, rq->a_digit, rq->a_on, flags, trace_line, &t);
    msgpack_pack_map(pk, 5);
    pack_puzzle_echo(pk, pz->text);
    sdk_wire_kv_str(pk, "assumption", rq->a_text);
    list_pack(&t.l, "lines", pk);
    sdk_wire_kv_bool(pk, "contradiction", bad);
    sdk_wire_kv_str(pk, "summary", t.summary ? t.summary : "");
    list_free(&t.l);
    free(t.summary);
}

/* The fast path of a plain solve (no logic) of an 81-character line of
 * digits and '.'/'0', the common batch input: the values go straight to the
 * solver, without the candidate grid sdk_parse builds (its peer check and
 * candidates cost as much as the solver on an easy puzzle). The solver
 * places the givens as sdk_parse + sdk_solve_grid would, so count, solutions
 * and guesses are the same. A puzzle it finds no solution for (conflicting
 * givens, or none) goes the full way, for the precise error. Returns false
 * when it did not answer. */
/* `compact`: a unique answer as [solution, guesses] (the solution's 81
 * digits, the count) instead of the map {puzzle, status: "unique",
 * solution, solutions: 1, guesses} it stands for: the client sent the
 * puzzle and knows the rest, so a solve batch's answers are a third of the
 * bytes through the workers' sockets, the daemon and the client's. */
static void pack_solve_compact(msgpack_packer *pk, const puzzle *pz)
{
    /* fixarray of 2, str 8 of 81 bytes, the digits, the count as
     * msgpack_pack_uint64 packs it (the smallest form): one write */
    char s[3 + 81 + 9] = {(char)0x92, (char)0xd9, 81};
    for (int i = 0; i < 81; i++) s[3 + i] = (char)('0' + pz->sol[0][i]);
    uint64_t g = pz->guesses;
    size_t n = 3 + 81;
    unsigned char *u = (unsigned char *)s + n;
    if (g < 128) {
        u[0] = (unsigned char)g, n += 1;
    } else {
        int bytes = g < 256 ? 1 : g < 65536 ? 2 : g < (1ull << 32) ? 4 : 8;
        u[0] = bytes == 1 ? 0xcc : bytes == 2 ? 0xcd : bytes == 4 ? 0xce : 0xcf;
        for (int b = 0; b < bytes; b++) u[1 + b] = (unsigned char)(g >> (8 * (bytes - 1 - b)));
        n += 1 + (size_t)bytes;
    }
    pk->callback(pk->data, s, n);
}

static bool solve_plain_line(const sdk_request *rq, const msgpack_object *text, msgpack_packer *pk)
{
    if (rq->m != M_SOLVE || rq->logic || text->via.str.size != 81) return false;
    puzzle pz;
    uint8_t v[81];
    /* a cell's value ('.' and '0' are 0); any other byte makes the line no
     * plain line */
    if (!sdk_line81_values(text->via.str.ptr, v)) return false;
    sdk_solver_stats st = {0};
    pz.count = sdk_solve(v, 2, pz.sol, &st);
    if (pz.count < 1) return false;
    pz.text = text;
    pz.guesses = st.guesses;
    if (rq->compact && pz.count == 1)
        pack_solve_compact(pk, &pz);
    else
        pack_solve(rq, &pz, pk); /* no logic: the grid is not read */
    return true;
}

/* Packs the result, or (when the puzzle fails) nothing and sets err. */
static bool run_puzzle(sdk_request *rq, const msgpack_object *text, msgpack_packer *pk,
                       sdk_error *err)
{
    if (solve_plain_line(rq, text, pk)) return true;
    puzzle *pz = sdk_xmalloc(sizeof *pz);
    bool ok = load_puzzle(rq, text, pz, err);
    if (ok && rq->m == M_TRACE) ok = check_assumption(rq, pz, err);
    if (ok) switch (rq->m) {
        case M_SOLVE:
            pack_solve(rq, pz, pk);
            break;
        case M_RATE:
            pack_rate(rq, pz, pk);
            break;
        case M_EXPLAIN:
            pack_explain(rq, pz, pk);
            break;
        case M_HINT:
            pack_hint(rq, pz, pk);
            break;
        case M_TRACE:
            pack_trace(rq, pz, pk);
            break;
        case M_TECHNIQUES:
        case M_GENERATE:
            break;
        }
    free(pz);
    return ok;
}

/* ---- techniques ---------------------------------------------------------- */

static void pack_flags(msgpack_packer *pk, unsigned f)
{
    int n = !!(f & SDK_TF_UNIQUENESS) + !!(f & SDK_TF_LAST_RESORT) + !!(f & SDK_TF_USES_ENGINE);
    msgpack_pack_array(pk, (size_t)n);
    if (f & SDK_TF_UNIQUENESS) sdk_wire_str(pk, "uniqueness");
    if (f & SDK_TF_LAST_RESORT) sdk_wire_str(pk, "last-resort");
    if (f & SDK_TF_USES_ENGINE) sdk_wire_str(pk, "uses-engine");
}

static void pack_technique(msgpack_packer *pk, const sdk_technique *t, int difficulty,
                           const char *source)
{
    msgpack_pack_map(pk, 8);
    sdk_wire_kv_str(pk, "id", t->id ? t->id : "");
    sdk_wire_kv_str(pk, "name", t->name ? t->name : (t->id ? t->id : ""));
    sdk_wire_kv_tenths(pk, "difficulty", difficulty);
    sdk_wire_kv_int(pk, "score", t->score);
    sdk_wire_kv_str(pk, "level", sdk_level_name(t->level));
    pack_key(pk, "flags");
    pack_flags(pk, t->flags);
    sdk_wire_kv_str(pk, "source", source ? source : "");
    sdk_wire_kv_str(pk, "summary", t->summary ? t->summary : "");
}

/* techniques with `all`: every loaded technique, in plugin order, with its
 * own difficulty, whatever the profiles hold. */
static void pack_all_techniques(const sdk_config *cfg, msgpack_packer *pk)
{
    int n = 0;
    for (int i = 0; i < cfg->nplugin; i++)
        for (int k = 0; cfg->plugin[i].list && cfg->plugin[i].list[k]; k++) n++;
    msgpack_pack_map(pk, 2);
    sdk_wire_kv_str(pk, "profile", "*");
    pack_key(pk, "techniques");
    msgpack_pack_array(pk, (size_t)n);
    for (int i = 0; i < cfg->nplugin; i++)
        for (int k = 0; cfg->plugin[i].list && cfg->plugin[i].list[k]; k++) {
            const sdk_technique *t = cfg->plugin[i].list[k];
            pack_technique(pk, t, t->difficulty, cfg->plugin[i].path);
        }
}

static void pack_techniques(const sdk_request *rq, msgpack_packer *pk)
{
    const sdk_profile *p = rq->profile;
    msgpack_pack_map(pk, 2);
    sdk_wire_kv_str(pk, "profile", p->name);
    pack_key(pk, "techniques");
    msgpack_pack_array(pk, (size_t)(p->n > 0 ? p->n : 0));
    for (int i = 0; i < p->n; i++) {
        const sdk_entry *e = &p->entry[i];
        pack_technique(pk, e->tech, e->difficulty, e->source);
    }
}

/* ---- entry points -------------------------------------------------------- */

static void pack_item_error(msgpack_packer *pk, const msgpack_object *text, const sdk_error *e)
{
    msgpack_pack_map(pk, 2);
    pack_puzzle_echo(pk, text);
    pack_key(pk, "error");
    sdk_wire_pack_error(pk, e);
}

void sdk_service_item_error(const sdk_request *rq, int i, const sdk_error *e, msgpack_packer *out)
{
    if (rq->gen) { /* generate: {index, error} */
        msgpack_pack_map(out, 2);
        sdk_wire_kv_int(out, "index", rq->gen_first + i);
        pack_key(out, "error");
        sdk_wire_pack_error(out, e);
        return;
    }
    pack_item_error(out, &rq->puzzles->via.array.ptr[i], e);
}

void sdk_service_item(sdk_service *sv, sdk_request *rq, int i, msgpack_packer *out)
{
    (void)sv;
    if (rq->gen) {
        sdk_gen_request_item(rq->gen, i, out);
        return;
    }
    const msgpack_object *text = &rq->puzzles->via.array.ptr[i];
    sdk_error err; /* not zeroed whole: 288 bytes a puzzle; read only as strings */
    err.code[0] = err.msg[0] = 0;
    if (!run_puzzle(rq, text, out, &err)) pack_item_error(out, text, &err);
}

bool sdk_service_run(sdk_service *sv, sdk_request *rq, msgpack_packer *out, sdk_error *err)
{
    if (rq->m == M_TECHNIQUES) {
        if (rq->all)
            pack_all_techniques(sv->cfg, out);
        else
            pack_techniques(rq, out);
        return true;
    }
    if (rq->puzzles || rq->gen) {
        int n = sdk_request_batch_size(rq);
        msgpack_pack_map(out, 1);
        pack_key(out, "results");
        msgpack_pack_array(out, (size_t)n);
        for (int i = 0; i < n; i++) sdk_service_item(sv, rq, i, out);
        return true;
    }
    return run_puzzle(rq, rq->puzzle, out, err); /* packs nothing when it fails */
}

bool sdk_service_handle(sdk_service *sv, const char *method, const msgpack_object *params,
                        msgpack_packer *out, sdk_error *err)
{
    sdk_request *rq = sdk_service_prepare(sv, method, strlen(method), params, err);
    if (!rq) return false;
    bool ok = sdk_service_run(sv, rq, out, err);
    sdk_request_free(rq);
    return ok;
}
