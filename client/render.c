/* render.c - sudoctl's text and JSON-lines output of daemon results. */
#include "render.h"
#include "seed001.h"
#include "color.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chain_text.h"
#include "grid_text.h"
#include "i18n.h"
#include "report.h"
#include "share_text.h"
#include "rpc.h"
#include "sudoku/format.h"
#include "sudoku/grid.h"
#include "sudoku/links.h"

/* A difficulty on the SE scale: floats as they are, integers as tenths. */
static double diff_value(const msgpack_object *o)
{
    if (!o) return NAN;
    if (o->type == MSGPACK_OBJECT_FLOAT32 || o->type == MSGPACK_OBJECT_FLOAT64) return o->via.f64;
    if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER || o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        return sdk_wire_num(o, 0) / 10.0;
    return NAN;
}

static const char *diff_text(const msgpack_object *o, char *buf, size_t n)
{
    double v = diff_value(o);
    if (isnan(v))
        snprintf(buf, n, "?");
    else
        snprintf(buf, n, "%.1f", v);
    return buf;
}

static void json_key(FILE *f, bool *first, const char *key)
{
    if (!*first) putc_unlocked(',', f);
    *first = false;
    json_string(f, key, strlen(key));
    putc_unlocked(':', f);
}

static void json_field(FILE *f, bool *first, const msgpack_object *r, const char *key)
{
    const msgpack_object *v = sdk_wire_get(r, key);
    if (!v) return;
    json_key(f, first, key);
    json_write(f, v);
}

static void json_diff_field(FILE *f, bool *first, const msgpack_object *r, const char *key)
{
    const msgpack_object *v = sdk_wire_get(r, key);
    if (!v) return;
    json_key(f, first, key);
    json_double(f, diff_value(v), "%.1f");
}

/* ---- a step's links as consequence lines ----------------------------------- */

/* A wire step read back (lib/wire.c), or NULL when it does not read: then it
 * is shown by its text alone. Valid until the next call. */
static const sdk_step *unpack_step(const msgpack_object *s)
{
    static sdk_wire_step ws;
    sdk_error err;
    return sdk_wire_unpack_step(s, &ws, &err) ? &ws.step : NULL;
}

typedef struct line_out {
    FILE *f;
    const char *indent;
    bool json;
    int n;
} line_out;

static void put_line(void *ctx, const sdk_node *derived, const char *line)
{
    (void)derived;
    line_out *lo = ctx;
    if (lo->json) {
        if (lo->n) putc(',', lo->f);
        json_string(lo->f, line, strlen(line));
    } else {
        fprintf(lo->f, "%s%s\n", lo->indent, line);
    }
    lo->n++;
}

/* The step's chains, one line each (sdk_links_trace_lines); JSON: an array. */
static void step_trace_lines(FILE *f, const sdk_step *st, bool json, const char *indent,
                             unsigned flags)
{
    line_out lo = {f, indent, json, 0};
    if (json) putc('[', f);
    if (st) sdk_links_trace_lines_flags(st->link, st->nlink, flags, put_line, &lo);
    if (json) putc(']', f);
}

static bool line81(const char *s, size_t n, char out[82]);

/* Cells in JSON always as "r1c2" (the wire has 0..80 in marks and ALS
 * sets); houses as "r1", "c2", "b3". */
static void json_cell(FILE *f, const msgpack_object *o)
{
    int c = sdk_wire_cell(o);
    if (c < 0)
        json_write(f, o);
    else
        fprintf(f, "\"r%dc%d\"", c / 9 + 1, c % 9 + 1);
}

static void json_cells(FILE *f, const msgpack_object *a)
{
    if (!a || a->type != MSGPACK_OBJECT_ARRAY) {
        json_write(f, a);
        return;
    }
    putc('[', f);
    for (uint32_t i = 0; i < a->via.array.size; i++) {
        if (i) putc(',', f);
        json_cell(f, &a->via.array.ptr[i]);
    }
    putc(']', f);
}

