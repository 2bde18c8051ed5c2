/* json.c - sudoctl's JSON: strings escaped, and any msgpack object written as
 * JSON (--json output, and values the HTML page shows as they are). */
#include "render.h"

#include <math.h>
#include <stdlib.h>

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

void json_double(FILE *f, double v, const char *fmt)
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
