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

/* ---- JSON ------------------------------------------------------------------ */

void json_string(FILE *f, const char *s, size_t n)
{
    putc('"', f);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"':
            fputs("\\\"", f);
            break;
        case '\\':
            fputs("\\\\", f);
            break;
        case '\n':
            fputs("\\n", f);
            break;
        case '\r':
            fputs("\\r", f);
            break;
        case '\t':
            fputs("\\t", f);
            break;
        default:
            if (c < 0x20)
                fprintf(f, "\\u%04x", c);
            else
                putc(c, f);
        }
    }
    putc('"', f);
}

static void json_double(FILE *f, double v, const char *fmt)
{
    if (!isfinite(v))
        fputs("null", f);
    else
        fprintf(f, fmt, v);
}

void json_write(FILE *f, const msgpack_object *o)
{
    if (!o) {
        fputs("null", f);
        return;
    }
    switch (o->type) {
    case MSGPACK_OBJECT_NIL:
        fputs("null", f);
        break;
    case MSGPACK_OBJECT_BOOLEAN:
        fputs(o->via.boolean ? "true" : "false", f);
        break;
    case MSGPACK_OBJECT_POSITIVE_INTEGER:
        fprintf(f, "%llu", (unsigned long long)o->via.u64);
        break;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER:
        fprintf(f, "%lld", (long long)o->via.i64);
        break;
    case MSGPACK_OBJECT_FLOAT32:
        json_double(f, o->via.f64, "%.7g");
        break;
    case MSGPACK_OBJECT_FLOAT64:
        json_double(f, o->via.f64, "%.15g");
        break;
    case MSGPACK_OBJECT_STR:
        json_string(f, o->via.str.ptr, o->via.str.size);
        break;
    case MSGPACK_OBJECT_BIN:
        json_string(f, o->via.bin.ptr, o->via.bin.size);
        break;
    case MSGPACK_OBJECT_ARRAY:
        putc('[', f);
        for (uint32_t i = 0; i < o->via.array.size; i++) {
            if (i) putc(',', f);
            json_write(f, &o->via.array.ptr[i]);
        }
        putc(']', f);
        break;
    case MSGPACK_OBJECT_MAP:
        putc('{', f);
        for (uint32_t i = 0; i < o->via.map.size; i++) {
            if (i) putc(',', f);
            const msgpack_object *k = &o->via.map.ptr[i].key;
            if (k->type == MSGPACK_OBJECT_STR)
                json_string(f, k->via.str.ptr, k->via.str.size);
            else {
                /* JSON keys are strings: write the key's JSON inside quotes */
                char *buf = NULL;
                size_t len = 0;
                FILE *m = open_memstream(&buf, &len);
                if (m) {
                    json_write(m, k);
                    fclose(m);
                    json_string(f, buf, len);
                    free(buf);
                }
            }
            putc(':', f);
            json_write(f, &o->via.map.ptr[i].val);
        }
        putc('}', f);
        break;
    default:
        fputs("null", f);
    }
}

/* A difficulty on the SE scale: floats as they are, integers as tenths. */
static double diff_value(const msgpack_object *o)
{
    if (!o) return NAN;
    if (o->type == MSGPACK_OBJECT_FLOAT32 || o->type == MSGPACK_OBJECT_FLOAT64) return o->via.f64;
    if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER || o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        return mp_num(o, 0) / 10.0;
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
    if (!*first) putc(',', f);
    *first = false;
    json_string(f, key, strlen(key));
    putc(':', f);
}

static void json_field(FILE *f, bool *first, const msgpack_object *r, const char *key)
{
    const msgpack_object *v = mp_get(r, key);
    if (!v) return;
    json_key(f, first, key);
    json_write(f, v);
}

static void json_diff_field(FILE *f, bool *first, const msgpack_object *r, const char *key)
{
    const msgpack_object *v = mp_get(r, key);
    if (!v) return;
    json_key(f, first, key);
    json_double(f, diff_value(v), "%.1f");
}

/* ---- a step's links as consequence lines ----------------------------------- */