static void json_role(FILE *f, const msgpack_object *o)
{
    if (o && o->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
        fprintf(f, "\"%s\"", sdk_wire_role_name(sdk_wire_role(o)));
    else
        json_write(f, o);
}

/* marks: [[cell, digit, role]] -> [{"cell":"r1c2","digit":5,"role":"fin"}] */
static void json_marks(FILE *f, const msgpack_object *a)
{
    putc('[', f);
    for (size_t i = 0; i < sdk_wire_len(a) && a->type == MSGPACK_OBJECT_ARRAY; i++) {
        const msgpack_object *m = &a->via.array.ptr[i];
        if (i) putc(',', f);
        if (m->type != MSGPACK_OBJECT_ARRAY || m->via.array.size < 3) {
            json_write(f, m);
            continue;
        }
        fputs("{\"cell\":", f);
        json_cell(f, &m->via.array.ptr[0]);
        fputs(",\"digit\":", f);
        json_write(f, &m->via.array.ptr[1]);
        fputs(",\"role\":", f);
        json_role(f, &m->via.array.ptr[2]);
        putc('}', f);
    }
    putc(']', f);
}

/* houses: [[house, role]] -> [{"house":"b3","role":"base"}] */
static void json_houses(FILE *f, const msgpack_object *a)
{
    putc('[', f);
    for (size_t i = 0; i < sdk_wire_len(a) && a->type == MSGPACK_OBJECT_ARRAY; i++) {
        const msgpack_object *h = &a->via.array.ptr[i];
        if (i) putc(',', f);
        if (h->type != MSGPACK_OBJECT_ARRAY || h->via.array.size < 2) {
            json_write(f, h);
            continue;
        }
        long long k = sdk_wire_int(&h->via.array.ptr[0], -1);
        fputs("{\"house\":", f);
        if (k >= 0 && k < 27)
            fprintf(f, "\"%c%lld\"", "rcb"[k / 9], k % 9 + 1);
        else
            json_write(f, &h->via.array.ptr[0]);
        fputs(",\"role\":", f);
        json_role(f, &h->via.array.ptr[1]);
        putc('}', f);
    }
    putc(']', f);
}

/* links with their ALS / group cells as "r1c2". */
static void json_links(FILE *f, const msgpack_object *a)
{
    putc('[', f);
    for (size_t i = 0; i < sdk_wire_len(a) && a->type == MSGPACK_OBJECT_ARRAY; i++) {
        const msgpack_object *l = &a->via.array.ptr[i];
        if (i) putc(',', f);
        if (l->type != MSGPACK_OBJECT_MAP) {
            json_write(f, l);
            continue;
        }
        putc('{', f);
        for (uint32_t k = 0; k < l->via.map.size; k++) {
            const msgpack_object *key = &l->via.map.ptr[k].key, *val = &l->via.map.ptr[k].val;
            if (k) putc(',', f);
            json_write(f, key);
            putc(':', f);
            if (sdk_wire_str_is(key, "als") || sdk_wire_str_is(key, "cells"))
                json_cells(f, val);
            else
                json_write(f, val);
        }
        putc('}', f);
    }
    putc(']', f);
}

static void json_steps(FILE *f, const msgpack_object *steps, bool trace_links, unsigned flags)
{
    putc('[', f);
    for (size_t i = 0; i < sdk_wire_len(steps) && steps->type == MSGPACK_OBJECT_ARRAY; i++) {
        const msgpack_object *s = &steps->via.array.ptr[i];
        if (i) putc(',', f);
        bool first = true;
        putc('{', f);
        json_field(f, &first, s, "technique");
        json_field(f, &first, s, "name");
        json_diff_field(f, &first, s, "difficulty");
        json_field(f, &first, s, "placements");
        json_field(f, &first, s, "eliminations");
        json_field(f, &first, s, "text");
        if (sdk_wire_get(s, "marks")) {
            json_key(f, &first, "marks");
            json_marks(f, sdk_wire_get(s, "marks"));
        }
        if (sdk_wire_get(s, "houses")) {
            json_key(f, &first, "houses");
            json_houses(f, sdk_wire_get(s, "houses"));
        }
        const msgpack_object *links = sdk_wire_get(s, "links");
        if (sdk_wire_len(links)) {
            json_key(f, &first, "links");
            json_links(f, links);
        }
        json_field(f, &first, s, "truncated"); /* the chains did not all fit */
        json_field(f, &first, s, "inner");     /* a nested step's inner steps */
        json_field(f, &first, s, "because");   /* which of them remove what */
        if (trace_links && sdk_wire_len(links)) {
            json_key(f, &first, "trace_links");
            step_trace_lines(f, unpack_step(s), true, "", flags);
        }
        putc('}', f);
    }
    putc(']', f);
}

/* `puzzle`: the 81-character form whatever the input's format; `input`
 * the text as read when it differs. */
static void json_puzzle_key(FILE *f, bool *first, const msgpack_object *p, const char *input)
{
    const char *t = input;
    size_t n = strlen(input);
    if (p && p->type == MSGPACK_OBJECT_STR) t = p->via.str.ptr, n = p->via.str.size;
    char l81[82];
    json_key(f, first, "puzzle");
    if (line81(t, n, l81)) {
        json_string(f, l81, 81);
        json_key(f, first, "input");
    }
    if (p)
        json_write(f, p);
    else
        json_string(f, input, strlen(input));
}

/* The result's other fields, as the wire has them (stuck_grid, guesses,
 * solution2, differ, status, ...): `--json` drops nothing. */
static void json_rest(FILE *f, bool *first, const msgpack_object *r, const char *const *done)
{
    if (!r || r->type != MSGPACK_OBJECT_MAP) return;
    for (uint32_t i = 0; i < r->via.map.size; i++) {
        const msgpack_object *k = &r->via.map.ptr[i].key;
        if (k->type != MSGPACK_OBJECT_STR || sdk_wire_str_is(k, "puzzle")) continue;
        bool seen = false;
        for (int d = 0; done[d] && !seen; d++) seen = sdk_wire_str_is(k, done[d]);
        if (seen) continue;
        if (!*first) putc(',', f);
        *first = false;
        json_string(f, k->via.str.ptr, k->via.str.size);
        putc(':', f);
        json_write(f, &r->via.map.ptr[i].val);
    }
}

/* A solve result's key, for json_solve. */
enum solve_key { K_OTHER, K_PUZZLE, K_ERROR, K_STATUS, K_SOLUTION, K_SOLUTIONS, K_DROPPED };

static enum solve_key solve_key_of(const msgpack_object *k)
{
    const char *p = k->via.str.ptr;
    switch (k->via.str.size) {
    case 5:
        if (!memcmp(p, "error", 5)) return K_ERROR;
        if (!memcmp(p, "steps", 5)) return K_DROPPED;
        break;
    case 6:
        if (!memcmp(p, "puzzle", 6)) return K_PUZZLE;
        if (!memcmp(p, "status", 6)) return K_STATUS;
        if (!memcmp(p, "solved", 6)) return K_DROPPED;
        break;
    case 8:
        if (!memcmp(p, "solution", 8)) return K_SOLUTION;
        break;
    case 9:
        if (!memcmp(p, "solutions", 9)) return K_SOLUTIONS;
        break;
    default:
        break;
    }
    return K_OTHER;
}

/* A JSON line built in memory, written with one call. */
typedef struct json_line {
    char b[1024];
    size_t n;
    bool bad; /* too long, or a value it does not write: nothing is written */
} json_line;

static void line_put(json_line *l, const char *s, size_t n)
{
    if (l->n + n > sizeof l->b) {
        l->bad = true;
        return;
    }
    memcpy(l->b + l->n, s, n);
    l->n += n;
}

static void line_str(json_line *l, const char *s, size_t n)
{
    if (!json_plain(s, n)) {
        l->bad = true;
        return;
    }
    line_put(l, "\"", 1);
    line_put(l, s, n);
    line_put(l, "\"", 1);
}

/* What json_write writes, for strings needing no escape, non-negative
 * integers, nil and booleans. */
static void line_value(json_line *l, const msgpack_object *o)
{
    char d[24], *e = d + sizeof d, *q = e;
    uint64_t v;
    switch (o->type) {
    case MSGPACK_OBJECT_STR:
        line_str(l, o->via.str.ptr, o->via.str.size);
        break;
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        v = o->via.u64;
        do *--q = (char)('0' + v % 10);
        while (v /= 10);
        line_put(l, q, (size_t)(e - q));
        break;
    case MSGPACK_OBJECT_NIL:
        line_put(l, "null", 4);
        break;
    case MSGPACK_OBJECT_BOOLEAN:
        if (o->via.boolean)
            line_put(l, "true", 4);
        else
            line_put(l, "false", 5);
        break;
    default:
        l->bad = true;
    }
}

static void line_key(json_line *l, const char *k, size_t n)
{
    line_put(l, ",", 1);
    line_str(l, k, n);
    line_put(l, ":", 1);
}

/* The puzzle as the wire echoes it, already in the 81-character form (so
 * json_puzzle_key writes it alone, with no "input")? */
static bool echo_is_line81(const msgpack_object *p)
{
    if (!p || p->type != MSGPACK_OBJECT_STR || p->via.str.size != 81) return false;
    static const bool cell[256] = {['.'] = 1, ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1,
                                   ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1};
    bool all = true; /* no branch per cell */
    for (int i = 0; i < 81; i++) all &= cell[(unsigned char)p->via.str.ptr[i]];
    return all;
}

/* solve without --logic, a batch's usual answer: what the general path
 * below writes (and render_puzzle's verdict), from one pass over the
 * result's keys; a batch of a million puzzles would look each key up
 * several times. The first of a repeated key counts, as with sdk_wire_get;
 * the others are left out, as json_rest leaves them. Returns -1 (nothing
 * written) for a result of more keys than it keeps track of. */
static int json_solve(FILE *f, const msgpack_object *r, const char *input)
{
    enum { MAX_REST = 16 };
    const msgpack_object *v[K_DROPPED] = {NULL};
    uint32_t rest[MAX_REST], nrest = 0, n = r->via.map.size;
    for (uint32_t i = 0; i < n; i++) {
        const msgpack_object *k = &r->via.map.ptr[i].key;
        if (k->type != MSGPACK_OBJECT_STR) continue; /* JSON has string keys only */
        enum solve_key c = solve_key_of(k);
        if (c == K_DROPPED || c == K_PUZZLE || (c != K_OTHER && c != K_ERROR && v[c])) {
            if (c == K_PUZZLE && !v[c]) v[c] = &r->via.map.ptr[i].val;
            continue;
        }
        if (c == K_ERROR && !v[c]) v[c] = &r->via.map.ptr[i].val;
        if (c != K_OTHER && c != K_ERROR) {
            v[c] = &r->via.map.ptr[i].val;
            continue;
        }
        if (nrest == MAX_REST) return -1;
        rest[nrest++] = i; /* every "error" too: a nil one is printed with the rest */
    }
    /* render_puzzle's verdict: no error, and a unique solution */
    const msgpack_object *st = v[K_STATUS], *err = v[K_ERROR];
    int unique = st && st->type == MSGPACK_OBJECT_STR && st->via.str.size == 6 &&
                 !memcmp(st->via.str.ptr, "unique", 6);
    static const char *const names[] = {
        [K_STATUS] = "status", [K_SOLUTION] = "solution", [K_SOLUTIONS] = "solutions"};
    if ((!err || err->type == MSGPACK_OBJECT_NIL) && echo_is_line81(v[K_PUZZLE])) {
        /* the usual line: built in memory, one write */
        json_line l = {.n = 0, .bad = false};
        line_put(&l, "{\"puzzle\":\"", 11); /* its cells need no escape */
        line_put(&l, v[K_PUZZLE]->via.str.ptr, 81);
        line_put(&l, "\"", 1);
        for (int c = K_STATUS; c <= K_SOLUTIONS; c++)
            if (v[c]) {
                line_key(&l, names[c], strlen(names[c]));
                line_value(&l, v[c]);
            }
        for (uint32_t i = 0; i < nrest && !l.bad; i++) {
            const msgpack_object_kv *kv = &r->via.map.ptr[rest[i]];
            line_key(&l, kv->key.via.str.ptr, kv->key.via.str.size);
            line_value(&l, &kv->val);
        }
        line_put(&l, "}\n", 2);
        if (!l.bad) {
            fwrite_unlocked(l.b, 1, l.n, f);
            return unique;
        }
    }
    bool first = true;
    putc_unlocked('{', f);
    json_puzzle_key(f, &first, v[K_PUZZLE], input);
    if (err && err->type != MSGPACK_OBJECT_NIL) {
        json_key(f, &first, "error");
        bool ef = true;
        putc_unlocked('{', f);
        json_field(f, &ef, err, "code");
        json_field(f, &ef, err, "message");
        putc_unlocked('}', f);
        fputs_unlocked("}\n", f);
        return 0;
    }
    for (int c = K_STATUS; c <= K_SOLUTIONS; c++)
        if (v[c]) {
            json_key(f, &first, names[c]);
            json_write(f, v[c]);
        }
    for (uint32_t i = 0; i < nrest; i++) {
        const msgpack_object_kv *kv = &r->via.map.ptr[rest[i]];
        if (!first) putc_unlocked(',', f);
        first = false;
        json_string(f, kv->key.via.str.ptr, kv->key.via.str.size);
        putc_unlocked(':', f);
        json_write(f, &kv->val);
    }
    fputs_unlocked("}\n", f);
    return unique;
}

size_t render_compact_line(char *b, const char *input, const char *solution, uint64_t guesses)
{
    static const char head[] = "{\"puzzle\":\"", mid[] = "\",\"status\":\"unique\",\"solution\":\"",
                      tail[] = "\",\"solutions\":1,\"guesses\":";
    size_t n = 0;
    memcpy(b, head, sizeof head - 1), n += sizeof head - 1;
    memcpy(b + n, input, 81), n += 81;
    memcpy(b + n, mid, sizeof mid - 1), n += sizeof mid - 1;
    memcpy(b + n, solution, 81), n += 81;
    memcpy(b + n, tail, sizeof tail - 1), n += sizeof tail - 1;
    char d[24], *e = d + sizeof d, *q = e;
    uint64_t v = guesses;
    do *--q = (char)('0' + v % 10);
    while (v /= 10);
    while (q < e) b[n++] = *q++;
    b[n++] = '}', b[n++] = '\n';
    return n;
}

/* solve's `compact` answer, [solution, guesses] for a puzzle sent as 81
 * cells with a unique solution: the line json_solve writes for the map it
 * stands for. -1 when r is not that. */
static int json_solve_compact(FILE *f, const msgpack_object *r, const char *input)
{
    const msgpack_object *a = r->via.array.ptr;
    if (r->via.array.size != 2 || a[0].type != MSGPACK_OBJECT_STR || a[0].via.str.size != 81 ||
        a[1].type != MSGPACK_OBJECT_POSITIVE_INTEGER || strlen(input) != 81)
        return -1;
    char b[RENDER_COMPACT_MAX];
    fwrite_unlocked(b, 1, render_compact_line(b, input, a[0].via.str.ptr, a[1].via.u64), f);
    return 1;
}

bool render_takes_compact(const render_opts *o)
{
    return o->mode == OUT_JSON && !o->logic && !strcmp(o->cmd, "solve");
}

static void json_puzzle(const render_opts *o, const msgpack_object *r, const char *input)
{
    FILE *f = o->out;
    bool first = true;
    putc('{', f);
    json_puzzle_key(f, &first, sdk_wire_get(r, "puzzle"), input);
    const msgpack_object *err = sdk_wire_get(r, "error");
    if (err && err->type != MSGPACK_OBJECT_NIL) {
        json_key(f, &first, "error");
        bool ef = true;
        putc('{', f);
        json_field(f, &ef, err, "code");
        json_field(f, &ef, err, "message");
        putc('}', f);
    } else if (!strcmp(o->cmd, "solve")) {
        if (o->logic) json_field(f, &first, r, "solved");
        json_field(f, &first, r, "status");
        json_field(f, &first, r, "solution");
        json_field(f, &first, r, "solutions");
        if (o->logic) {
            if (sdk_wire_get(r, "steps")) {
                json_key(f, &first, "steps");
                json_steps(f, sdk_wire_get(r, "steps"), o->trace_links,
                           o->gnpx ? SDK_TRACE_GNPX : 0);
            }
        }
        static const char *const done[] = {"solved",    "status", "solution",
                                           "solutions", "steps",  NULL};
        json_rest(f, &first, r, done);
    } else if (!strcmp(o->cmd, "rate")) {
        json_field(f, &first, r, "solved");
        json_diff_field(f, &first, r, "er");
        json_diff_field(f, &first, r, "ep");
        json_diff_field(f, &first, r, "ed");
        json_field(f, &first, r, "level");
        json_field(f, &first, r, "score");
        json_field(f, &first, r, "hardest");
        static const char *const done[] = {"solved", "er",    "ep",      "ed",
                                           "level",  "score", "hardest", NULL};
        json_rest(f, &first, r, done);
    } else if (!strcmp(o->cmd, "explain") || !strcmp(o->cmd, "hint")) {
        if (!strcmp(o->cmd, "explain")) json_field(f, &first, r, "solved");
        if (sdk_wire_get(r, "passes")) {
            json_field(f, &first, r, "passes");
            json_field(f, &first, r, "passes_grid");
        }
        json_key(f, &first, "steps");
        json_steps(f, sdk_wire_get(r, "steps"), o->trace_links, o->gnpx ? SDK_TRACE_GNPX : 0);
        if (o->trace) {
            json_field(f, &first, r, "trace");
            json_field(f, &first, r, "trace_status");
        }
        static const char *const done[] = {"solved", "steps", "trace", "trace_status", NULL};
        json_rest(f, &first, r, done);
    } else if (!strcmp(o->cmd, "trace")) {
        json_field(f, &first, r, "assumption");
        json_field(f, &first, r, "lines");
        json_field(f, &first, r, "contradiction");
        json_field(f, &first, r, "summary");
        static const char *const done[] = {"assumption", "lines", "contradiction", "summary", NULL};
        json_rest(f, &first, r, done);
    }
    fputs("}\n", f);
}

/* ---- text ----------------------------------------------------------------- */

static void print_str(FILE *f, const msgpack_object *o)
{
    if (o && o->type == MSGPACK_OBJECT_STR) fwrite(o->via.str.ptr, 1, o->via.str.size, f);
}

/* A puzzle text on one line: line breaks become spaces, trailing blanks go. */
/* The 81-character form of a puzzle given in another format (a printed
 * grid, a candidate grid, a line with text after the cells); false when s
 * is already that form or does not parse. */
static bool line81(const char *s, size_t n, char out[82])
{
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    if (n == 81 && !memchr(s, '\n', n)) return false;
    char *t = strndup(s, n);
    sdk_grid g;
    sdk_error err;
    bool ok = t && sdk_parse(t, &g, &err);
    free(t);
    if (ok) sdk_format_line(&g, out);
    return ok;
}

static void print_oneline(FILE *f, const char *s, size_t n)
{
    char l81[82];
    if (line81(s, n, l81)) {
        fputs(l81, f);
        return;
    }
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    for (size_t i = 0; i < n; i++) putc(s[i] == '\n' || s[i] == '\r' ? ' ' : s[i], f);
}

static void print_input_line(FILE *f, const char *input)
{
    print_oneline(f, input, strlen(input));
}

static void print_puzzle_or_input(FILE *f, const msgpack_object *r, const char *input)
{
    const msgpack_object *p = sdk_wire_get(r, "puzzle");
    if (p && p->type == MSGPACK_OBJECT_STR)
        print_oneline(f, p->via.str.ptr, p->via.str.size);
    else
        print_input_line(f, input);
}

/* "# <puzzle>  (file:line)" before a puzzle's steps; a puzzle written on
 * several lines (a printed grid) is named by where it was read only. */
static void print_header(FILE *f, const msgpack_object *r, const char *input, const char *where)
{
    const char *t = input;
    size_t n = strlen(input);
    const msgpack_object *p = sdk_wire_get(r, "puzzle");
    if (p && p->type == MSGPACK_OBJECT_STR) t = p->via.str.ptr, n = p->via.str.size;
    while (n && (t[n - 1] == '\n' || t[n - 1] == '\r' || t[n - 1] == ' ')) n--;
    char l81[82];
    bool multiline = memchr(t, '\n', n) != NULL && !line81(t, n, l81);
    fputs("# ", f);
    if (!multiline) print_oneline(f, t, n);
    if (where && *where) fprintf(f, multiline ? "%s" : "  (%s)", where);
    putc('\n', f);
}

/* A 9-line grid of an 81-character string. */
static void print_big_grid(FILE *f, const char *s, size_t n)
{
    for (int r = 0; r < 9; r++) {
        if (r == 3 || r == 6) fputs("------+-------+------\n", f);
        for (int c = 0; c < 9; c++) {
            size_t i = (size_t)(r * 9 + c);
            char ch = i < n ? s[i] : '.';
            if (ch == '0') ch = '.';
            if (c == 3 || c == 6) fputs(" |", f);
            fprintf(f, c ? " %c" : "%c", ch);
        }
        putc('\n', f);
    }
}

/* Parse text into a grid; false quietly when it does not parse. */
static bool local_grid(const char *text, sdk_grid *g)
{
    sdk_error err;
    return text && sdk_parse(text, g, &err);
}

static void print_pencil(FILE *f, const sdk_grid *g)
{
    char buf[4096];
    fputs(sdk_format_pencilmarks(g, buf, sizeof buf), f);
    size_t l = strlen(buf);
    if (l && buf[l - 1] != '\n') putc('\n', f);
}

/* A step of several chains (forcing chains and nets): each branch on its own
 * line, in Eureka notation, so that a reader can check it link by link. */
static void print_branches(FILE *f, const msgpack_object *s)
{
    chain_branch br[64];
    int nb = chain_branches(s, br, 64);
    if (nb < 2 && !(nb == 1 && sdk_wire_len(sdk_wire_get(s, "inner")))) return;
    static char eu[8192];
    for (int b = 0; b < nb; b++)
        fprintf(f, "    %d) %s\n", b + 1, chain_eureka(s, br[b].start, br[b].end, eu, sizeof eu));
}

/* "1-10, 13, 15-24" from a "steps" array of 0-based indexes. */
static void print_step_numbers(FILE *f, const msgpack_object *a)
{
    size_t n = a && a->type == MSGPACK_OBJECT_ARRAY ? a->via.array.size : 0;
    for (size_t i = 0; i < n;) {
        long long x = sdk_wire_int(&a->via.array.ptr[i], -1), y = x;
        size_t j = i + 1;
        while (j < n && sdk_wire_int(&a->via.array.ptr[j], -1) == y + 1) y++, j++;
        fprintf(f, "%s%lld", i ? ", " : "", x + 1);
        if (y > x) fprintf(f, "-%lld", y + 1);
        i = j;
    }
}

/* A nested step: under its branch, the inner steps the engine applied that
 * its contradiction stands on, numbered, then for each candidate the
 * contradiction needs gone (or placed) the steps that do it; applied in
 * order to the branch's position they remove it. */
static void print_inner(FILE *f, const msgpack_object *s)
{
    const msgpack_object *in = sdk_wire_get(s, "inner"), *by = sdk_wire_get(s, "because");
    if (!sdk_wire_len(in) || in->type != MSGPACK_OBJECT_ARRAY) return;
    fprintf(f, "       %s\n", _("then the profile's earlier techniques:"));
    for (size_t i = 0; i < in->via.array.size; i++) {
        char *text = step_text_alloc(&in->via.array.ptr[i]);
        fprintf(f, "       %zu. %s\n", i + 1, text ? text : "");
        free(text);
    }
    for (size_t i = 0; i < sdk_wire_len(by) && by->type == MSGPACK_OBJECT_ARRAY; i++) {
        const msgpack_object *c = &by->via.array.ptr[i];
        char cand[16];
        sdk_wire_text(sdk_wire_get(c, "candidate"), cand, sizeof cand);
        fprintf(f, "       %s %s ", cand, _("by steps"));
        print_step_numbers(f, sdk_wire_get(c, "steps"));
        putc('\n', f);
    }
}

static void print_steps(const render_opts *o, const msgpack_object *steps, const char *input)
{
    FILE *f = o->out;
    sdk_grid g;
    bool have = o->grid && local_grid(input, &g);
    bool colour = have && !o->pencil && grid_colour_wanted(o->color, f);
    /* explain's steps follow each other; hint's are alternatives */
    bool advance = strcmp(o->cmd, "hint") != 0;
    for (size_t i = 0; i < sdk_wire_len(steps) && steps->type == MSGPACK_OBJECT_ARRAY; i++) {
        const msgpack_object *s = &steps->via.array.ptr[i];
        if (have) {
            putc('\n', f);
            if (o->pencil)
                print_pencil(f, &g);
            else
                grid_text_draw(f, &g, s, colour);
        }
        color_fprintf(f, STYLE_BOLD, "%zu.", i + 1);
        putc(' ', f);
        char *text = step_text_alloc(s);
        if (text && *text)
            fputs(text, f);
        else
            print_str(f, sdk_wire_get(s, "technique"));
        free(text);
        putc('\n', f);
        print_branches(f, s);
        print_inner(f, s);
        const sdk_step *st = o->trace_links || (have && advance) ? unpack_step(s) : NULL;
        if (o->trace_links) step_trace_lines(f, st, false, "    ", o->gnpx ? SDK_TRACE_GNPX : 0);
        if (have && advance && st) sdk_step_apply(st, &g);
    }
}

static void text_failure(FILE *f, const char *puzzle_line, const char *where, const char *code,
                         const char *message)
{
    fprintf(f, "%s  ", puzzle_line);
    color_fprintf(f, STYLE_RED, "error: %s", code);
    fprintf(f, ": %s", message);
    if (where && *where) fprintf(f, " (%s)", where);
    putc('\n', f);
}

static bool text_puzzle(const render_opts *o, const msgpack_object *r, const char *input,
                        const char *where)
{
    FILE *f = o->out;
    char buf[1024], code[64], msg[512];
    const msgpack_object *err = sdk_wire_get(r, "error");
    if (err && err->type != MSGPACK_OBJECT_NIL) {
        char *line = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&line, &len);
        if (m) {
            print_puzzle_or_input(m, r, input);
            fclose(m);
        }
        text_failure(f, line ? line : "", where,
                     sdk_wire_text(sdk_wire_get(err, "code"), code, sizeof code),
                     sdk_wire_text(sdk_wire_get(err, "message"), msg, sizeof msg));
        free(line);
        return false;
    }
    const char *cmd = o->cmd;
    if (!strcmp(cmd, "solve")) {
        const msgpack_object *st = sdk_wire_get(r, "status");
        const msgpack_object *sol = sdk_wire_get(r, "solution");
        bool unique = sdk_wire_str_is(st, "unique");
        bool stuck = false;
        if (o->logic) {
            if (o->headers) {
                print_header(f, r, input, where);
            }
            print_steps(o, sdk_wire_get(r, "steps"), input);
            const msgpack_object *solved = sdk_wire_get(r, "solved");
            stuck = solved && !sdk_wire_bool(solved, false);
            if (stuck) color_fprintf(f, STYLE_RED, "%s\n", _("(techniques got stuck)"));
        }
        if (o->big) {
            if (sol && sol->type == MSGPACK_OBJECT_STR)
                print_big_grid(f, sol->via.str.ptr, sol->via.str.size);
            else {
                const msgpack_object *p = sdk_wire_get(r, "puzzle");
                if (p && p->type == MSGPACK_OBJECT_STR)
                    print_big_grid(f, p->via.str.ptr, p->via.str.size);
            }
            fprintf(f, "status: %s", sdk_wire_text(st, buf, sizeof buf));
            const msgpack_object *gs = sdk_wire_get(r, "guesses");
            if (gs) fprintf(f, " (guesses: %lld)", sdk_wire_int(gs, 0));
            putc('\n', f);
            if (sdk_wire_str_is(st, "multiple")) {
                const msgpack_object *s2 = sdk_wire_get(r, "solution2");
                if (s2 && s2->type == MSGPACK_OBJECT_STR) {
                    fputs("another solution:\n", f);
                    print_big_grid(f, s2->via.str.ptr, s2->via.str.size);
                }
            }
        } else {
            if (sol && sol->type == MSGPACK_OBJECT_STR)
                print_str(f, sol);
            else
                print_puzzle_or_input(f, r, input);
            fputs("  ", f);
            color_fputs(f, unique ? STYLE_GREEN : STYLE_RED, sdk_wire_text(st, buf, sizeof buf));
        }
        if (sdk_wire_str_is(st, "multiple")) {
            const msgpack_object *d = sdk_wire_get(r, "differ");
            if (sdk_wire_len(d)) {
                fputs(o->big ? "differ:" : " differ:", f);
                for (size_t i = 0; i < sdk_wire_len(d) && d->type == MSGPACK_OBJECT_ARRAY; i++) {
                    putc(i ? ',' : ' ', f);
                    print_str(f, &d->via.array.ptr[i]);
                }
                if (o->big) putc('\n', f);
            }
        }
        if (!o->big) putc('\n', f);
        return unique && !stuck;
    }
    if (!strcmp(cmd, "rate")) {
        char er[16], ep[16], ed[16], lv[64], hd[64];
        const msgpack_object *solved = sdk_wire_get(r, "solved");
        bool not_solved = solved && !sdk_wire_bool(solved, true);
        print_puzzle_or_input(f, r, input);
        /* a rating of a puzzle the techniques could not finish is a lower
         * bound: say so first */
        if (not_solved) color_fputs(f, STYLE_RED, "  not solved");
        fprintf(f, "  %s/%s/%s  %s  %s", diff_text(sdk_wire_get(r, "er"), er, sizeof er),
                diff_text(sdk_wire_get(r, "ep"), ep, sizeof ep),
                diff_text(sdk_wire_get(r, "ed"), ed, sizeof ed),
                sdk_wire_text(sdk_wire_get(r, "level"), lv, sizeof lv),
                sdk_wire_text(sdk_wire_get(r, "hardest"), hd, sizeof hd));
        putc('\n', f);
        return !not_solved;
    }
    if (!strcmp(cmd, "explain") && o->share) { /* its own header */
        share_puzzle(f, o->share, r, input);
        return true;
    }
    if (!strcmp(cmd, "explain") || !strcmp(cmd, "hint") || !strcmp(cmd, "trace")) {
        if (o->headers) {
            print_header(f, r, input, where);
        }
        if (!strcmp(cmd, "trace")) {
            render_link_trace(f, r);
            return true;
        }
        const msgpack_object *steps = sdk_wire_get(r, "steps");
        const msgpack_object *passes = sdk_wire_get(r, "passes");
        if (passes) { /* the Hindi seed's singles program (seeds/004) */
            char pg[128];
            sdk_wire_text(sdk_wire_get(r, "passes_grid"), pg, sizeof pg);
            fprintf(f, "singles program: %lld passes, %s\n", sdk_wire_int(passes, 0),
                    strchr(pg, '.') ? "not solved" : "solved");
            fprintf(f, "  %s\n", pg);
        }
        print_steps(o, steps, input);
        if (!strcmp(cmd, "hint")) {
            if (!sdk_wire_len(steps)) fprintf(f, "%s\n", _("no step found"));
            return true;
        }
        const msgpack_object *solved = sdk_wire_get(r, "solved");
        bool ok = sdk_wire_bool(solved, false);
        if (ok)
            color_fprintf(f, STYLE_GREEN, _("solved in %zu steps\n"), sdk_wire_len(steps));
        else {
            color_fprintf(f, STYLE_RED, _("stuck after %zu steps\n"), sdk_wire_len(steps));
            const msgpack_object *sg = sdk_wire_get(r, "stuck_grid");
            sdk_grid g;
            if (sg && sg->type == MSGPACK_OBJECT_STR) {
                char *t = strndup(sg->via.str.ptr, sg->via.str.size);
                if (t && local_grid(t, &g))
                    print_pencil(f, &g);
                else
                    print_str(f, sg), putc('\n', f);
                free(t);
            }
        }
        if (o->trace && o->grid) /* the seed program's own output (seeds/001) */
            render_seed001(f, r);
        else if (o->trace) {
            fputs("backtracking trace:\n", f);
            render_backtrack_trace(f, r);
        }
        return ok;
    }
    json_write(f, r);
    putc('\n', f);
    return true;
}

