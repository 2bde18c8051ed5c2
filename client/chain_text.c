/* chain_text.c - a step's links as checkable branches in Eureka notation (see
 * chain_text.h). The wire writes a node as "r2c46/-1": cells, then / and the
 * sign (+ true, - false) and the digit. */
#include "chain_text.h"

#include <string.h>

#include "rpc.h"

typedef struct wnode {
    char cells[40];
    int digit;
    bool on;
} wnode;

static bool node_of(const msgpack_object *o, wnode *nd)
{
    char s[64];
    if (!o || o->type != MSGPACK_OBJECT_STR) return false;
    sdk_wire_text(o, s, sizeof s);
    char *slash = strchr(s, '/');
    if (!slash || slash == s || slash - s >= (long)sizeof nd->cells) return false;
    memcpy(nd->cells, s, (size_t)(slash - s));
    nd->cells[slash - s] = 0;
    const char *q = slash + 1;
    nd->on = *q != '-';
    if (*q == '+' || *q == '-') q++;
    if (*q < '1' || *q > '9') return false;
    nd->digit = *q - '0';
    return true;
}

static const msgpack_object *links_of(const msgpack_object *step)
{
    const msgpack_object *l = sdk_wire_get(step, "links");
    return l && l->type == MSGPACK_OBJECT_ARRAY ? l : NULL;
}

static bool same_str(const msgpack_object *a, const msgpack_object *b)
{
    return a && b && a->type == MSGPACK_OBJECT_STR && b->type == MSGPACK_OBJECT_STR &&
           a->via.str.size == b->via.str.size &&
           !memcmp(a->via.str.ptr, b->via.str.ptr, a->via.str.size);
}

int chain_branches(const msgpack_object *step, chain_branch *out, int max)
{
    const msgpack_object *links = links_of(step);
    int n = 0;
    if (!links) return 0;
    int size = (int)links->via.array.size;
    for (int i = 0; i < size && n < max;) {
        int j = i + 1;
        while (j < size && same_str(sdk_wire_get(&links->via.array.ptr[j], "from"),
                                    sdk_wire_get(&links->via.array.ptr[j - 1], "to")))
            j++;
        out[n].start = i;
        out[n].end = j;
        n++;
        i = j;
    }
    return n;
}

/* Append printf-style to buf at *k (bounded). */
static void put(char *buf, size_t n, size_t *k, const char *s)
{
    size_t l = strlen(s);
    if (*k + l >= n) l = *k + 1 < n ? n - 1 - *k : 0;
    memcpy(buf + *k, s, l);
    *k += l;
    buf[*k] = 0;
}

char *chain_eureka(const msgpack_object *step, int start, int end, char *buf, size_t n)
{
    const msgpack_object *links = links_of(step);
    size_t k = 0;
    if (!n) return buf;
    buf[0] = 0;
    if (!links || start < 0 || end > (int)links->via.array.size || start >= end) return buf;
    /* nodes N0..Nm and the operator before each of N1..Nm */
    enum { MAXN = 130 };
    wnode nodes[MAXN];
    char ops[MAXN];
    int m = 0;
    for (int i = start; i < end && m + 1 < MAXN; i++) {
        const msgpack_object *l = &links->via.array.ptr[i];
        wnode a, b;
        if (!node_of(sdk_wire_get(l, "from"), &a) || !node_of(sdk_wire_get(l, "to"), &b)) continue;
        if (m == 0) nodes[m++] = a;
        ops[m] = sdk_wire_bool(sdk_wire_get(l, "strong"), false) ? '=' : '-';
        nodes[m++] = b;
    }
    /* groups of consecutive nodes in the same cells: (d op d op d)cells */
    for (int i = 0; i < m;) {
        int j = i + 1;
        while (j < m && !strcmp(nodes[j].cells, nodes[i].cells) &&
               nodes[j].digit != nodes[j - 1].digit)
            j++;
        if (i) {
            char op[2] = {ops[i], 0};
            put(buf, n, &k, op);
        }
        put(buf, n, &k, "(");
        for (int x = i; x < j; x++) {
            char d[4] = {0};
            if (x > i)
                d[0] = ops[x], d[1] = (char)('0' + nodes[x].digit);
            else
                d[0] = (char)('0' + nodes[x].digit);
            put(buf, n, &k, d);
        }
        put(buf, n, &k, ")");
        put(buf, n, &k, nodes[i].cells);
        i = j;
    }
    return buf;
}

char *chain_branch_end(const msgpack_object *step, const chain_branch *b, char *buf, size_t n)
{
    const msgpack_object *links = links_of(step);
    wnode nd;
    buf[0] = 0;
    if (!links || b->end < 1 || b->end > (int)links->via.array.size) return buf;
    if (!node_of(sdk_wire_get(&links->via.array.ptr[b->end - 1], "to"), &nd)) return buf;
    snprintf(buf, n, "%s%s%d", nd.cells, nd.on ? "=" : "<>", nd.digit);
    return buf;
}
