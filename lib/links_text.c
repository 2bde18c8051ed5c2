/* links_text.c - chains as people read them: node and chain text (Eureka
 * notation), a chain turned into a step's links, and a step's links read back
 * and printed one line per chain as the super-link trace does. */
#include "sudoku/alloc.h"
#include "sudoku/links.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void cells_text(sdk_bb cells, char *buf, size_t n)
{
    /* one row: r2c68; one column: r1789c9; else row groups separated by spaces */
    int rows = 0, cols = 0;
    SDK_BB_FOREACH(c, cells) {
        rows |= 1 << sdk_row(c);
        cols |= 1 << sdk_col(c);
    }
    size_t k = 0;
    buf[0] = 0;
#define PUT(...) (k += (size_t)snprintf(buf + k, k < n ? n - k : 0, __VA_ARGS__))
    if (sdk_mask_count((unsigned)rows) > 1 && sdk_mask_count((unsigned)cols) == 1) {
        PUT("r");
        for (int r = 0; r < 9; r++)
            if (rows >> r & 1) PUT("%d", r + 1);
        PUT("c%d", __builtin_ctz((unsigned)cols) + 1);
        return;
    }
    bool firstrow = true;
    for (int r = 0; r < 9; r++) {
        if (!(rows >> r & 1)) continue;
        PUT("%sr%dc", firstrow ? "" : " ", r + 1);
        firstrow = false;
        for (int c = 0; c < 9; c++)
            if (sdk_bb_has(cells, r * 9 + c)) PUT("%d", c + 1);
    }
#undef PUT
}

char *sdk_links_node_text(const sdk_links *L, int node, char *buf, size_t n)
{
    const sdk_lnode *nd = &L->node[node];
    char cells[64];
    if (nd->kind == SDK_LN_ALS) {
        const sdk_als *A = &L->als.als[nd->als];
        cells_text(A->cells, cells, sizeof cells);
        snprintf(buf, n, "(%d)ALS:%s", nd->digit, cells);
    } else {
        sdk_bb b = nd->cells;
        /* compact: rows then columns */
        int rows = 0, cols = 0;
        SDK_BB_FOREACH(c, b) {
            rows |= 1 << sdk_row(c);
            cols |= 1 << sdk_col(c);
        }
        char r[12] = {0}, c[12] = {0};
        int kr = 0, kc = 0;
        for (int i = 0; i < 9; i++) {
            if (rows >> i & 1) r[kr++] = (char)('1' + i);
            if (cols >> i & 1) c[kc++] = (char)('1' + i);
        }
        snprintf(buf, n, "(%d)r%sc%s", nd->digit, r, c);
    }
    return buf;
}

char *sdk_links_eureka(const sdk_links *L, const int *lits, int n, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < n; i++) {
        char t[64];
        sdk_links_node_text(L, SDK_LIT_NODE(lits[i]), t, sizeof t);
        const char *sep = i == 0 ? "" : (SDK_LIT_ON(lits[i]) ? "=" : "-");
        k += (size_t)snprintf(buf + k, k < size ? size - k : 0, "%s%s", sep, t);
    }
    if (k >= size && size > 4) memcpy(buf + size - 4, "...", 4);
    return buf;
}

void sdk_links_sdk_node(const sdk_links *L, int lit, sdk_node *out)
{
    const sdk_lnode *nd = &L->node[SDK_LIT_NODE(lit)];
    memset(out, 0, sizeof *out);
    out->digit = nd->digit;
    out->on = (uint8_t)SDK_LIT_ON(lit);
    if (nd->kind == SDK_LN_ALS) {
        const sdk_als *A = &L->als.als[nd->als];
        sdk_bb dc = A->dcells[nd->digit - 1];
        SDK_BB_FOREACH(c, dc) {
            if (out->ncell == 3) break;
            out->cell[out->ncell++] = (uint8_t)c;
        }
        return;
    }
    SDK_BB_FOREACH(c, nd->cells) {
        if (out->ncell == 3) break;
        out->cell[out->ncell++] = (uint8_t)c;
    }
}

