/* solver.c - the fast brute-force solver behind sdk_solve / sdk_solve_grid.
 *
 * Band bitboards: for every digit d and band b (rows 3b..3b+2) one 27-bit word
 * holds the cells of the band where d may still go (bit (row%3)*9 + col); a
 * placed digit keeps its own cell. Updating one digit-band word does, with
 * small tables:
 *   - a row x box presence matrix (3x3); the digit needs one cell per row and
 *     one per box, so only cells on a permutation of that matrix survive
 *     (this is box/line interaction inside the band and hidden singles in
 *     boxes);
 *   - a row left with one cell is a placement: the cell leaves the other
 *     digits of the band and its column leaves the digit's two other bands.
 * When every word is stable, naked singles (cells with one digit, found with
 * a bitwise counter over the nine digits) are placed, then, four digits at a
 * time, hidden singles in columns and the same permutation filter on each
 * stack's band x column matrix (a column's digit confined to one box leaves
 * the box's other columns; a box's digit confined to one column leaves that
 * column in the other boxes), computed rather than looked up.
 *
 * A band's nine words are adjacent, as three vectors of four 32-bit lanes
 * (GCC/clang vector extensions: SSE2 on any x86-64, NEON elsewhere, plain
 * scalar code otherwise): a placement clears its cell from the band's other
 * digits in three vector operations, and the counters over a band's digits
 * fold lanes instead of looping. Hot choices are branch-free where the
 * branch would be a coin toss (a row's single cell, the best guess so far).
 *
 * When nothing is left, the solver guesses on the bivalue cell with the most
 * unsolved peers, bivalue peers counting extra (the guess that reaches
 * furthest), else on a cell with the fewest candidates, and recurses on a
 * copy; guesses counts those branch points. Measured and left out because
 * they cost more than they save here (tests/bench/README.md): triads (a
 * minirow holding exactly three digits), branching on a digit's placement
 * pattern in a band as tdoku does, and probing cells for failed guesses. */
#include "sudoku/solver.h"

#include <stdbool.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define BAND_ALL 0x7ffffffu
#define COL_REP 0x40201u /* one bit per row of a band: spreads a column set over 3 rows */

/* Word index of digit d (0..8) in band b: a band's nine digits are adjacent
 * (three 16-byte vectors, the last with three zero pads), so that clearing
 * cells from every digit of a band is three vector operations. */
#define W(b, d) ((b)*12 + (d))

typedef struct bstate {
    uint32_t f[36] __attribute__((aligned(16))); /* f[W(b, d)]: digit d in band b */
    uint32_t u[3];                               /* unsolved cells per band */
    uint64_t dirty; /* bit W(b, d): word changed since its last update */
} bstate;

typedef struct search_ctx {
    int limit;
    int count;
    uint64_t guesses;
    uint8_t (*sol)[81];
} search_ctx;

/* ---- tables (built once) ------------------------------------------------ */

static uint8_t row_boxes[512];  /* 9-bit row -> 3-bit set of boxes used */
static uint32_t perm_keep[512]; /* 3x3 row/box matrix -> 27-bit cells kept */
static uint32_t band_peer[27];  /* peers of a cell inside its band */
/* The same 3x3 permutation filter for a stack: a band x column matrix. */
static uint16_t perm_keep9[512];
static bool tables_ready;

