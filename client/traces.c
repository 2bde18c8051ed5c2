/* traces.c - the two traces as text: an explain's backtracking trace (one
 * line per cell tried) and a trace request's super-link lines. The text
 * output prints them as they are, the HTML page inside <pre>. */
#include "render.h"

static void print_str(FILE *f, const msgpack_object *o)
{
    if (o && o->type == MSGPACK_OBJECT_STR) fwrite(o->via.str.ptr, 1, o->via.str.size, f);
}

static const char *const trace_texts[] = {"valid digit found", "already in this row",
                                          "already in this column", "already in this box",
                                          "no valid digit, back to the previous cell"};

void render_backtrack_trace(FILE *f, const msgpack_object *r)
{
    const msgpack_object *t = sdk_wire_get(r, "trace");
    if (!t) {
        fputs("(no trace in the answer)\n", f);
        return;
    }
    for (size_t i = 0; i < sdk_wire_len(t) && t->type == MSGPACK_OBJECT_ARRAY; i++) {
        const msgpack_object *e = &t->via.array.ptr[i];
        const msgpack_object *st, *ce, *di, *re;
        if (e->type == MSGPACK_OBJECT_MAP) {
            st = sdk_wire_get(e, "step");
            ce = sdk_wire_get(e, "cell");
            di = sdk_wire_get(e, "digit");
            re = sdk_wire_get(e, "result");
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
        int cell = sdk_wire_cell(ce);
        long long step = sdk_wire_int(st, (long long)i + 1);
        if (cell < 0) {
            json_write(f, e);
            putc('\n', f);
            continue;
        }
        int row = cell / 9, col = cell % 9;
        int br = row / 3 * 3, bc = col / 3 * 3;
        fprintf(f, "step %lld: cell %d (r%dc%d, box at r%dc%d) ", step, cell, row + 1, col + 1,
                br + 1, bc + 1);
        long long d = sdk_wire_int(di, 0);
        if (d) fprintf(f, "digit %lld: ", d);
        if (re && re->type == MSGPACK_OBJECT_STR)
            print_str(f, re);
        else {
            long long k = sdk_wire_int(re, -1);
            fputs(k >= 0 && k < 5 ? trace_texts[k] : "?", f);
        }
        putc('\n', f);
    }
    const msgpack_object *more = sdk_wire_get(r, "trace_truncated");
    const msgpack_object *ts = sdk_wire_get(r, "trace_status");
    if (sdk_wire_bool(more, false))
        fputs("(trace cut off)\n", f);
    else if (ts && ts->type == MSGPACK_OBJECT_STR) {
        fputs("trace: ", f);
        print_str(f, ts);
        putc('\n', f);
    }
}

void render_link_trace(FILE *f, const msgpack_object *r)
{
    const msgpack_object *lines = sdk_wire_get(r, "lines");
    for (size_t i = 0; i < sdk_wire_len(lines) && lines->type == MSGPACK_OBJECT_ARRAY; i++) {
        print_str(f, &lines->via.array.ptr[i]);
        putc('\n', f);
    }
    const msgpack_object *sum = sdk_wire_get(r, "summary");
    if (sum && sum->type == MSGPACK_OBJECT_STR) {
        print_str(f, sum);
        if (sum->via.str.size && sum->via.str.ptr[sum->via.str.size - 1] != '\n') putc('\n', f);
    }
}