void sdk_links_to_step(const sdk_links *L, const int *lits, int n, sdk_step *s)
{
    for (int i = 0; i < n; i++) {
        const sdk_lnode *nd = &L->node[SDK_LIT_NODE(lits[i])];
        if (nd->kind != SDK_LN_ALS) {
            SDK_BB_FOREACH(c, nd->cells)
                sdk_step_mark(s, c, nd->digit, SDK_LIT_ON(lits[i]) ? SDK_ROLE_ON : SDK_ROLE_OFF);
        } else {
            const sdk_als *A = &L->als.als[nd->als];
            sdk_als_mark(s, A, SDK_ROLE_ALS);
        }
        if (i == 0) continue;
        sdk_link lk;
        memset(&lk, 0, sizeof lk);
        sdk_links_sdk_node(L, lits[i - 1], &lk.from);
        sdk_links_sdk_node(L, lits[i], &lk.to);
        lk.strong = (uint8_t)SDK_LIT_ON(lits[i]);
        const sdk_lnode *pn = &L->node[SDK_LIT_NODE(lits[i - 1])];
        if (nd->kind == SDK_LN_ALS || pn->kind == SDK_LN_ALS) {
            lk.kind = SDK_LINK_ALS;
            const sdk_lnode *an = nd->kind == SDK_LN_ALS ? nd : pn;
            sdk_bb cells = L->als.als[an->als].cells;
            SDK_BB_FOREACH(c, cells) {
                if (lk.nals == 9) break;
                lk.als[lk.nals++] = (uint8_t)c;
            }
        } else if (nd->kind == SDK_LN_GROUP || pn->kind == SDK_LN_GROUP) {
            lk.kind = SDK_LINK_GROUP;
        } else if (nd->cell == pn->cell) {
            lk.kind = SDK_LINK_CELL;
        } else {
            lk.kind = SDK_LINK_HOUSE;
        }
        sdk_step_link(s, &lk);
    }
}

int sdk_chain_length_tenths(int length)
{
    /* Sudoku Explainer: thresholds 4, 6, 8, 12, 16, 24, 32, 48, ... */
    int added = 0, ceil = 4;
    bool odd = false;
    while (length > ceil) {
        added++;
        ceil = odd ? ceil * 4 / 3 : ceil * 3 / 2;
        odd = !odd;
    }
    return added;
}

/* ---- a step's links as consequence lines ------------------------------ */

/* Decimal digits of v at t; returns how many. */
static size_t put_uint(char *t, unsigned v)
{
    char d[10];
    size_t k = 0, n = 0;
    do d[k++] = (char)('0' + v % 10);
    while (v /= 10);
    while (k) t[n++] = d[--k];
    return n;
}

/* Written byte by byte, not with snprintf: explain writes two nodes per
 * link of every chain step, and snprintf's cost was half of packing them. */
char *sdk_node_text(const sdk_node *nd, char *buf, size_t n)
{
    char t[48]; /* at most "r29c9,r29c9,r29c9/+255" */
    int nc = nd->ncell > 3 ? 3 : nd->ncell;
    size_t k = 0;
    if (nc <= 1) {
        int c = nc ? nd->cell[0] % 81 : 0;
        k += strlen(sdk_cell_name(c, t + k));
    } else {
        bool same_row = true, same_col = true;
        for (int i = 1; i < nc; i++) {
            same_row &= nd->cell[i] / 9 == nd->cell[0] / 9;
            same_col &= nd->cell[i] % 9 == nd->cell[0] % 9;
        }
        if (same_row) {
            t[k++] = 'r';
            k += put_uint(t + k, nd->cell[0] / 9u + 1);
            t[k++] = 'c';
            for (int i = 0; i < nc; i++) t[k++] = (char)('1' + nd->cell[i] % 9);
        } else if (same_col) {
            t[k++] = 'r';
            for (int i = 0; i < nc; i++) k += put_uint(t + k, nd->cell[i] / 9u + 1);
            t[k++] = 'c';
            t[k++] = (char)('1' + nd->cell[0] % 9);
        } else {
            for (int i = 0; i < nc; i++) {
                if (i) t[k++] = ',';
                t[k++] = 'r';
                k += put_uint(t + k, nd->cell[i] / 9u + 1);
                t[k++] = 'c';
                t[k++] = (char)('1' + nd->cell[i] % 9);
            }
        }
    }
    t[k++] = '/';
    t[k++] = nd->on ? '+' : '-';
    k += put_uint(t + k, nd->digit);
    if (n == 0) return buf;
    if (k > n - 1) k = n - 1; /* cut as snprintf cuts */
    memcpy(buf, t, k);
    buf[k] = 0;
    return buf;
}

