/* service_generate.c - the `generate` method: its params decoded into a
 * target (sudoku/generate.h), and one generated puzzle packed per batch item.
 *
 * A generate request is a batch of `count` items. Item i makes puzzle
 * first+i of the seed, so the daemon can hand pieces of the batch to several
 * workers (it sends each piece `first` and `count`) and the answers do not
 * depend on who made what. */
#include "service_generate.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sudoku/alloc.h"
#include "sudoku/wire.h"

#define MAX_COUNT 1000000
#define DEFAULT_MAX_SECONDS 300.0

struct sdk_gen_request {
    sdk_gen_target t;
    sdk_gen_opts o;
    long first, count;
    bool level_asked;
    const sdk_profile *level_profile; /* config profile (names) */
    char ids[SDK_GEN_MAX_NEEDS + 1][64];
};

static const char *const gen_keys[] = {
    "count",   "first",   "seed",     "er",    "ep",      "ed",     "level",     "needs",
    "hardest", "pattern", "symmetry", "clues", "minimal", "givens", "max_tries", "max_seconds"};

bool sdk_gen_known_key(const msgpack_object *k)
{
    for (size_t i = 0; i < sizeof gen_keys / sizeof *gen_keys; i++)
        if (sdk_wire_str_is(k, gen_keys[i])) return true;
    return false;
}