/* A wire step's links back into sdk_links (nodes "r2c46/-1", the set of an
 * ALS or group link from "als" / "cells"). Returns the count. */
static int wire_step_links(const msgpack_object *s, sdk_link *out, int max)
{
    const msgpack_object *links = mp_get(s, "links");
    int n = 0;
    for (size_t i = 0; i < mp_len(links) && links->type == MSGPACK_OBJECT_ARRAY && n < max; i++) {
        const msgpack_object *l = &links->via.array.ptr[i];
        char from[64], to[64], kind[16];
        sdk_link lk;
        memset(&lk, 0, sizeof lk);
        if (!sdk_node_parse(mp_str(mp_get(l, "from"), from, sizeof from), &lk.from) ||
            !sdk_node_parse(mp_str(mp_get(l, "to"), to, sizeof to), &lk.to))
            continue;
        int k = sdk_link_kind_parse(mp_str(mp_get(l, "kind"), kind, sizeof kind));
        lk.kind = (uint8_t)(k < 0 ? SDK_LINK_CELL : k);
        lk.strong = mp_bool(mp_get(l, "strong"), false);
        const msgpack_object *set = mp_get(l, "als");
        if (!set) set = mp_get(l, "cells");
        for (size_t c = 0; c < mp_len(set) && set->type == MSGPACK_OBJECT_ARRAY && lk.nals < 9;
             c++) {
            int cell = wire_cell(&set->via.array.ptr[c]);
            if (cell >= 0) lk.als[lk.nals++] = (uint8_t)cell;
        }
        out[n++] = lk;
    }
    return n;
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
static void step_trace_lines(FILE *f, const msgpack_object *s, bool json, const char *indent,
                             unsigned flags)
{
    static sdk_link links[SDK_STEP_MAX_LINK];
    int n = wire_step_links(s, links, SDK_STEP_MAX_LINK);
    line_out lo = {f, indent, json, 0};
    if (json) putc('[', f);
    sdk_links_trace_lines_flags(links, n, flags, put_line, &lo);
    if (json) putc(']', f);
}

static bool line81(const char *s, size_t n, char out[82]);

/* Cells in JSON always as "r1c2" (the wire has 0..80 in marks and ALS
 * sets); houses as "r1", "c2", "b3". */
static void json_cell(FILE *f, const msgpack_object *o)
{
    int c = wire_cell(o);
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
        fprintf(f, "\"%s\"", role_name(wire_role(o)));
    else
        json_write(f, o);
}

/* marks: [[cell, digit, role]] -> [{"cell":"r1c2","digit":5,"role":"fin"}] */
static void json_marks(FILE *f, const msgpack_object *a)
{
    putc('[', f);
    for (size_t i = 0; i < mp_len(a) && a->type == MSGPACK_OBJECT_ARRAY; i++) {
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
    for (size_t i = 0; i < mp_len(a) && a->type == MSGPACK_OBJECT_ARRAY; i++) {
        const msgpack_object *h = &a->via.array.ptr[i];
        if (i) putc(',', f);
        if (h->type != MSGPACK_OBJECT_ARRAY || h->via.array.size < 2) {
            json_write(f, h);
            continue;
        }
        long long k = mp_int(&h->via.array.ptr[0], -1);
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
    for (size_t i = 0; i < mp_len(a) && a->type == MSGPACK_OBJECT_ARRAY; i++) {
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
            if (mp_str_eq(key, "als") || mp_str_eq(key, "cells"))
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
    for (size_t i = 0; i < mp_len(steps) && steps->type == MSGPACK_OBJECT_ARRAY; i++) {
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
        if (mp_get(s, "marks")) {
            json_key(f, &first, "marks");
            json_marks(f, mp_get(s, "marks"));
        }
        if (mp_get(s, "houses")) {
            json_key(f, &first, "houses");
            json_houses(f, mp_get(s, "houses"));
        }
        const msgpack_object *links = mp_get(s, "links");
        if (mp_len(links)) {
            json_key(f, &first, "links");
            json_links(f, links);
        }
        json_field(f, &first, s, "truncated"); /* the chains did not all fit */
        if (trace_links && mp_len(links)) {
            json_key(f, &first, "trace_links");
            step_trace_lines(f, s, true, "", flags);
        }
        putc('}', f);
    }
    putc(']', f);
}

/* `puzzle`: the 81-character form whatever the input's format; `input`
 * the text as read when it differs. */
static void json_puzzle_key(FILE *f, bool *first, const msgpack_object *r, const char *input)
{
    const msgpack_object *p = mp_get(r, "puzzle");
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
        if (k->type != MSGPACK_OBJECT_STR || mp_str_eq(k, "puzzle")) continue;
        bool seen = false;
        for (int d = 0; done[d] && !seen; d++) seen = mp_str_eq(k, done[d]);
        if (seen) continue;
        if (!*first) putc(',', f);
        *first = false;
        json_string(f, k->via.str.ptr, k->via.str.size);
        putc(':', f);
        json_write(f, &r->via.map.ptr[i].val);
    }
}

static void json_puzzle(const render_opts *o, const msgpack_object *r, const char *input)
{
    FILE *f = o->out;
    bool first = true;
    putc('{', f);
    json_puzzle_key(f, &first, r, input);
    const msgpack_object *err = mp_get(r, "error");
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
            if (mp_get(r, "steps")) {
                json_key(f, &first, "steps");
                json_steps(f, mp_get(r, "steps"), o->trace_links, o->gnpx ? SDK_TRACE_GNPX : 0);
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
        if (mp_get(r, "passes")) {
            json_field(f, &first, r, "passes");
            json_field(f, &first, r, "passes_grid");
        }
        json_key(f, &first, "steps");
        json_steps(f, mp_get(r, "steps"), o->trace_links, o->gnpx ? SDK_TRACE_GNPX : 0);
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

/* ---- wire helpers -------------------------------------------------------- */

static int cell_from_text(const char *s, size_t n)
{
    if (n >= 4 && (s[0] == 'r' || s[0] == 'R') && s[1] >= '1' && s[1] <= '9' &&
        (s[2] == 'c' || s[2] == 'C') && s[3] >= '1' && s[3] <= '9')
        return (s[1] - '1') * 9 + (s[3] - '1');
    return -1;
}

bool parse_cand(const msgpack_object *o, int *cell, int *digit, bool *place)
{
    if (!o || o->type != MSGPACK_OBJECT_STR) return false;
    const char *s = o->via.str.ptr;
    size_t n = o->via.str.size;
    int c = cell_from_text(s, n);
    if (c < 0) return false;
    if (n == 6 && s[4] == '=' && s[5] >= '1' && s[5] <= '9') {
        *place = true;
        *digit = s[5] - '0';
    } else if (n == 7 && s[4] == '<' && s[5] == '>' && s[6] >= '1' && s[6] <= '9') {
        *place = false;
        *digit = s[6] - '0';
    } else
        return false;
    *cell = c;
    return true;
}

int wire_cell(const msgpack_object *o)
{
    if (!o) return -1;
    if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER) return o->via.u64 < 81 ? (int)o->via.u64 : -1;
    if (o->type == MSGPACK_OBJECT_STR) return cell_from_text(o->via.str.ptr, o->via.str.size);
    return -1;
}

static const char *const role_names[] = {"none",   "base", "cover", "fin", "endofin", "pivot",
                                         "pincer", "on",   "off",   "als", "target"};
#define NROLES (int)(sizeof role_names / sizeof role_names[0])

const char *role_name(int role)
{
    return role >= 0 && role < NROLES ? role_names[role] : "none";
}

int wire_role(const msgpack_object *o)
{
    if (!o) return 0;
    if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
        return o->via.u64 < NROLES ? (int)o->via.u64 : 0;
    if (o->type == MSGPACK_OBJECT_STR) {
        for (int i = 0; i < NROLES; i++)
            if (mp_str_eq(o, role_names[i])) return i;
        if (mp_str_eq(o, "endo-fin")) return 4;
    }
    return 0;
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
    const msgpack_object *p = mp_get(r, "puzzle");
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
    const msgpack_object *p = mp_get(r, "puzzle");
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

/* Apply a wire step's placements and eliminations to a local grid. */
static void apply_wire_step(sdk_grid *g, const msgpack_object *s)
{
    const char *keys[] = {"placements", "eliminations"};
    for (int k = 0; k < 2; k++) {
        const msgpack_object *a = mp_get(s, keys[k]);
        for (size_t i = 0; i < mp_len(a) && a->type == MSGPACK_OBJECT_ARRAY; i++) {
            int cell, digit;
            bool place;
            if (!parse_cand(&a->via.array.ptr[i], &cell, &digit, &place)) continue;
            if (place) {
                if (!g->value[cell]) sdk_grid_place(g, cell, digit, false);
            } else
                sdk_grid_eliminate(g, cell, digit);
        }
    }
}

/* A step of several chains (forcing chains and nets): each branch on its own
 * line, in Eureka notation, so that a reader can check it link by link. */
static void print_branches(FILE *f, const msgpack_object *s)
{
    chain_branch br[64];
    int nb = chain_branches(s, br, 64);
    if (nb < 2) return;
    static char eu[8192];
    for (int b = 0; b < nb; b++)
        fprintf(f, "    %d) %s\n", b + 1, chain_eureka(s, br[b].start, br[b].end, eu, sizeof eu));
}

static void print_steps(const render_opts *o, const msgpack_object *steps, const char *input)
{
    FILE *f = o->out;
    sdk_grid g;
    bool have = o->grid && local_grid(input, &g);
    bool colour = have && !o->pencil && grid_colour_wanted(o->color, f);
    /* explain's steps follow each other; hint's are alternatives */
    bool advance = strcmp(o->cmd, "hint") != 0;
    for (size_t i = 0; i < mp_len(steps) && steps->type == MSGPACK_OBJECT_ARRAY; i++) {
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
            print_str(f, mp_get(s, "technique"));
        free(text);
        putc('\n', f);
        print_branches(f, s);
        if (o->trace_links) step_trace_lines(f, s, false, "    ", o->gnpx ? SDK_TRACE_GNPX : 0);
        if (have && advance) apply_wire_step(&g, s);
    }
}

static const char *const trace_texts[] = {"valid digit found", "already in this row",
                                          "already in this column", "already in this box",
                                          "no valid digit, back to the previous cell"};

void render_backtrack_trace(FILE *f, const msgpack_object *r)
{
    const msgpack_object *t = mp_get(r, "trace");
    if (!t) {
        fputs("(no trace in the answer)\n", f);
        return;
    }
    for (size_t i = 0; i < mp_len(t) && t->type == MSGPACK_OBJECT_ARRAY; i++) {
        const msgpack_object *e = &t->via.array.ptr[i];
        const msgpack_object *st, *ce, *di, *re;
        if (e->type == MSGPACK_OBJECT_MAP) {
            st = mp_get(e, "step");
            ce = mp_get(e, "cell");
            di = mp_get(e, "digit");
            re = mp_get(e, "result");
        } else if (e->type == MSGPACK_OBJECT_ARRAY && e->via.array.size >= 4) {
            st = &e->via.array.ptr[0];
            ce = &e->via.array.ptr[1];
            di = &e->via.array.ptr[2];
            re = &e->via.array.ptr[3];
        } else {
            json_write(f, e);
            putc('\n', f);
            continue;
        }
        int cell = wire_cell(ce);
        long long step = mp_int(st, (long long)i + 1);
        if (cell < 0) {
            json_write(f, e);
            putc('\n', f);
            continue;
        }
        int row = cell / 9, col = cell % 9;
        int br = row / 3 * 3, bc = col / 3 * 3;
        fprintf(f, "step %lld: cell %d (r%dc%d, box at r%dc%d) ", step, cell, row + 1, col + 1,
                br + 1, bc + 1);
        long long d = mp_int(di, 0);
        if (d) fprintf(f, "digit %lld: ", d);
        if (re && re->type == MSGPACK_OBJECT_STR)
            print_str(f, re);
        else {
            long long k = mp_int(re, -1);
            fputs(k >= 0 && k < 5 ? trace_texts[k] : "?", f);
        }
        putc('\n', f);
    }
    const msgpack_object *more = mp_get(r, "trace_truncated");
    const msgpack_object *ts = mp_get(r, "trace_status");
    if (mp_bool(more, false))
        fputs("(trace cut off)\n", f);
    else if (ts && ts->type == MSGPACK_OBJECT_STR) {
        fputs("trace: ", f);
        print_str(f, ts);
        putc('\n', f);
    }
}

void render_link_trace(FILE *f, const msgpack_object *r)
{
    const msgpack_object *lines = mp_get(r, "lines");
    for (size_t i = 0; i < mp_len(lines) && lines->type == MSGPACK_OBJECT_ARRAY; i++) {
        print_str(f, &lines->via.array.ptr[i]);
        putc('\n', f);
    }
    const msgpack_object *sum = mp_get(r, "summary");
    if (sum && sum->type == MSGPACK_OBJECT_STR) {
        print_str(f, sum);
        if (sum->via.str.size && sum->via.str.ptr[sum->via.str.size - 1] != '\n') putc('\n', f);
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
    const msgpack_object *err = mp_get(r, "error");
    if (err && err->type != MSGPACK_OBJECT_NIL) {
        char *line = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&line, &len);
        if (m) {
            print_puzzle_or_input(m, r, input);
            fclose(m);
        }
        text_failure(f, line ? line : "", where, mp_str(mp_get(err, "code"), code, sizeof code),
                     mp_str(mp_get(err, "message"), msg, sizeof msg));
        free(line);
        return false;
    }
    const char *cmd = o->cmd;
    if (!strcmp(cmd, "solve")) {
        const msgpack_object *st = mp_get(r, "status");
        const msgpack_object *sol = mp_get(r, "solution");
        bool unique = mp_str_eq(st, "unique");
        bool stuck = false;
        if (o->logic) {
            if (o->headers) {
                print_header(f, r, input, where);
            }
            print_steps(o, mp_get(r, "steps"), input);
            const msgpack_object *solved = mp_get(r, "solved");
            stuck = solved && !mp_bool(solved, false);
            if (stuck) color_fprintf(f, STYLE_RED, "%s\n", _("(techniques got stuck)"));
        }
        if (o->big) {
            if (sol && sol->type == MSGPACK_OBJECT_STR)
                print_big_grid(f, sol->via.str.ptr, sol->via.str.size);
            else {
                const msgpack_object *p = mp_get(r, "puzzle");
                if (p && p->type == MSGPACK_OBJECT_STR)
                    print_big_grid(f, p->via.str.ptr, p->via.str.size);
            }
            fprintf(f, "status: %s", mp_str(st, buf, sizeof buf));
            const msgpack_object *gs = mp_get(r, "guesses");
            if (gs) fprintf(f, " (guesses: %lld)", mp_int(gs, 0));
            putc('\n', f);
            if (mp_str_eq(st, "multiple")) {
                const msgpack_object *s2 = mp_get(r, "solution2");
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
            color_fputs(f, unique ? STYLE_GREEN : STYLE_RED, mp_str(st, buf, sizeof buf));
        }
        if (mp_str_eq(st, "multiple")) {
            const msgpack_object *d = mp_get(r, "differ");
            if (mp_len(d)) {
                fputs(o->big ? "differ:" : " differ:", f);
                for (size_t i = 0; i < mp_len(d) && d->type == MSGPACK_OBJECT_ARRAY; i++) {
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
        const msgpack_object *solved = mp_get(r, "solved");
        bool not_solved = solved && !mp_bool(solved, true);
        print_puzzle_or_input(f, r, input);
        /* a rating of a puzzle the techniques could not finish is a lower
         * bound: say so first */
        if (not_solved) color_fputs(f, STYLE_RED, "  not solved");
        fprintf(
            f, "  %s/%s/%s  %s  %s", diff_text(mp_get(r, "er"), er, sizeof er),
            diff_text(mp_get(r, "ep"), ep, sizeof ep), diff_text(mp_get(r, "ed"), ed, sizeof ed),
            mp_str(mp_get(r, "level"), lv, sizeof lv), mp_str(mp_get(r, "hardest"), hd, sizeof hd));
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
        const msgpack_object *steps = mp_get(r, "steps");
        const msgpack_object *passes = mp_get(r, "passes");
        if (passes) { /* the Hindi seed's singles program (seeds/004) */
            char pg[128];
            mp_str(mp_get(r, "passes_grid"), pg, sizeof pg);
            fprintf(f, "singles program: %lld passes, %s\n", mp_int(passes, 0),
                    strchr(pg, '.') ? "not solved" : "solved");
            fprintf(f, "  %s\n", pg);
        }
        print_steps(o, steps, input);
        if (!strcmp(cmd, "hint")) {
            if (!mp_len(steps)) fprintf(f, "%s\n", _("no step found"));
            return true;
        }
        const msgpack_object *solved = mp_get(r, "solved");
        bool ok = mp_bool(solved, false);
        if (ok)
            color_fprintf(f, STYLE_GREEN, _("solved in %zu steps\n"), mp_len(steps));
        else {
            color_fprintf(f, STYLE_RED, _("stuck after %zu steps\n"), mp_len(steps));
            const msgpack_object *sg = mp_get(r, "stuck_grid");
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
    const msgpack_object *err = mp_get(r, "error");
    if (err && err->type != MSGPACK_OBJECT_NIL) return false;
    if (!strcmp(o->cmd, "solve") && !o->logic) return mp_str_eq(mp_get(r, "status"), "unique");
    /* a rating or explanation the techniques could not finish */
    if (!strcmp(o->cmd, "rate") || !strcmp(o->cmd, "explain") ||
        (!strcmp(o->cmd, "solve") && o->logic))
        return mp_bool(mp_get(r, "solved"), true) &&
               (strcmp(o->cmd, "solve") || mp_str_eq(mp_get(r, "status"), "unique"));
    return true;
}

bool render_puzzle(const render_opts *o, const msgpack_object *r, const char *input,
                   const char *where)
{
    switch (o->mode) {
    case OUT_JSON:
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
    if (mp_str_eq(mp_get(r, "profile"), "*"))
        fputs("every loaded technique:\n", f);
    else
        fprintf(f, "profile: %s\n", mp_str(mp_get(r, "profile"), buf, sizeof buf));
    const msgpack_object *t = mp_get(r, "techniques");
    for (size_t i = 0; i < mp_len(t) && t->type == MSGPACK_OBJECT_ARRAY; i++) {
        const msgpack_object *e = &t->via.array.ptr[i];
        char id[64], name[96], lv[32], src[512], d[16];
        fprintf(f, "%3zu  %-28s %-32s %5s  %-8s %s\n", i + 1,
                mp_str(mp_get(e, "id"), id, sizeof id),
                mp_str(mp_get(e, "name"), name, sizeof name),
                diff_text(mp_get(e, "difficulty"), d, sizeof d),
                mp_str(mp_get(e, "level"), lv, sizeof lv),
                mp_str(mp_get(e, "source"), src, sizeof src));
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
            mp_str(mp_get(r, "config"), buf, sizeof buf), mp_int(mp_get(r, "techniques"), 0),
            mp_int(mp_get(r, "generation"), 0));
    static const char *const keys[][2] = {
        {"added", "techniques added"},
        {"removed", "techniques removed"},
        {"profiles_added", "profiles added"},
        {"profiles_removed", "profiles removed"},
        {"profiles_changed", "profiles changed"},
    };
    bool any = false;
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        const msgpack_object *a = mp_get(r, keys[k][0]);
        if (!mp_len(a) || a->type != MSGPACK_OBJECT_ARRAY) continue;
        any = true;
        fprintf(f, "%s:", keys[k][1]);
        for (size_t i = 0; i < mp_len(a); i++) {
            putc(i ? ',' : ' ', f);
            print_str(f, &a->via.array.ptr[i]);
        }
        putc('\n', f);
    }
    if (!any && mp_get(r, "added")) fputs("nothing changed\n", f);
}