static bool parse_digits(const char **p, int *out, int *n, int max)
{
    *n = 0;
    while (**p >= '1' && **p <= '9') {
        if (*n == max) return false;
        out[(*n)++] = **p - '1';
        (*p)++;
    }
    return *n > 0;
}

bool sdk_node_parse(const char *text, sdk_node *out)
{
    memset(out, 0, sizeof *out);
    if (!text) return false;
    const char *p = text;
    for (;;) {
        int rows[3], cols[3], nr, nc;
        if (*p != 'r') return false;
        p++;
        if (!parse_digits(&p, rows, &nr, 3)) return false;
        if (*p != 'c') return false;
        p++;
        if (!parse_digits(&p, cols, &nc, 3)) return false;
        if (nr > 1 && nc > 1) return false;
        for (int i = 0; i < nr; i++)
            for (int j = 0; j < nc; j++) {
                if (out->ncell == 3) return false;
                out->cell[out->ncell++] = (uint8_t)(rows[i] * 9 + cols[j]);
            }
        if (*p == ',') {
            p++;
            continue;
        }
        break;
    }
    if (*p++ != '/') return false;
    if (*p != '+' && *p != '-') return false;
    out->on = *p++ == '+';
    if (*p < '1' || *p > '9') return false;
    out->digit = (uint8_t)(*p++ - '0');
    return *p == 0;
}

int sdk_link_kind_parse(const char *name)
{
    static const char *const names[] = {"cell", "house", "group", "als"};
    for (int i = 0; i < 4; i++)
        if (name && !strcmp(name, names[i])) return i;
    return -1;
}

static bool node_eq(const sdk_node *a, const sdk_node *b)
{
    if (a->digit != b->digit || a->on != b->on || a->ncell != b->ncell) return false;
    for (int i = 0; i < a->ncell && i < 3; i++)
        if (a->cell[i] != b->cell[i]) return false;
    return true;
}

static sdk_bb link_cells(const sdk_link *l)
{
    sdk_bb b = sdk_bb_none();
    for (int i = 0; i < l->nals && i < 9; i++)
        if (l->als[i] < 81) sdk_bb_add(&b, l->als[i]);
    return b;
}

/* "(ALS:r2c68)" / "(GROUP:r2c46)" for a link through a set, else "". */
static size_t link_label(const sdk_link *l, char *buf, size_t n)
{
    buf[0] = 0;
    if (!l->nals || (l->kind != SDK_LINK_ALS && l->kind != SDK_LINK_GROUP)) return 0;
    char cl[64];
    cells_text(link_cells(l), cl, sizeof cl);
    int k = snprintf(buf, n, "(%s:%s)", l->kind == SDK_LINK_ALS ? "ALS" : "GROUP", cl);
    return k < 0 ? 0 : (size_t)k;
}

/* A static ALS node entered by this link: an ALS link to a false node inside
 * the set (the set then lacks that digit). */
static bool als_entry(const sdk_link *l)
{
    if (l->kind != SDK_LINK_ALS || !l->nals || l->to.on) return false;
    sdk_bb in = link_cells(l);
    for (int i = 0; i < l->to.ncell && i < 3; i++)
        if (!sdk_bb_has(in, l->to.cell[i])) return false;
    return true;
}

static size_t link_text3(const sdk_node *from, const sdk_node *to, bool strong, const char *label,
                         char *buf, size_t n)
{
    char a[48], b[48];
    int k = snprintf(buf, n, "[%c %s%s%s -> %s]", strong ? 'S' : 'W', label, label[0] ? " " : "",
                     sdk_node_text(from, a, sizeof a), sdk_node_text(to, b, sizeof b));
    return k < 0 ? 0 : (size_t)k;
}

char *sdk_link_text(const sdk_link *l, char *buf, size_t n)
{
    char label[80];
    link_label(l, label, sizeof label);
    link_text3(&l->from, &l->to, l->strong, label, buf, n);
    return buf;
}

