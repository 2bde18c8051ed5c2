/* wire_meter.c - what a msgpack message will cost to parse, known before it
 * is parsed.
 *
 * msgpack-c allocates an object per element as soon as it reads an array or
 * map header: a five-byte header `dd 10 00 00 00` (an array of 2^28
 * elements) asks for 6 GiB at once, and 16 MB of nils inside one array hold
 * 24 bytes each while the message is incomplete. Counting wire bytes does
 * not bound that. The meter reads the same bytes first, as they arrive, and
 * counts what the parse will hold: the bytes themselves (the parser keeps
 * pointing into its buffer for strings), the lengths strings and binaries
 * claim (at their header, before their bytes come), and one msgpack_object
 * per array element and a key/value pair per map entry (at the container's
 * header, as msgpack-c does). A message whose count passes the limit is
 * refused at the header that passes it, before msgpack-c sees that header,
 * so nothing is allocated for it. It also bounds the nesting (msgpack-c has a
 * fixed stack and calls a deeper message "out of memory").
 *
 * The meter is a byte-level state machine: a type byte, then header bytes
 * (lengths), then body bytes to skip; a stack of elements still due per open
 * container; a message is whole when its root element is. A byte msgpack
 * never uses (0xc1) stops the meter: the parser fails on that byte anyway,
 * without allocating more. */
#include <stdio.h>
#include <string.h>
#include "sudoku/wire.h"

void sdk_wire_meter_reset(sdk_wire_meter *m)
{
    memset(m, 0, sizeof *m);
}

/* An element ended: count it in its container, close the containers that
 * are full; at the root, the message is whole. */
static void element_done(sdk_wire_meter *m, size_t *complete)
{
    while (m->depth > 0) {
        if (--m->left[m->depth - 1] > 0) return;
        m->depth--; /* the container itself is an element of its parent */
    }
    (*complete)++;
    m->in_msg = false;
    m->last_cost = m->cost;
    m->cost = 0;
}

static bool charge(sdk_wire_meter *m, uint64_t bytes, size_t max, sdk_error *err)
{
    if (bytes > max || m->cost + bytes > max) {
        sdk_error_set(err, SDK_E_TOO_LARGE,
                      "message larger than the limit of %zu bytes (counted as parsed: its bytes, "
                      "the lengths it claims, %zu bytes per array element and %zu per map entry)",
                      max, sizeof(msgpack_object), sizeof(msgpack_object_kv));
        return false;
    }
    m->cost += (size_t)bytes;
    return true;
}

static bool open_container(sdk_wire_meter *m, uint64_t n, bool map, size_t max, sdk_error *err,
                           size_t *complete)
{
    if (!charge(m, n * (map ? sizeof(msgpack_object_kv) : sizeof(msgpack_object)), max, err))
        return false;
    if (n == 0) {
        element_done(m, complete);
        return true;
    }
    if (m->depth >= SDK_WIRE_MAX_DEPTH) {
        sdk_error_set(err, SDK_E_REQUEST, "message nested deeper than %d levels",
                      SDK_WIRE_MAX_DEPTH);
        return false;
    }
    m->left[m->depth++] = map ? 2 * n : n;
    return true;
}

static uint64_t big_endian(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v = v << 8 | p[i];
    return v;
}

/* A header is whole: kind is its type byte. */
static bool header_done(sdk_wire_meter *m, size_t max, sdk_error *err, size_t *complete)
{
    uint8_t t = m->kind;
    uint64_t n = big_endian(m->head, m->nhead);
    switch (t) {
    case 0xc4:
    case 0xc5:
    case 0xc6: /* bin */
    case 0xd9:
    case 0xda:
    case 0xdb: /* str */
        if (!charge(m, n, max, err)) return false;
        m->skip = n;
        break;
    case 0xc7:
    case 0xc8:
    case 0xc9: /* ext: a type byte, then the data */
        if (!charge(m, n + 1, max, err)) return false;
        m->skip = n + 1;
        break;
    case 0xdc:
    case 0xdd:
        return open_container(m, n, false, max, err, complete);
    case 0xde:
    case 0xdf:
        return open_container(m, n, true, max, err, complete);
    default:
        break;
    }
    if (m->skip == 0) element_done(m, complete);
    return true;
}

/* The bytes of the scalar (no container) element that starts at p when all
 * of them are here, else 0: the fast path of sdk_wire_meter_scan for the
 * elements a batch is made of (strings of a puzzle's length, small
 * integers), taken whole. */
static size_t whole_scalar(const uint8_t *p, size_t avail)
{
    uint8_t b = p[0];
    size_t n;
    if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3)
        n = 1;
    else if (b >= 0xa0 && b <= 0xbf) /* fixstr */
        n = 1 + (size_t)(b & 0x1f);
    else if (b == 0xd9 || b == 0xc4) /* str 8, bin 8 */
        n = avail >= 2 ? 2 + (size_t)p[1] : 0;
    else if (b == 0xcc || b == 0xd0) /* uint 8, int 8 */
        n = 2;
    else if (b == 0xcd || b == 0xd1) /* uint 16, int 16 */
        n = 3;
    else if (b == 0xce || b == 0xd2 || b == 0xca) /* 32 bits */
        n = 5;
    else if (b == 0xcf || b == 0xd3 || b == 0xcb) /* 64 bits */
        n = 9;
    else
        n = 0;
    return n <= avail ? n : 0;
}