/* ---- entry points ---------------------------------------------------------- */

void render_begin(const render_opts *o)
{
    if (o->mode == OUT_HTML && report_wants(o->cmd))
        report_begin(o->out, o->cmd);
    else if (o->mode == OUT_HTML)
        html_begin(o->out, o->cmd);
    if (o->mode >= OUT_LINES) outfmt_begin(o);
}

void render_end(const render_opts *o)
{
    if (o->mode == OUT_HTML && report_wants(o->cmd))
        report_end(o->out, o->cmd);
    else if (o->mode == OUT_HTML)
        html_end(o->out);
    fflush(o->out);
}

static bool result_ok(const render_opts *o, const msgpack_object *r)
{
    const msgpack_object *err = sdk_wire_get(r, "error");
    if (err && err->type != MSGPACK_OBJECT_NIL) return false;
    if (!strcmp(o->cmd, "solve") && !o->logic)
        return sdk_wire_str_is(sdk_wire_get(r, "status"), "unique");
    /* a rating or explanation the techniques could not finish */
    if (!strcmp(o->cmd, "rate") || !strcmp(o->cmd, "explain") ||
        (!strcmp(o->cmd, "solve") && o->logic))
        return sdk_wire_bool(sdk_wire_get(r, "solved"), true) &&
               (strcmp(o->cmd, "solve") || sdk_wire_str_is(sdk_wire_get(r, "status"), "unique"));
    return true;
}