/* GNPX writes a group node (a digit confined to 2-3 cells of a segment, an
 * AIC node) in angle brackets: "<r2c46>/+1". */
static char *gnpx_node_text(const sdk_node *nd, char *buf, size_t n)
{
    char t[48];
    sdk_node_text(nd, t, sizeof t);
    if (nd->ncell <= 1) {
        snprintf(buf, n, "%s", t);
        return buf;
    }
    char *slash = strrchr(t, '/');
    if (slash) *slash++ = 0;
    snprintf(buf, n, "<%s>/%s", t, slash ? slash : "");
    return buf;
}

/* A link between two digits of one cell. */
static bool link_in_cell(const sdk_link *l)
{
    return l->from.ncell == 1 && l->to.ncell == 1 && l->from.cell[0] == l->to.cell[0];
}

int sdk_links_trace_lines(const sdk_link *links, int n, sdk_link_line_fn fn, void *ctx)
{
    return sdk_links_trace_lines_flags(links, n, 0, fn, ctx);
}

int sdk_links_trace_lines_flags(const sdk_link *links, int n, unsigned flags, sdk_link_line_fn fn,
                                void *ctx)
{
    bool gnpx = flags & SDK_TRACE_GNPX;
    enum { LINE = 16384 };
    char *line = sdk_xmalloc(LINE);
    int lines = 0;
    for (int i = 0; i < n;) {
        int j = i + 1;
        while (j < n && node_eq(&links[j].from, &links[j - 1].to)) j++;
        /* links[i..j) is one chain; the folded ALS links come out as one */
        const sdk_node *derived = &links[j - 1].to;
        size_t k = 0;
        char a[48];
        k += (size_t)snprintf(line, LINE, "%s", sdk_node_text(derived, a, sizeof a));
        bool printed = false;
        for (int e = i; e < j && k < LINE;) {
            const sdk_node *from = &links[e].from;
            char label[256];
            size_t kl = link_label(&links[e], label, sizeof label);
            while (als_entry(&links[e]) && e + 1 < j && links[e + 1].kind == SDK_LINK_ALS) {
                e++;
                char more[80];
                link_label(&links[e], more, sizeof more);
                if (more[0] && !strstr(label, more) && kl < sizeof label)
                    kl += (size_t)snprintf(label + kl, sizeof label - kl, "%s", more);
            }
            /* GNPX passes through a cell silently (an in-cell link is
             * written only as the chain's last one) */
            if (gnpx && e + 1 < j && link_in_cell(&links[e])) {
                e++;
                continue;
            }
            if (printed && k < LINE) k += (size_t)snprintf(line + k, LINE - k, " =>");
            printed = true;
            k += (size_t)snprintf(line + k, LINE - k, " ");
            if (k < LINE && gnpx) {
                char fa[64], ta[64];
                gnpx_node_text(from, fa, sizeof fa);
                gnpx_node_text(&links[e].to, ta, sizeof ta);
                int w = snprintf(line + k, LINE - k, "[%c %s%s%s -> %s]",
                                 links[e].strong ? 'S' : 'W', label, label[0] ? " " : "", fa, ta);
                k += w < 0 ? 0 : (size_t)w;
            } else if (k < LINE) {
                k += link_text3(from, &links[e].to, links[e].strong, label, line + k, LINE - k);
            }
            e++;
        }
        if (k >= LINE) memcpy(line + LINE - 4, "...", 4);
        fn(ctx, derived, line);
        lines++;
        i = j;
    }
    free(line);
    return lines;
}

typedef struct joined {
    char *buf;
    size_t n, k;
} joined;

static void join_line(void *ctx, const sdk_node *derived, const char *line)
{
    (void)derived;
    joined *j = ctx;
    if (j->k >= j->n) return;
    int w = snprintf(j->buf + j->k, j->n - j->k, "%s%s", j->k ? "\n" : "", line);
    if (w > 0) j->k += (size_t)w;
}

char *sdk_step_trace_text(const sdk_step *s, char *buf, size_t n)
{
    if (!n) return buf;
    buf[0] = 0;
    joined j = {buf, n, 0};
    int nl = s->nlink > SDK_STEP_MAX_LINK ? SDK_STEP_MAX_LINK : s->nlink;
    sdk_links_trace_lines(s->link, nl, join_line, &j);
    return buf;
}
