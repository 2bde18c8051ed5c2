/* json.c - sudoctl's JSON: strings escaped, and any msgpack object written as
 * JSON (--json output, and values the HTML page shows as they are). */
#include "render.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Runs of plain characters go out in one fwrite; only the few that JSON
 * escapes are written one by one. Unlocked stdio: sudoctl has one thread,
 * and a --json batch writes millions of short pieces. */
/* Does any of the 8 bytes in x need an escape (below 0x20, '"', '\\')? */
static inline bool word_needs_escape(uint64_t x)
{
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    uint64_t quote = x ^ (ones * '"'), slash = x ^ (ones * '\\');
    uint64_t lt20 = (x - ones * 0x20) & ~x, zq = (quote - ones) & ~quote,
             zs = (slash - ones) & ~slash;
    return ((lt20 | zq | zs) & highs) != 0;
}

bool json_plain(const char *s, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x;
        memcpy(&x, s + i, 8);
        if (word_needs_escape(x)) return false;
    }
    for (; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == '"' || c == '\\') return false;
    }
    return true;
}

void json_string(FILE *f, const char *s, size_t n)
{
    putc_unlocked('"', f);
    size_t run = 0; /* start of the plain run not written yet */
    size_t i = 0;
    for (; i + 8 <= n; i += 8) { /* plain words skip the byte loop */
        uint64_t x;
        memcpy(&x, s + i, 8);
        if (word_needs_escape(x)) break;
    }
    for (; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        if (i > run) fwrite_unlocked(s + run, 1, i - run, f);
        run = i + 1;
        switch (c) {
        case '"':
            fputs_unlocked("\\\"", f);
            break;
        case '\\':
            fputs_unlocked("\\\\", f);
            break;
        case '\n':
            fputs_unlocked("\\n", f);
            break;
        case '\r':
            fputs_unlocked("\\r", f);
            break;
        case '\t':
            fputs_unlocked("\\t", f);
            break;
        default:
            fprintf(f, "\\u%04x", c);
        }
    }
    if (n > run) fwrite_unlocked(s + run, 1, n - run, f);
    putc_unlocked('"', f);
}

void json_double(FILE *f, double v, const char *fmt)
{
    if (!isfinite(v))
        fputs_unlocked("null", f);
    else
        fprintf(f, fmt, v);
}

void json_write(FILE *f, const msgpack_object *o)
{
    if (!o) {
        fputs_unlocked("null", f);
        return;
    }
    switch (o->type) {
    case MSGPACK_OBJECT_NIL:
        fputs_unlocked("null", f);
        break;
    case MSGPACK_OBJECT_BOOLEAN:
        fputs_unlocked(o->via.boolean ? "true" : "false", f);
        break;
    case MSGPACK_OBJECT_POSITIVE_INTEGER: {
        char b[24], *e = b + sizeof b, *q = e; /* digits from the right */
        uint64_t v = o->via.u64;
        do *--q = (char)('0' + v % 10);
        while (v /= 10);
        fwrite_unlocked(q, 1, (size_t)(e - q), f);
        break;
    }
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
        putc_unlocked('[', f);
        for (uint32_t i = 0; i < o->via.array.size; i++) {
            if (i) putc_unlocked(',', f);
            json_write(f, &o->via.array.ptr[i]);
        }
        putc_unlocked(']', f);
        break;
    case MSGPACK_OBJECT_MAP:
        putc_unlocked('{', f);
        for (uint32_t i = 0; i < o->via.map.size; i++) {
            if (i) putc_unlocked(',', f);
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
            putc_unlocked(':', f);
            json_write(f, &o->via.map.ptr[i].val);
        }
        putc_unlocked('}', f);
        break;
    default:
        fputs_unlocked("null", f);
    }
}