bool render_puzzle(const render_opts *o, const msgpack_object *r, const char *input,
                   const char *where)
{
    switch (o->mode) {
    case OUT_JSON:
        if (!o->logic && r && r->type == MSGPACK_OBJECT_ARRAY && !strcmp(o->cmd, "solve")) {
            int ok = json_solve_compact(o->out, r, input);
            if (ok >= 0) return ok;
        }
        if (!o->logic && r && r->type == MSGPACK_OBJECT_MAP && !strcmp(o->cmd, "solve")) {
            int ok = json_solve(o->out, r, input);
            if (ok >= 0) return ok;
        }
        json_puzzle(o, r, input);
        return result_ok(o, r);
    case OUT_HTML:
        if (report_wants(o->cmd))
            report_puzzle(o, r, input, where);
        else
            html_puzzle(o, r, input, where);
        return result_ok(o, r);
    case OUT_LINES:
    case OUT_CSV:
    case OUT_FORMAT:
        return outfmt_puzzle(o, r, input, where);
    default:
        return text_puzzle(o, r, input, where);
    }
}

void render_failure(const render_opts *o, const char *input, const char *where, const char *code,
                    const char *message)
{
    FILE *f = o->out;
    if (o->mode == OUT_JSON) {
        fputs("{\"puzzle\":", f);
        json_string(f, input, strlen(input));
        fputs(",\"error\":{\"code\":", f);
        json_string(f, code, strlen(code));
        fputs(",\"message\":", f);
        json_string(f, message, strlen(message));
        fputs("}}\n", f);
    } else if (o->mode == OUT_HTML && report_wants(o->cmd)) {
        report_failure(o, input, where, code, message);
    } else if (o->mode == OUT_HTML) {
        html_failure(f, input, where, code, message);
    } else if (o->mode >= OUT_LINES) {
        outfmt_failure(o, input, where, code, message);
    } else {
        char *line = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&line, &len);
        if (!m) return;
        print_input_line(m, input);
        fclose(m);
        text_failure(f, line, where, code, message);
        free(line);
    }
}