/* The bytes of the small array (fixarray, 1..15 elements) that starts at p
 * when every element is a scalar all here, else 0; *cost what the
 * byte-by-byte way charges for it (its type byte, an object per element,
 * the elements' bytes). A solve batch's answers are such arrays
 * ([solution, guesses]): one step each rather than four. */
static size_t whole_small_array(const uint8_t *p, size_t avail, uint64_t *cost)
{
    size_t n = p[0] & 0x0f, at = 1;
    for (size_t i = 0; i < n; i++) {
        size_t k = at < avail ? whole_scalar(p + at, avail - at) : 0;
        if (!k) return 0;
        at += k;
    }
    *cost = (uint64_t)at + (uint64_t)n * sizeof(msgpack_object);
    return at;
}

int sdk_wire_meter_scan(sdk_wire_meter *m, const void *data, size_t n, size_t max, size_t *complete,
                        sdk_error *err)
{
    const uint8_t *p = data, *end = p + n;
    while (p < end && !m->broken) {
        if (m->skip == 0 && m->need == 0) {
            /* a scalar here whole: charged at once what the byte-by-byte
             * way below charges in parts (type byte, header, body), when
             * that fits; else the byte-by-byte way says what passes max */
            size_t k = whole_scalar(p, (size_t)(end - p));
            if (k && k <= max && m->cost + k <= max) {
                m->cost += k;
                m->in_msg = true;
                p += k;
                element_done(m, complete);
                continue;
            }
            /* a small array of such scalars, the same way: charged whole
             * when all of it fits (and nesting it is allowed) */
            uint64_t c;
            if (*p >= 0x91 && *p <= 0x9f && m->depth < SDK_WIRE_MAX_DEPTH &&
                (k = whole_small_array(p, (size_t)(end - p), &c)) && c <= max &&
                m->cost + c <= max) {
                m->cost += (size_t)c;
                m->in_msg = true;
                p += k;
                element_done(m, complete);
                continue;
            }
        }
        if (m->skip > 0) { /* body bytes, already counted at their header */
            size_t k = (size_t)(end - p) < m->skip ? (size_t)(end - p) : (size_t)m->skip;
            p += k;
            m->skip -= k;
            if (m->skip == 0) element_done(m, complete);
            continue;
        }
        if (!charge(m, 1, max, err)) return -1;
        uint8_t b = *p++;
        m->in_msg = true;
        if (m->need > 0) {
            m->head[m->nhead++] = b;
            if (--m->need == 0 && !header_done(m, max, err, complete)) return -1;
            continue;
        }
        if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3) {
            element_done(m, complete);
        } else if (b <= 0x8f) {
            if (!open_container(m, b & 0x0f, true, max, err, complete)) return -1;
        } else if (b <= 0x9f) {
            if (!open_container(m, b & 0x0f, false, max, err, complete)) return -1;
        } else if (b <= 0xbf) {
            m->skip = b & 0x1f;
            if (!charge(m, m->skip, max, err)) return -1;
            if (m->skip == 0) element_done(m, complete);
        } else if (b == 0xc1) {
            m->broken = true; /* never msgpack: the parser reports it */
        } else {
            /* 0xc4..0xdf: a header of 1, 2, 4 or 8 bytes, or a fixed-size body */
            static const uint8_t head_len[32] = {
                [0x04] = 1, [0x05] = 2, [0x06] = 4, [0x07] = 1, [0x08] = 2, [0x09] = 4, [0x19] = 1,
                [0x1a] = 2, [0x1b] = 4, [0x1c] = 2, [0x1d] = 4, [0x1e] = 2, [0x1f] = 4};
            static const uint8_t body_len[32] = {
                [0x0a] = 4, [0x0b] = 8, [0x0c] = 1, [0x0d] = 2, [0x0e] = 4,
                [0x0f] = 8, [0x10] = 1, [0x11] = 2, [0x12] = 4, [0x13] = 8,
                [0x14] = 2, [0x15] = 3, [0x16] = 5, [0x17] = 9, [0x18] = 17};
            int i = b - 0xc0;
            m->kind = b;
            m->nhead = 0;
            if (head_len[i] && (size_t)(end - p) >= head_len[i]) {
                /* the whole header is here (the usual case): taken at
                 * once, charged as its bytes one by one would be */
                uint8_t h = head_len[i];
                if (!charge(m, h, max, err)) return -1;
                memcpy(m->head, p, h);
                m->nhead = h;
                p += h;
                if (!header_done(m, max, err, complete)) return -1;
            } else if (head_len[i]) {
                m->need = head_len[i];
            } else {
                m->skip = body_len[i];
                if (!charge(m, m->skip, max, err)) return -1;
            }
        }
    }
    return 0;
}

size_t sdk_wire_message_cost(const void *data, size_t n)
{
    sdk_wire_meter m;
    sdk_wire_meter_reset(&m);
    size_t complete = 0;
    sdk_error err;
    const uint8_t *p = data;
    for (size_t i = 0; i < n && !complete; i++)
        if (sdk_wire_meter_scan(&m, p + i, 1, SIZE_MAX / 2, &complete, &err) < 0) return SIZE_MAX;
    return complete ? m.last_cost : SIZE_MAX;
}
