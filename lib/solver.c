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
 * a bitwise counter over the nine digits) are placed, then, digit by digit,
 * hidden singles in columns and the same permutation filter on each stack's
 * band x column matrix (a column's digit confined to one box leaves the box's
 * other columns; a box's digit confined to one column leaves that column in
 * the other boxes).
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

#define BAND_ALL 0x7ffffffu
#define COL_REP 0x40201u /* one bit per row of a band: spreads a column set over 3 rows */

typedef struct bstate {
    uint32_t f[27]; /* f[d*3+b]: digit d in band b */
    uint32_t u[3];  /* unsolved cells per band */
    uint32_t dirty; /* digit-band words changed since their last update */
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
static uint8_t idx_digit[27], idx_band[27];
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
    for (int i = 0; i < 27; i++) {
        idx_digit[i] = (uint8_t)(i / 3);
        idx_band[i] = (uint8_t)(i % 3);
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
    s->dirty |= (uint32_t)(n != o) << i;
}

static inline uint32_t single_row(uint32_t r)
{
    return (r & (r - 1)) ? 0 : r;
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
    uint32_t sing =
        single_row(F & 511) | single_row((F >> 9) & 511) << 9 | single_row(F >> 18) << 18;
    int b = idx_band[i];
    uint32_t fresh = sing & s->u[b];
    if (fresh) {
        int d = idx_digit[i];
        s->u[b] &= ~fresh;
        for (int e = b; e < 27; e += 3)
            if (e != i) elim(s, e, fresh);
        uint32_t cm = ((fresh | fresh >> 9 | fresh >> 18) & 511) * COL_REP;
        int b1 = b == 0 ? 1 : 0, b2 = b == 2 ? 1 : 2;
        elim(s, d * 3 + b1, cm);
        elim(s, d * 3 + b2, cm);
    }
    return true;
}

/* Naked singles; returns -1 contradiction, 1 found some, 0 none. */
static inline int naked_singles(bstate *s)
{
    int found = 0;
    for (int b = 0; b < 3; b++) {
        if (!s->u[b]) continue;
        uint32_t ones = 0, twos = 0;
        for (int d = 0; d < 9; d++) {
            uint32_t x = s->f[d * 3 + b];
            twos |= ones & x;
            ones |= x;
        }
        if (ones != BAND_ALL) return -1;
        uint32_t single = s->u[b] & ~twos;
        if (!single) continue;
        found = 1;
        for (int d = 0; d < 9; d++) {
            uint32_t x = s->f[d * 3 + b] & single;
            while (x) {
                int c = __builtin_ctz(x);
                x &= x - 1;
                elim(s, d * 3 + b, band_peer[c]);
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
    for (int d = 0; d < 9; d++) {
        uint32_t o[3], t[3];
        for (int b = 0; b < 3; b++) {
            uint32_t x = s->f[d * 3 + b];
            uint32_t r0 = x & 511, r1 = (x >> 9) & 511, r2 = x >> 18;
            o[b] = r0 | r1 | r2;
            t[b] = (r0 & r1) | (r0 & r2) | (r1 & r2);
        }
        uint32_t ones = o[0] | o[1] | o[2];
        if (ones != 511) return -1;
        uint32_t twos = t[0] | t[1] | t[2] | (o[0] & o[1]) | (o[0] & o[2]) | (o[1] & o[2]);
        uint32_t one = ones & ~twos;
        if (one) {
            uint32_t cm = one * COL_REP;
            for (int b = 0; b < 3; b++) {
                uint32_t x = s->f[d * 3 + b] & cm & s->u[b];
                while (x) {
                    int c = __builtin_ctz(x);
                    x &= x - 1;
                    elim(s, d * 3 + b, band_peer[c]);
                    found = 1;
                }
            }
        }
        uint32_t rm0 = 0, rm1 = 0, rm2 = 0;
        for (int sh = 0; sh < 9; sh += 3) {
            unsigned q = ((o[0] >> sh) & 7) | ((o[1] >> sh) & 7) << 3 | ((o[2] >> sh) & 7) << 6;
            unsigned rem = q & ~(unsigned)perm_keep9[q];
            rm0 |= (rem & 7) << sh;
            rm1 |= ((rem >> 3) & 7) << sh;
            rm2 |= (rem >> 6) << sh;
        }
        if (rm0) elim(s, d * 3, rm0 * COL_REP);
        if (rm1) elim(s, d * 3 + 1, rm1 * COL_REP);
        if (rm2) elim(s, d * 3 + 2, rm2 * COL_REP);
    }
    return found;
}

static bool propagate(bstate *s)
{
    for (;;) {
        while (s->dirty) {
            int i = __builtin_ctz(s->dirty);
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
        for (int i = 0; i < 27; i++) {
            uint32_t x = s->f[i];
            int base = idx_band[i] * 27;
            while (x) {
                out[base + __builtin_ctz(x)] = (uint8_t)(idx_digit[i] + 1);
                x &= x - 1;
            }
        }
    }
    c->count++;
}

/* Place digit d (0..8) in cell bit c of band b. */
static inline void place(bstate *s, int b, int c, int d)
{
    uint32_t bit = 1u << c;
    for (int e = 0; e < 9; e++)
        if (e != d) elim(s, e * 3 + b, bit);
    elim(s, d * 3 + b, band_peer[c]);
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
        int pb = -1, pc = -1, most = -1;
        uint32_t pr[3];
        for (int b = 0; b < 3; b++) {
            uint32_t ones = 0, twos = 0, threes = 0;
            for (int d = 0; d < 9; d++) {
                uint32_t x = s->f[d * 3 + b];
                threes |= twos & x;
                twos |= ones & x;
                ones |= x;
            }
            pr[b] = s->u[b] & twos & ~threes;
        }
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
                if (n > most) {
                    most = n;
                    pb = b;
                    pc = cc;
                }
            }
        }
        if (pb < 0) {
            int best = 10;
            for (int b = 0; b < 3; b++) {
                uint32_t x = s->u[b];
                while (x) {
                    int cc = __builtin_ctz(x);
                    x &= x - 1;
                    int n = 0;
                    for (int d = 0; d < 9; d++) n += (s->f[d * 3 + b] >> cc) & 1;
                    if (n < best) {
                        best = n;
                        pb = b;
                        pc = cc;
                    }
                }
            }
        }
        unsigned digits = 0;
        for (int d = 0; d < 9; d++) digits |= ((s->f[d * 3 + pb] >> pc) & 1u) << d;
        c->guesses++;
        /* Every digit but the last on a copy; the last in place. */
        while (digits & (digits - 1)) {
            int d = __builtin_ctz(digits);
            digits &= digits - 1;
            bstate t = *s;
            place(&t, pb, pc, d);
            search(c, &t);
            if (c->count >= c->limit) return;
            elim(s, d * 3 + pb, 1u << pc);
        }
        place(s, pb, pc, __builtin_ctz(digits));
    }
}

/* ---- API ---------------------------------------------------------------- */

static void init_state(bstate *s)
{
    for (int i = 0; i < 27; i++) s->f[i] = BAND_ALL;
    s->u[0] = s->u[1] = s->u[2] = BAND_ALL;
    s->dirty = (1u << 27) - 1;
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
        if (!((s.f[(v - 1) * 3 + b] >> c) & 1)) { /* conflicting givens */
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
            if (!((allowed >> d) & 1)) s.f[d * 3 + b] &= ~bit;
    }
    for (int cell = 0; cell < 81; cell++) {
        int v = g->value[cell];
        if (v < 1 || v > 9) continue;
        int b = cell / 27, c = cell % 27;
        if (!((s.f[(v - 1) * 3 + b] >> c) & 1)) {
            if (st) st->guesses = 0;
            return 0;
        }
        place(&s, b, c, v - 1);
    }
    return run(&s, limit, sol, st);
}