void render_techniques(const render_opts *o, const msgpack_object *r)
{
    FILE *f = o->out;
    if (o->mode == OUT_JSON) {
        json_write(f, r);
        putc('\n', f);
        return;
    }
    char buf[256];
    if (sdk_wire_str_is(sdk_wire_get(r, "profile"), "*"))
        fputs("every loaded technique:\n", f);
    else
        fprintf(f, "profile: %s\n", sdk_wire_text(sdk_wire_get(r, "profile"), buf, sizeof buf));
    const msgpack_object *t = sdk_wire_get(r, "techniques");
    for (size_t i = 0; i < sdk_wire_len(t) && t->type == MSGPACK_OBJECT_ARRAY; i++) {
        const msgpack_object *e = &t->via.array.ptr[i];
        char id[64], name[96], lv[32], src[512], d[16];
        fprintf(f, "%3zu  %-28s %-32s %5s  %-8s %s\n", i + 1,
                sdk_wire_text(sdk_wire_get(e, "id"), id, sizeof id),
                sdk_wire_text(sdk_wire_get(e, "name"), name, sizeof name),
                diff_text(sdk_wire_get(e, "difficulty"), d, sizeof d),
                sdk_wire_text(sdk_wire_get(e, "level"), lv, sizeof lv),
                sdk_wire_text(sdk_wire_get(e, "source"), src, sizeof src));
    }
}