static void build_tables(void)
{
    for (unsigned x = 0; x < 512; x++)
        row_boxes[x] = (uint8_t)(((x & 7u) ? 1 : 0) | ((x & 070u) ? 2 : 0) | ((x & 0700u) ? 4 : 0));
    static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                    {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (unsigned p = 0; p < 512; p++) {
        unsigned keep = 0;
        for (int k = 0; k < 6; k++) {
            unsigned m = 0;
            for (int r = 0; r < 3; r++) m |= 1u << (r * 3 + perms[k][r]);
            if ((p & m) == m) keep |= m;
        }
        uint32_t cells = 0;
        for (int r = 0; r < 3; r++)
            for (int k = 0; k < 3; k++)
                if (keep & (1u << (r * 3 + k))) cells |= 7u << (r * 9 + k * 3);
        perm_keep[p] = cells;
        perm_keep9[p] = (uint16_t)keep;
    }
    for (int c = 0; c < 27; c++) {
        uint32_t m = 0;
        for (int o = 0; o < 27; o++) {
            if (o == c) continue;
            if (o / 9 == c / 9 || o % 9 == c % 9 || (o % 9) / 3 == (c % 9) / 3) m |= 1u << o;
        }
        band_peer[c] = m;
    }
    __atomic_store_n(&tables_ready, true, __ATOMIC_RELEASE);
}

/* Built when the library is loaded; ensure_tables() only covers a call made
 * before constructors ran. */
__attribute__((constructor)) static void solver_tables_init(void)
{
    build_tables();
}

static inline void ensure_tables(void)
{
    if (!__atomic_load_n(&tables_ready, __ATOMIC_ACQUIRE)) build_tables();
}

/* ---- propagation -------------------------------------------------------- */

static inline void elim(bstate *s, int i, uint32_t m)
{
    uint32_t o = s->f[i], n = o & ~m;
    s->f[i] = n;
    s->dirty |= (uint64_t)(n != o) << i;
}

/* Clear cells m from every digit of band b but digit keep (which holds
 * them); the words that lose a cell become dirty. */
static inline void band_clear(bstate *s, int b, uint32_t m, int keep)
{
    uint32_t *f = s->f + W(b, 0);
    uint32_t own = f[keep];
    unsigned changed = 0;
#if defined(__SSE2__)
    __m128i mv = _mm_set1_epi32((int)m), zero = _mm_setzero_si128();
    for (int k = 0; k < 3; k++) {
        __m128i x = _mm_load_si128((const __m128i *)(f + 4 * k));
        __m128i hit = _mm_cmpeq_epi32(_mm_and_si128(x, mv), zero);
        changed |= (unsigned)(~_mm_movemask_ps(_mm_castsi128_ps(hit)) & 15) << (4 * k);
        _mm_store_si128((__m128i *)(f + 4 * k), _mm_andnot_si128(mv, x));
    }
#else
    for (int d = 0; d < 9; d++) {
        changed |= (unsigned)((f[d] & m) != 0) << d;
        f[d] &= ~m;
    }
#endif
    f[keep] = own;
    s->dirty |= (uint64_t)(changed & ~(1u << keep)) << W(b, 0);
}

/* Four 32-bit lanes (SSE2, NEON, or scalar code where there is neither). */
typedef uint32_t v4u __attribute__((vector_size(16)));

/* Bit k set when lane k is not zero. */
static inline unsigned lanes_nonzero(v4u x)
{
#if defined(__SSE2__)
    __m128i z = _mm_cmpeq_epi32((__m128i)x, _mm_setzero_si128());
    return (unsigned)_mm_movemask_ps(_mm_castsi128_ps(z)) ^ 15u;
#else
    return (unsigned)(x[0] != 0) | (unsigned)(x[1] != 0) << 1 | (unsigned)(x[2] != 0) << 2 |
           (unsigned)(x[3] != 0) << 3;
#endif
}

/* Column sets (9 bits, three per stack): each column takes the bit of the
 * next (rot1) or the one after (rot2) column of its stack. */
static inline v4u stack_rot1(v4u x)
{
    return ((x >> 1) & 0333) | ((x << 2) & 0444);
}

static inline v4u stack_rot2(v4u x)
{
    return ((x >> 2) & 0111) | ((x << 1) & 0666);
}

/* Update digit-band word i; false on a contradiction. */
static inline bool update(bstate *s, int i)
{
    uint32_t F = s->f[i];
    unsigned p = row_boxes[F & 511] | (unsigned)row_boxes[(F >> 9) & 511] << 3 |
                 (unsigned)row_boxes[F >> 18] << 6;
    F &= perm_keep[p];
    if (!F) return false;
    s->f[i] = F;
    /* Rows with one cell, all three at once: every row holds a cell now (F
     * is a union of permutations), so F - COL_REP borrows inside each row;
     * clearing each row's lowest cell leaves the rows with two or more. */
    uint32_t more = F & (F - COL_REP);
    uint32_t nonzero = (((more & (255u * COL_REP)) + 255u * COL_REP) | more) & (256u * COL_REP);
    uint32_t sing = F & ~((nonzero >> 8) * 511u);
    int b = i / 12;
    uint32_t fresh = sing & s->u[b];
    if (fresh) {
        int d = i - b * 12;
        s->u[b] &= ~fresh;
        band_clear(s, b, fresh, d);
        uint32_t cm = ((fresh | fresh >> 9 | fresh >> 18) & 511) * COL_REP;
        int b1 = b == 0 ? 1 : 0, b2 = b == 2 ? 1 : 2;
        elim(s, W(b1, d), cm);
        elim(s, W(b2, d), cm);
    }
    return true;
}

#if defined(__SSE2__)
/* Lane k of x with lane k ^ 2 (sel 0x4e) or k ^ 1 (sel 0xb1). */
#define LANE_SWAP(x, sel) ((v4u)_mm_shuffle_epi32((__m128i)(x), sel))
#endif

/* The cells of band b with at least one, two and three candidate digits. */
static inline void band_counts(const bstate *s, int b, uint32_t *ones, uint32_t *twos,
                               uint32_t *threes)
{
#if defined(__SSE2__)
    const uint32_t *f = s->f + W(b, 0);
    v4u x0 = *(const v4u *)f, x1 = *(const v4u *)(f + 4), x2 = *(const v4u *)(f + 8);
    v4u o = x0 | x1 | x2, t = (x0 & x1) | (x0 & x2) | (x1 & x2), h = x0 & x1 & x2;
    v4u po = LANE_SWAP(o, 0x4e), pt = LANE_SWAP(t, 0x4e), ph = LANE_SWAP(h, 0x4e);
    h |= ph | (t & po) | (o & pt);
    t |= pt | (o & po);
    o |= po;
    po = LANE_SWAP(o, 0xb1), pt = LANE_SWAP(t, 0xb1), ph = LANE_SWAP(h, 0xb1);
    *threes = (h | ph | (t & po) | (o & pt))[0];
    *twos = (t | pt | (o & po))[0];
    *ones = (o | po)[0];
#else
    uint32_t o = 0, t = 0, h = 0;
    for (int d = 0; d < 9; d++) {
        uint32_t x = s->f[W(b, d)];
        h |= t & x;
        t |= o & x;
        o |= x;
    }
    *ones = o, *twos = t, *threes = h;
#endif
}

/* Naked singles; returns -1 contradiction, 1 found some, 0 none. */
static inline int naked_singles(bstate *s)
{
    int found = 0;
    for (int b = 0; b < 3; b++) {
        if (!s->u[b]) continue;
        uint32_t ones, twos, threes;
        band_counts(s, b, &ones, &twos, &threes);
        if (ones != BAND_ALL) return -1;
        uint32_t single = s->u[b] & ~twos;
        if (!single) continue;
        found = 1;
        for (int d = 0; d < 9; d++) {
            uint32_t x = s->f[W(b, d)] & single;
            while (x) {
                int c = __builtin_ctz(x);
                x &= x - 1;
                elim(s, W(b, d), band_peer[c]);
            }
        }
    }
    return found;
}

/* Hidden singles in columns, and box/column interactions: for each digit
 * and stack, the 3x3 band x column matrix of where the digit may go keeps
 * only cells on a permutation (one band per column, one column per box).
 * Returns -1 contradiction, 1 found a single, 0 none. */
static inline int column_tier(bstate *s)
{
    int found = 0;
    for (int k = 0; k < 12; k += 4) { /* digits k..k+3 (9..11 are zero pads) */
        v4u x[3], o[3], t[3];
        for (int b = 0; b < 3; b++) {
            x[b] = *(const v4u *)(s->f + W(b, k));
            v4u r0 = x[b] & 511, r1 = (x[b] >> 9) & 511, r2 = x[b] >> 18;
            o[b] = r0 | r1 | r2;
            t[b] = (r0 & r1) | (r0 & r2) | (r1 & r2);
        }
        v4u ones = o[0] | o[1] | o[2];
        unsigned real = k < 8 ? 15u : 1u;
        if (lanes_nonzero(ones ^ 511) & real) return -1;
        v4u twos = t[0] | t[1] | t[2] | (o[0] & o[1]) | (o[0] & o[2]) | (o[1] & o[2]);
        v4u one = ones & ~twos;
        /* Each stack's band x column matrix: a cell stays if the other two
         * bands and columns of its stack still hold a permutation. */
        for (int b = 0; b < 3; b++) {
            v4u p = o[b == 0 ? 1 : 0], q = o[b == 2 ? 1 : 2];
            v4u keep = (stack_rot1(p) & stack_rot2(q)) | (stack_rot2(p) & stack_rot1(q));
            v4u rm = o[b] & ~keep;
            v4u n = x[b] & ~(rm * COL_REP);
            s->dirty |= (uint64_t)lanes_nonzero(n ^ x[b]) << W(b, k);
            *(v4u *)(s->f + W(b, k)) = n;
        }
        for (unsigned lanes = lanes_nonzero(one); lanes; lanes &= lanes - 1) {
            {
                int d = k + __builtin_ctz(lanes);
                uint32_t cm = one[d - k] * COL_REP;
                for (int b = 0; b < 3; b++) {
                    uint32_t c1 = s->f[W(b, d)] & cm & s->u[b];
                    while (c1) {
                        int c = __builtin_ctz(c1);
                        c1 &= c1 - 1;
                        elim(s, W(b, d), band_peer[c]);
                        found = 1;
                    }
                }
            }
        }
    }
    return found;
}

static bool propagate(bstate *s)
{
    for (;;) {
        while (s->dirty) {
            int i = __builtin_ctzll(s->dirty);
            s->dirty &= s->dirty - 1;
            if (!update(s, i)) return false;
        }
        if (!(s->u[0] | s->u[1] | s->u[2])) return true;
        int r = naked_singles(s);
        if (r < 0) return false;
        if (r) continue;
        r = column_tier(s);
        if (r < 0) return false;
        if (!r && !s->dirty) return true;
    }
}

/* ---- search ------------------------------------------------------------- */

static void record(search_ctx *c, const bstate *s)
{
    if (c->sol && c->count < 2) {
        uint8_t *out = c->sol[c->count];
        for (int b = 0; b < 3; b++)
            for (int d = 0; d < 9; d++) {
                uint32_t x = s->f[W(b, d)];
                while (x) {
                    out[b * 27 + __builtin_ctz(x)] = (uint8_t)(d + 1);
                    x &= x - 1;
                }
            }
    }
    c->count++;
}

/* Place digit d (0..8) in cell bit c of band b. */
static inline void place(bstate *s, int b, int c, int d)
{
    band_clear(s, b, 1u << c, d);
    elim(s, W(b, d), band_peer[c]);
}

static void search(search_ctx *c, bstate *s)
{
    for (;;) {
        if (!propagate(s)) return;
        if (!(s->u[0] | s->u[1] | s->u[2])) {
            record(c, s);
            return;
        }
        /* Pick a cell: the bivalue one with the most unsolved peers, bivalue
         * peers counting half as much again (its guess reaches furthest),
         * else one with the fewest digits. */
        int pb = -1, pc = -1;
        uint32_t pr[3];
        for (int b = 0; b < 3; b++) {
            uint32_t ones, twos, threes;
            band_counts(s, b, &ones, &twos, &threes);
            pr[b] = s->u[b] & twos & ~threes;
        }
        /* Score << 7 | (127 - b * 27 - cell): the best score, the first
         * cell among equals, picked without a branch. */
        unsigned best_key = 0;
        for (int b = 0; b < 3; b++) {
            uint32_t pairs = pr[b];
            int b1 = b == 0 ? 1 : 0, b2 = b == 2 ? 1 : 2;
            uint32_t u1 = s->u[b1], u2 = s->u[b2];
            while (pairs) {
                int cc = __builtin_ctz(pairs);
                pairs &= pairs - 1;
                uint32_t col = COL_REP << (cc % 9);
                int n = __builtin_popcount(band_peer[cc] & s->u[b]) + __builtin_popcount(u1 & col) +
                        __builtin_popcount(u2 & col);
                n = n * 2 + __builtin_popcount(band_peer[cc] & pr[b]) +
                    __builtin_popcount(pr[b1] & col) + __builtin_popcount(pr[b2] & col);
                unsigned key = (unsigned)n << 7 | (unsigned)(127 - b * 27 - cc);
                best_key = key > best_key ? key : best_key;
            }
        }
        if (best_key) {
            int at = 127 - (int)(best_key & 127);
            pb = at / 27;
            pc = at % 27;
        }
        if (pb < 0) {
            int best = 10;
            for (int b = 0; b < 3; b++) {
                uint32_t x = s->u[b];
                while (x) {
                    int cc = __builtin_ctz(x);
                    x &= x - 1;
                    int n = 0;
                    for (int d = 0; d < 9; d++) n += (s->f[W(b, d)] >> cc) & 1;
                    if (n < best) {
                        best = n;
                        pb = b;
                        pc = cc;
                    }
                }
            }
        }
        unsigned digits = 0;
        for (int d = 0; d < 9; d++) digits |= ((s->f[W(pb, d)] >> pc) & 1u) << d;
        c->guesses++;
        /* Every digit but the last on a copy; the last in place. */
        while (digits & (digits - 1)) {
            int d = __builtin_ctz(digits);
            digits &= digits - 1;
            bstate t = *s;
            place(&t, pb, pc, d);
            search(c, &t);
            if (c->count >= c->limit) return;
            elim(s, W(pb, d), 1u << pc);
        }
        place(s, pb, pc, __builtin_ctz(digits));
    }
}

/* ---- API ---------------------------------------------------------------- */

static void init_state(bstate *s)
{
    memset(s->f, 0, sizeof s->f);
    for (int b = 0; b < 3; b++)
        for (int d = 0; d < 9; d++) s->f[W(b, d)] = BAND_ALL;
    s->u[0] = s->u[1] = s->u[2] = BAND_ALL;
    s->dirty = 0x1ffull * (1ull | 1ull << 12 | 1ull << 24);
}

static int run(bstate *s, int limit, uint8_t (*sol)[81], sdk_solver_stats *st)
{
    search_ctx c = {.limit = limit < 1 ? 1 : limit, .count = 0, .guesses = 0, .sol = sol};
    search(&c, s);
    if (st) st->guesses = c.guesses;
    return c.count;
}

/* Values outside 1..9 count as empty. */
int sdk_solve(const uint8_t values[81], int limit, uint8_t (*sol)[81], sdk_solver_stats *st)
{
    ensure_tables();
    bstate s;
    init_state(&s);
    for (int cell = 0; cell < 81; cell++) {
        int v = values[cell];
        if (v < 1 || v > 9) continue;
        int b = cell / 27, c = cell % 27;
        if (!((s.f[W(b, v - 1)] >> c) & 1)) { /* conflicting givens */
            if (st) st->guesses = 0;
            return 0;
        }
        place(&s, b, c, v - 1);
    }
    return run(&s, limit, sol, st);
}

int sdk_solve_grid(const sdk_grid *g, int limit, uint8_t (*sol)[81], sdk_solver_stats *st)
{
    ensure_tables();
    bstate s;
    init_state(&s);
    for (int cell = 0; cell < 81; cell++) {
        int b = cell / 27, c = cell % 27;
        uint32_t bit = 1u << c;
        int v = g->value[cell];
        unsigned allowed = (v >= 1 && v <= 9) ? 1u << (v - 1) : g->cand[cell];
        for (int d = 0; d < 9; d++)
            if (!((allowed >> d) & 1)) s.f[W(b, d)] &= ~bit;
    }
    for (int cell = 0; cell < 81; cell++) {
        int v = g->value[cell];
        if (v < 1 || v > 9) continue;
        int b = cell / 27, c = cell % 27;
        if (!((s.f[W(b, v - 1)] >> c) & 1)) {
            if (st) st->guesses = 0;
            return 0;
        }
        place(&s, b, c, v - 1);
    }
    return run(&s, limit, sol, st);
}