/* A number in tenths from a msgpack int or float (9, 9.0, 8.7). */
static bool tenths_of(const msgpack_object *v, int *out)
{
    double x;
    if (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
        x = (double)v->via.u64;
    else if (v->type == MSGPACK_OBJECT_FLOAT32 || v->type == MSGPACK_OBJECT_FLOAT64)
        x = v->via.f64;
    else
        return false;
    if (!(x >= 0 && x <= 100)) return false;
    *out = (int)(x * 10 + 0.5);
    return true;
}

/* key: [min, max] with either end nil (open); numbers, tenths when tenths. */
static bool get_range(const msgpack_object *params, const char *key, bool tenths, int *lo, int *hi,
                      sdk_error *err)
{
    const msgpack_object *v = sdk_wire_get(params, key);
    if (!v || v->type == MSGPACK_OBJECT_NIL) return true;
    if (v->type != MSGPACK_OBJECT_ARRAY || v->via.array.size != 2) {
        sdk_error_set(err, SDK_E_REQUEST, "'%s' must be [min, max] (either may be nil)", key);
        return false;
    }
    int *end[2] = {lo, hi};
    for (int i = 0; i < 2; i++) {
        const msgpack_object *e = &v->via.array.ptr[i];
        if (e->type == MSGPACK_OBJECT_NIL) continue;
        if (tenths ? !tenths_of(e, end[i])
                   : !(e->type == MSGPACK_OBJECT_POSITIVE_INTEGER && e->via.u64 <= 81 &&
                       (*end[i] = (int)e->via.u64, true))) {
            sdk_error_set(err, SDK_E_REQUEST, "'%s'[%d] must be %s or nil", key, i,
                          tenths ? "a rating from 0 to 100" : "a clue count from 0 to 81");
            return false;
        }
    }
    return true;
}

static bool copy_id(const msgpack_object *v, char *buf, const char *what, int i, sdk_error *err)
{
    if (v->type != MSGPACK_OBJECT_STR || v->via.str.size == 0 || v->via.str.size > 63) {
        if (i >= 0)
            sdk_error_set(err, SDK_E_REQUEST, "'%s'[%d] must be a technique id", what, i);
        else
            sdk_error_set(err, SDK_E_REQUEST, "'%s' must be a technique id", what);
        return false;
    }
    memcpy(buf, v->via.str.ptr, v->via.str.size);
    buf[v->via.str.size] = 0;
    return true;
}

/* The id must be in the profile that rates the path. */
static bool id_in_profile(const sdk_config *cfg, const sdk_profile *p, const char *id,
                          sdk_error *err)
{
    if (sdk_profile_find(p, id) >= 0) return true;
    if (!sdk_config_technique(cfg, id, NULL))
        sdk_error_set(err, SDK_E_TECHNIQUE, "unknown technique '%s'", id);
    else
        sdk_error_set(err, SDK_E_TECHNIQUE,
                      "technique '%s' is not in profile '%s', which rates the puzzles: choose "
                      "a profile that has it (--profile)",
                      id, p->name);
    return false;
}

static int level_from(const char *s, uint32_t n)
{
    static const char *const names[] = {"easy", "medium", "hard", "unfair", "extreme"};
    for (int i = 0; i < 5; i++)
        if (strlen(names[i]) == n && !memcmp(names[i], s, n)) return SDK_LEVEL_EASY + i;
    return 0;
}

sdk_gen_request *sdk_gen_request_parse(const sdk_config *cfg, const sdk_observer *observer,
                                       const sdk_profile *profile, const msgpack_object *params,
                                       sdk_error *err)
{
    sdk_gen_request *g = sdk_xcalloc(1, sizeof *g);
    sdk_gen_target *t = &g->t;
    t->er_min = t->er_max = t->ep_min = t->ep_max = t->ed_min = t->ed_max = -1;
    t->clues_min = 17, t->clues_max = 81;
    g->count = 1;
    long seed = -1, max_tries = 0, max_ms = 0;
    if (!sdk_wire_get_int(params, "count", 1, MAX_COUNT, &g->count, err) ||
        !sdk_wire_get_int(params, "first", 0, INT32_MAX, &g->first, err) ||
        !sdk_wire_get_int(params, "seed", 0, INT64_MAX, &seed, err) ||
        !sdk_wire_get_int(params, "max_tries", 1, 1000000000L, &max_tries, err) ||
        !sdk_wire_get_bool(params, "pattern", &t->pattern, err) ||
        !sdk_wire_get_bool(params, "minimal", &t->minimal, err) ||
        !get_range(params, "er", true, &t->er_min, &t->er_max, err) ||
        !get_range(params, "ep", true, &t->ep_min, &t->ep_max, err) ||
        !get_range(params, "ed", true, &t->ed_min, &t->ed_max, err) ||
        !get_range(params, "clues", false, &t->clues_min, &t->clues_max, err))
        goto fail;
    const msgpack_object *ms = sdk_wire_get(params, "max_seconds");
    if (ms && ms->type != MSGPACK_OBJECT_NIL) {
        int tenths;
        if (!tenths_of(ms, &tenths) &&
            !(ms->type == MSGPACK_OBJECT_POSITIVE_INTEGER && ms->via.u64 <= 86400 &&
              (tenths = (int)ms->via.u64 * 10))) {
            sdk_error_set(err, SDK_E_REQUEST, "'max_seconds' must be a number of seconds");
            goto fail;
        }
        max_ms = tenths * 100L;
        if (max_ms <= 0) {
            sdk_error_set(err, SDK_E_REQUEST, "'max_seconds' must be more than 0");
            goto fail;
        }
    }
    const char *s;
    uint32_t n;
    s = NULL, n = 0;
    if (!sdk_wire_get_str(params, "symmetry", &s, &n, err)) goto fail;
    if (s) {
        char name[32] = "";
        if (n < sizeof name) memcpy(name, s, n), name[n] = 0;
        t->symmetry = sdk_symmetry_from(name);
        if (t->symmetry < 0) {
            sdk_error_set(err, SDK_E_REQUEST, "unknown symmetry '%.*s' (symmetries: %s)",
                          (int)(n > 32 ? 32 : n), s, sdk_symmetry_names());
            goto fail;
        }
    }
    s = NULL, n = 0;
    if (!sdk_wire_get_str(params, "level", &s, &n, err)) goto fail;
    if (s) {
        t->level = level_from(s, n);
        if (!t->level) {
            sdk_error_set(err, SDK_E_REQUEST,
                          "unknown level '%.*s' (levels: easy, medium, hard, unfair, extreme)",
                          (int)(n > 32 ? 32 : n), s);
            goto fail;
        }
        g->level_asked = true;
    }
    s = NULL, n = 0;
    if (!sdk_wire_get_str(params, "givens", &s, &n, err)) goto fail;
    if (s) {
        char text[200];
        if (n >= sizeof text) {
            sdk_error_set(err, SDK_E_FORMAT, "'givens' of %u bytes: give an 81-cell pattern", n);
            goto fail;
        }
        memcpy(text, s, n), text[n] = 0;
        /* a pattern: any digit or 'x'/'X' marks a clue cell */
        for (uint32_t i = 0; i < n; i++)
            if (text[i] == 'x' || text[i] == 'X') text[i] = '1';
        int k = 0;
        for (uint32_t i = 0; i < n && k < 81; i++) {
            char c = text[i];
            if (c >= '1' && c <= '9')
                t->givens[k++] = 1;
            else if (c == '.' || c == '0' || c == '-' || c == '_' || c == '*')
                t->givens[k++] = 0;
            else if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '|' || c == '+')
                continue;
            else {
                sdk_error_set(err, SDK_E_FORMAT,
                              "'givens' character %u '%c': a clue pattern has digits or 'x' "
                              "for clue cells and '.' or '0' for blanks",
                              i + 1, c);
                goto fail;
            }
        }
        if (k != 81) {
            sdk_error_set(err, SDK_E_FORMAT, "'givens' has %d cells, expected 81", k);
            goto fail;
        }
        t->has_givens = true;
    }
    const msgpack_object *nv = sdk_wire_get(params, "needs");
    if (nv && nv->type != MSGPACK_OBJECT_NIL) {
        if (nv->type != MSGPACK_OBJECT_ARRAY || nv->via.array.size > SDK_GEN_MAX_NEEDS) {
            sdk_error_set(err, SDK_E_REQUEST, "'needs' must be an array of at most %d ids",
                          SDK_GEN_MAX_NEEDS);
            goto fail;
        }
        for (uint32_t i = 0; i < nv->via.array.size; i++) {
            if (!copy_id(&nv->via.array.ptr[i], g->ids[i], "needs", (int)i, err) ||
                !id_in_profile(cfg, profile, g->ids[i], err))
                goto fail;
            t->needs[t->nneeds++] = g->ids[i];
        }
    }
    const msgpack_object *hv = sdk_wire_get(params, "hardest");
    if (hv && hv->type != MSGPACK_OBJECT_NIL) {
        char *id = g->ids[SDK_GEN_MAX_NEEDS];
        if (!copy_id(hv, id, "hardest", -1, err) || !id_in_profile(cfg, profile, id, err))
            goto fail;
        t->hardest = id;
    }
    if (t->pattern && t->nneeds == 0) {
        sdk_error_set(err, SDK_E_REQUEST,
                      "'pattern' needs 'needs': the technique that comes "
                      "right after the simple steps");
        goto fail;
    }
    if (!sdk_gen_check(t, err)) goto fail;

    g->level_profile = profile;
    if (g->level_asked) {
        const sdk_profile *h = sdk_config_profile(cfg, "hodoku");
        if (h) g->level_profile = h;
    }
    g->o.seed = seed >= 0 ? (uint64_t)seed : (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
    g->o.profile = profile;
    g->o.level_profile = g->level_profile;
    g->o.observer = observer;
    g->o.unique_ok = !cfg->no_uniqueness;
    g->o.max_tries = max_tries;
    double budget = max_ms > 0 ? (double)max_ms / 1000.0 : DEFAULT_MAX_SECONDS;
    /* stay inside the daemon's per-puzzle deadline, with room to answer */
    if (cfg->deadline_ms > 0 && budget > 0.8 * cfg->deadline_ms / 1000.0)
        budget = 0.8 * cfg->deadline_ms / 1000.0;
    g->o.max_seconds = budget;
    return g;
fail:
    free(g);
    return NULL;
}

int sdk_gen_request_count(const sdk_gen_request *g)
{
    return (int)g->count;
}

void sdk_gen_request_free(sdk_gen_request *g)
{
    free(g);
}

static void cells81(const uint8_t v[81], char s[82])
{
    for (int i = 0; i < 81; i++) s[i] = v[i] ? (char)('0' + v[i]) : '.';
    s[81] = 0;
}

void sdk_gen_request_item(const sdk_gen_request *g, int i, msgpack_packer *pk)
{
    sdk_gen_opts o = g->o;
    o.index = (uint64_t)(g->first + i);
    sdk_gen_result res;
    sdk_error err = {"", ""};
    bool ok = sdk_generate(&g->t, &o, &res, &err);
    if (!ok) {
        msgpack_pack_map(pk, 4);
        sdk_wire_kv_int(pk, "index", (long)o.index);
        sdk_wire_kv_int(pk, "built", res.built);
        sdk_wire_kv_int(pk, "rated", res.rated);
        sdk_wire_str(pk, "error");
        sdk_wire_pack_error(pk, &err);
        return;
    }
    const sdk_rating *r = &res.rating;
    const sdk_rating *lv = g->level_asked ? &res.level_rating : r;
    char s[82];
    msgpack_pack_map(pk, 16);
    sdk_wire_kv_int(pk, "index", (long)o.index);
    cells81(res.puzzle, s);
    sdk_wire_kv_str(pk, "puzzle", s);
    cells81(res.solution, s);
    sdk_wire_kv_str(pk, "solution", s);
    sdk_wire_kv_int(pk, "clues", res.clues);
    sdk_wire_kv_str(pk, "symmetry", sdk_symmetry_name(g->t.symmetry));
    sdk_service_pack_rating(pk, r, lv);
    sdk_wire_kv_int(pk, "steps", r->steps);
    sdk_wire_kv_str(pk, "level_profile", g->level_profile->name);
    sdk_wire_kv_int(pk, "built", res.built);
    sdk_wire_kv_int(pk, "rated", res.rated);
    sdk_wire_str(pk, "seconds");
    msgpack_pack_double(pk, res.seconds);
}