void render_status(const render_opts *o, const msgpack_object *r)
{
    FILE *f = o->out;
    if (o->mode == OUT_JSON || !r || r->type != MSGPACK_OBJECT_MAP) {
        json_write(f, r);
        putc('\n', f);
        return;
    }
    for (uint32_t i = 0; i < r->via.map.size; i++) {
        const msgpack_object *k = &r->via.map.ptr[i].key, *v = &r->via.map.ptr[i].val;
        if (k->type == MSGPACK_OBJECT_STR) fwrite(k->via.str.ptr, 1, k->via.str.size, f);
        fputs(": ", f);
        if (v->type == MSGPACK_OBJECT_STR)
            print_str(f, v);
        else
            json_write(f, v);
        putc('\n', f);
    }
}

void render_reload(const render_opts *o, const msgpack_object *r)
{
    FILE *f = o->out;
    if (o->mode == OUT_JSON) {
        json_write(f, r);
        putc('\n', f);
        return;
    }
    char buf[4096];
    fprintf(f, "reloaded %s: %lld techniques (generation %lld)\n",
            sdk_wire_text(sdk_wire_get(r, "config"), buf, sizeof buf),
            sdk_wire_int(sdk_wire_get(r, "techniques"), 0),
            sdk_wire_int(sdk_wire_get(r, "generation"), 0));
    static const char *const keys[][2] = {
        {"added", "techniques added"},
        {"removed", "techniques removed"},
        {"profiles_added", "profiles added"},
        {"profiles_removed", "profiles removed"},
        {"profiles_changed", "profiles changed"},
    };
    bool any = false;
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        const msgpack_object *a = sdk_wire_get(r, keys[k][0]);
        if (!sdk_wire_len(a) || a->type != MSGPACK_OBJECT_ARRAY) continue;
        any = true;
        fprintf(f, "%s:", keys[k][1]);
        for (size_t i = 0; i < sdk_wire_len(a); i++) {
            putc(i ? ',' : ' ', f);
            print_str(f, &a->via.array.ptr[i]);
        }
        putc('\n', f);
    }
    if (!any && sdk_wire_get(r, "added")) fputs("nothing changed\n", f);
}
