/* sudokilo.c - the steps of the sudokilo ladder (seed 000, Esperanto, 2006)
 * that have no standard equivalent: rule 1 (band cross-hatching), the
 * segment locks of steps 2, 6, 7, 8 and 9, and the "bracket" of steps 21/22.
 *
 * A segment is the three cells where a box meets a line. sudokilo calls a
 * digit "forced" (deviga) on a segment when it is proved to lie there: placed
 * there, or its candidates in the box (pointing) or in the line (claiming) all
 * lie there. A forced digit leaves the rest of the box and of the line; a
 * segment with three forced digits is full and holds nothing else. */
#include <stdio.h>
#include <string.h>
#include "sudoku/strong.h"
#include "sudoku/technique.h"
#include "swordfish222.h"

static int find_band_hatching(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static int find_filled(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static int find_band(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static int find_line(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static int find_exclusion(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static int find_hatching(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static int find_bracket(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink);
static const int by_col = SDK_COL, by_row = SDK_ROW; /* brackets: the line type is the data */

static const sdk_technique swordfish222 = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "swordfish-222",
    .name = "Swordfish 2-2-2",
    .difficulty = 38,
    .score = 150,
    .level = SDK_LEVEL_HARD,
    .find = sudokilo_find_swordfish222,
    .summary = "sudokilo steps 16/17: a digit with exactly two places in each of three rows "
               "(columns), all in three columns (rows)",
};
static const sdk_technique band_hatching = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "band-hatching",
    .name = "Band Hatching",
    .difficulty = 12,
    .score = 14,
    .level = SDK_LEVEL_EASY,
    .find = find_band_hatching,
    .summary = "sudokilo rule 1: a digit in two boxes of a band; the third line of the third "
               "box has one empty cell",
};
static const sdk_technique seg_filled = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "segment-lock-filled",
    .name = "Segment Lock (filled segment)",
    .difficulty = 30,
    .score = 50,
    .level = SDK_LEVEL_MEDIUM,
    .find = find_filled,
    .summary = "sudokilo step 2: a segment full with three forced digits and the digit forced "
               "on another line of the band force it onto the third line",
};
static const sdk_technique seg_band = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "segment-lock-band",
    .name = "Segment Lock (band)",
    .difficulty = 28,
    .score = 50,
    .level = SDK_LEVEL_MEDIUM,
    .find = find_band,
    .summary = "sudokilo step 6: in two boxes of a band the digit can only be on the same two "
               "lines, so in the third box it is on the third line",
};
static const sdk_technique seg_line = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "segment-lock-line",
    .name = "Segment Lock (line completion)",
    .difficulty = 30,
    .score = 50,
    .level = SDK_LEVEL_MEDIUM,
    .find = find_line,
    .summary = "sudokilo step 7: two segments of a line are full, the third takes the three "
               "other digits",
};
static const sdk_technique seg_exclusion = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "segment-lock-exclusion",
    .name = "Segment Lock (exclusion)",
    .difficulty = 30,
    .score = 50,
    .level = SDK_LEVEL_MEDIUM,
    .find = find_exclusion,
    .summary = "sudokilo step 8: the box and the line leave a segment exactly as many digits "
               "as it has empty cells",
};
static const sdk_technique seg_hatching = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "segment-lock-hatching",
    .name = "Segment Lock (hatching)",
    .difficulty = 26,
    .score = 50,
    .level = SDK_LEVEL_MEDIUM,
    .find = find_hatching,
    .summary = "sudokilo step 9: the digit placed or forced on two lines of two boxes of a band "
               "is forced on the third line of the third box",
};
static const sdk_technique bracket_v = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "bracket-vertical",
    .name = "Bracket (columns)",
    .difficulty = 42,
    .score = 120,
    .level = SDK_LEVEL_HARD,
    .find = find_bracket,
    .data = &by_col,
    .summary = "sudokilo step 21: a column with two places and another with two or three "
               "sharing one row",
};
static const sdk_technique bracket_h = {
    .abi = SDK_ABI_VERSION,
    .size = sizeof(sdk_technique),
    .id = "bracket-horizontal",
    .name = "Bracket (rows)",
    .difficulty = 42,
    .score = 120,
    .level = SDK_LEVEL_HARD,
    .find = find_bracket,
    .data = &by_row,
    .summary = "sudokilo step 22: a row with two places and another with two or three "
               "sharing one column",
};

SDK_PLUGIN(&band_hatching, &seg_filled, &seg_band, &seg_line, &seg_exclusion, &seg_hatching,
           &bracket_v, &bracket_h, &swordfish222)

/* ---- geometry: orientation o (SDK_ROW: bands of rows, SDK_COL: stacks),
 * band 0..2, box i 0..2 within the band, line k 0..2 within the band ------ */

static int box_of(int o, int band, int i)
{
    return o == SDK_ROW ? band * 3 + i : i * 3 + band;
}
static int line_of(int o, int band, int k)
{
    return o * 9 + band * 3 + k;
}
static sdk_bb seg_bb(int o, int band, int i, int k)
{
    return sdk_bb_and(sdk_house_bb[18 + box_of(o, band, i)], sdk_house_bb[line_of(o, band, k)]);
}
static sdk_bb band_bb(int o, int band)
{
    sdk_bb b = sdk_bb_none();
    for (int k = 0; k < 3; k++) b = sdk_bb_or(b, sdk_house_bb[line_of(o, band, k)]);
    return b;
}

/* Digits placed in a set of cells. */
static unsigned placed_in(const sdk_grid *g, sdk_bb cells)
{
    unsigned m = 0;
    sdk_bb s = sdk_bb_and(cells, g->solved);
    SDK_BB_FOREACH(c, s) m |= sdk_digit_bit(g->value[c]);
    return m;
}

/* Digits forced on segment (o, band, i, k). */
static unsigned forced(const sdk_grid *g, int o, int band, int i, int k)
{
    sdk_bb seg = seg_bb(o, band, i, k);
    int boxh = 18 + box_of(o, band, i), lineh = line_of(o, band, k);
    unsigned m = placed_in(g, seg);
    unsigned inbox = sdk_house_placed(g, boxh), inline_ = sdk_house_placed(g, lineh);
    for (int d = 1; d <= 9; d++) {
        if (m & sdk_digit_bit(d)) continue;
        sdk_bb b = sdk_house_digit(g, boxh, d), l = sdk_house_digit(g, lineh, d);
        if ((!(inbox & sdk_digit_bit(d)) && !sdk_bb_empty(b) && sdk_bb_subset(b, seg)) ||
            (!(inline_ & sdk_digit_bit(d)) && !sdk_bb_empty(l) && sdk_bb_subset(l, seg)))
            m |= sdk_digit_bit(d);
    }
    return m;
}

/* The line k (0..2) of box i where d is forced, or -1. */
static int forced_line(const sdk_grid *g, int o, int band, int i, int d)
{
    for (int k = 0; k < 3; k++)
        if (forced(g, o, band, i, k) & sdk_digit_bit(d)) return k;
    return -1;
}

/* d is forced on segment (o, band, i, k): it leaves the box and the line. */
static void elim_forced(sdk_step *s, const sdk_grid *g, int o, int band, int i, int k, int d)
{
    sdk_bb seg = seg_bb(o, band, i, k);
    sdk_bb zone =
        sdk_bb_or(sdk_house_bb[18 + box_of(o, band, i)], sdk_house_bb[line_of(o, band, k)]);
    sdk_step_elim_bb(s, g, sdk_bb_andnot(zone, seg), d);
    sdk_step_mark_bb(s, sdk_bb_and(seg, g->digit[d - 1]), d, SDK_ROLE_BASE);
}

static const char *seg_text(int o, int band, int i, int k, char *buf)
{
    char cells[32];
    sdk_cells_compact(seg_bb(o, band, i, k), cells, sizeof cells);
    snprintf(buf, 48, "%s (b%d)", cells, box_of(o, band, i) + 1);
    return buf;
}

static const char *digits_text(unsigned m, char *buf)
{
    int n = 0;
    SDK_MASK_FOREACH(d, m) buf[n++] = (char)('0' + d);
    buf[n] = 0;
    return buf;
}

/* ---- rule 1: band hatching -------------------------------------------- */

static int find_band_hatching(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    for (int o = SDK_ROW; o <= SDK_COL; o++) {
        for (int band = 0; band < 3; band++) {
            for (int d = 1; d <= 9; d++) {
                int line[3], where[3], nin = 0, miss = -1;
                for (int i = 0; i < 3; i++) {
                    sdk_bb at = sdk_bb_none();
                    sdk_bb solved = sdk_bb_and(sdk_house_bb[18 + box_of(o, band, i)], g->solved);
                    SDK_BB_FOREACH(c, solved)
                        if (g->value[c] == d) sdk_bb_add(&at, c);
                    if (sdk_bb_empty(at)) {
                        miss = i;
                        continue;
                    }
                    where[i] = sdk_bb_first(at);
                    line[i] = (o == SDK_ROW ? sdk_row(where[i]) : sdk_col(where[i])) % 3;
                    nin++;
                }
                if (nin != 2) continue;
                int a = (miss + 1) % 3, b = (miss + 2) % 3;
                if (line[a] == line[b]) continue;
                int k = 3 - line[a] - line[b];
                sdk_bb empty = sdk_bb_andnot(seg_bb(o, band, miss, k), g->solved);
                if (sdk_bb_count(empty) != 1) continue;
                int cell = sdk_bb_first(empty);
                if (!sdk_grid_has(g, cell, d)) continue;
                sdk_step *s = sdk_scratch_step(ctx, 0);
                char n1[8], n2[8], hn[8];
                sdk_step_init(s, &band_hatching);
                sdk_step_place(s, cell, d);
                sdk_step_mark(s, cell, d, SDK_ROLE_TARGET);
                sdk_step_mark(s, where[a], 0, SDK_ROLE_BASE);
                sdk_step_mark(s, where[b], 0, SDK_ROLE_BASE);
                sdk_step_house(s, 18 + box_of(o, band, miss), SDK_ROLE_COVER);
                sdk_step_printf(s, "Band Hatching: %d in b%d %s (%d in %s and %s)", d,
                                box_of(o, band, miss) + 1, sdk_house_short(line_of(o, band, k), hn),
                                d, sdk_cell_name(where[a], n1), sdk_cell_name(where[b], n2));
                if (sdk_emit(sink, s) == SDK_STOP) return SDK_STOP;
            }
        }
    }
    return SDK_CONTINUE;
}

/* ---- step 2: a full segment ------------------------------------------- */

static int find_filled(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    for (int o = SDK_ROW; o <= SDK_COL; o++)
        for (int band = 0; band < 3; band++)
            for (int i = 0; i < 3; i++)
                for (int k1 = 0; k1 < 3; k1++) {
                    unsigned full = forced(g, o, band, i, k1);
                    if (sdk_mask_count(full) != 3) continue;
                    unsigned inbox = sdk_house_placed(g, 18 + box_of(o, band, i));
                    for (int d = 1; d <= 9; d++) {
                        if ((full | inbox) & sdk_digit_bit(d)) continue;
                        for (int i2 = 0; i2 < 3; i2++) {
                            if (i2 == i) continue;
                            int k2 = forced_line(g, o, band, i2, d);
                            if (k2 < 0 || k2 == k1) continue;
                            int k3 = 3 - k1 - k2, i3 = 3 - i - i2;
                            sdk_bb keep = sdk_bb_or(
                                seg_bb(o, band, i, k3),
                                sdk_bb_or(seg_bb(o, band, i2, k2), seg_bb(o, band, i3, k1)));
                            sdk_step *s = sdk_scratch_step(ctx, 0);
                            char a[48], b[48], c[48], ds[12];
                            sdk_step_init(s, &seg_filled);
                            if (!sdk_step_elim_bb(s, g, sdk_bb_andnot(band_bb(o, band), keep), d))
                                continue;
                            sdk_step_mark_bb(s, sdk_bb_and(keep, g->digit[d - 1]), d,
                                             SDK_ROLE_BASE);
                            sdk_step_printf(s, "%s: %d in %s, since %s holds %s and %d is in %s",
                                            seg_filled.name, d, seg_text(o, band, i, k3, a),
                                            seg_text(o, band, i, k1, b), digits_text(full, ds), d,
                                            seg_text(o, band, i2, k2, c));
                            if (sdk_emit(sink, s) == SDK_STOP) return SDK_STOP;
                        }
                    }
                }
    return SDK_CONTINUE;
}

/* ---- step 6: two boxes use the same two lines ---------------------------- */

static int find_band(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    for (int o = SDK_ROW; o <= SDK_COL; o++)
        for (int band = 0; band < 3; band++)
            for (int i = 0; i < 3; i++)
                for (int d = 1; d <= 9; d++) {
                    if (sdk_house_placed(g, 18 + box_of(o, band, i)) & sdk_digit_bit(d)) continue;
                    unsigned m[2] = {0, 0};
                    for (int j = 0; j < 2; j++) {
                        int i2 = (i + 1 + j) % 3;
                        for (int k = 0; k < 3; k++) {
                            sdk_bb seg = seg_bb(o, band, i2, k);
                            if (!sdk_bb_empty(sdk_bb_and(seg, g->digit[d - 1])) ||
                                (placed_in(g, seg) & sdk_digit_bit(d)))
                                m[j] |= 1u << k;
                        }
                    }
                    if (!m[0] || !m[1] || sdk_mask_count(m[0] | m[1]) != 2) continue;
                    int k3 = __builtin_ctz(~(m[0] | m[1]) & 7u);
                    sdk_step *s = sdk_scratch_step(ctx, 0);
                    char a[48];
                    sdk_step_init(s, &seg_band);
                    sdk_bb box = sdk_house_bb[18 + box_of(o, band, i)];
                    if (!sdk_step_elim_bb(s, g, sdk_bb_andnot(box, seg_bb(o, band, i, k3)), d))
                        continue;
                    for (int j = 0; j < 2; j++) {
                        int i2 = (i + 1 + j) % 3;
                        sdk_step_mark_bb(
                            s, sdk_bb_and(sdk_house_bb[18 + box_of(o, band, i2)], g->digit[d - 1]),
                            d, SDK_ROLE_BASE);
                    }
                    char l1[8], l2[8];
                    unsigned both = m[0] | m[1];
                    int ka = __builtin_ctz(both), kb = 31 - __builtin_clz(both);
                    sdk_step_printf(s, "%s: %d in %s, since b%d and b%d hold it only in %s and %s",
                                    seg_band.name, d, seg_text(o, band, i, k3, a),
                                    box_of(o, band, (i + 1) % 3) + 1,
                                    box_of(o, band, (i + 2) % 3) + 1,
                                    sdk_house_short(line_of(o, band, ka), l1),
                                    sdk_house_short(line_of(o, band, kb), l2));
                    if (sdk_emit(sink, s) == SDK_STOP) return SDK_STOP;
                }
    return SDK_CONTINUE;
}

/* ---- step 7: two full segments of a line ---------------------------------- */

static int find_line(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    for (int o = SDK_ROW; o <= SDK_COL; o++)
        for (int band = 0; band < 3; band++)
            for (int k = 0; k < 3; k++)
                for (int i = 0; i < 3; i++) {
                    unsigned f1 = forced(g, o, band, (i + 1) % 3, k);
                    unsigned f2 = forced(g, o, band, (i + 2) % 3, k);
                    if (sdk_mask_count(f1) != 3 || sdk_mask_count(f2) != 3 || (f1 & f2)) continue;
                    unsigned rest = SDK_ALL_DIGITS & ~(f1 | f2);
                    sdk_bb seg = seg_bb(o, band, i, k);
                    sdk_step *s = sdk_scratch_step(ctx, 0);
                    char a[48], b[48], c[48], d1[12], d2[12], dr[12];
                    sdk_step_init(s, &seg_line);
                    SDK_MASK_FOREACH(d, rest) elim_forced(s, g, o, band, i, k, d);
                    sdk_bb empty = sdk_bb_andnot(seg, g->solved);
                    SDK_BB_FOREACH(c2, empty) {
                        SDK_MASK_FOREACH(d, g->cand[c2] & ~rest) sdk_step_elim(s, c2, d);
                    }
                    if (sdk_step_empty(s)) continue;
                    sdk_step_printf(s, "%s: %s in %s, since %s holds %s and %s holds %s",
                                    seg_line.name, digits_text(rest, dr),
                                    seg_text(o, band, i, k, a),
                                    seg_text(o, band, (i + 1) % 3, k, b), digits_text(f1, d1),
                                    seg_text(o, band, (i + 2) % 3, k, c), digits_text(f2, d2));
                    if (sdk_emit(sink, s) == SDK_STOP) return SDK_STOP;
                }
    return SDK_CONTINUE;
}

/* ---- step 8: what the box and the line leave a segment ------------------ */

static int find_exclusion(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    for (int o = SDK_ROW; o <= SDK_COL; o++)
        for (int band = 0; band < 3; band++)
            for (int i = 0; i < 3; i++)
                for (int k = 0; k < 3; k++) {
                    sdk_bb seg = seg_bb(o, band, i, k);
                    sdk_bb empty = sdk_bb_andnot(seg, g->solved);
                    int ne = sdk_bb_count(empty);
                    if (ne < 2) continue;
                    unsigned out = sdk_house_placed(g, 18 + box_of(o, band, i)) |
                                   sdk_house_placed(g, line_of(o, band, k));
                    for (int j = 1; j < 3; j++) {
                        out |= forced(g, o, band, i, (k + j) % 3);
                        out |= forced(g, o, band, (i + j) % 3, k);
                    }
                    unsigned allowed = SDK_ALL_DIGITS & ~out;
                    if (sdk_mask_count(allowed) != ne) continue;
                    sdk_step *s = sdk_scratch_step(ctx, 0);
                    char a[48], dr[12];
                    sdk_step_init(s, &seg_exclusion);
                    SDK_MASK_FOREACH(d, allowed) elim_forced(s, g, o, band, i, k, d);
                    SDK_BB_FOREACH(c, empty) {
                        SDK_MASK_FOREACH(d, g->cand[c] & ~allowed) sdk_step_elim(s, c, d);
                    }
                    if (sdk_step_empty(s)) continue;
                    sdk_step_printf(
                        s, "%s: %s in %s (the box and the line exclude every other digit)",
                        seg_exclusion.name, digits_text(allowed, dr), seg_text(o, band, i, k, a));
                    if (sdk_emit(sink, s) == SDK_STOP) return SDK_STOP;
                }
    return SDK_CONTINUE;
}

/* ---- step 9: cross-hatching with forced digits ---------------------------- */

static int find_hatching(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    for (int o = SDK_ROW; o <= SDK_COL; o++)
        for (int band = 0; band < 3; band++)
            for (int i = 0; i < 3; i++)
                for (int d = 1; d <= 9; d++) {
                    if (sdk_house_placed(g, 18 + box_of(o, band, i)) & sdk_digit_bit(d)) continue;
                    int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
                    int k1 = forced_line(g, o, band, i1, d), k2 = forced_line(g, o, band, i2, d);
                    if (k1 < 0 || k2 < 0 || k1 == k2) continue;
                    int k3 = 3 - k1 - k2;
                    sdk_step *s = sdk_scratch_step(ctx, 0);
                    char a[48], b[48], c[48];
                    sdk_step_init(s, &seg_hatching);
                    elim_forced(s, g, o, band, i, k3, d);
                    if (sdk_step_empty(s)) continue;
                    sdk_step_printf(s, "%s: %d in %s, since %d is in %s and in %s",
                                    seg_hatching.name, d, seg_text(o, band, i, k3, a), d,
                                    seg_text(o, band, i1, k1, b), seg_text(o, band, i2, k2, c));
                    if (sdk_emit(sink, s) == SDK_STOP) return SDK_STOP;
                }
    return SDK_CONTINUE;
}

/* ---- steps 21/22: the bracket ------------------------------------------ */

/* Lines of type lt (SDK_COL: step 21, SDK_ROW: step 22). A line with exactly
 * two places a, b; another line, in another stack (band), with two or three
 * places: one in a's cross line, the others (group G) in one box of b's band
 * but not in b's cross line. Either b holds the digit or a does, then the
 * second line's copy is in G: cells seeing b and all of G lose it. */
static int find_bracket(const sdk_ctx *ctx, const sdk_grid *g, sdk_sink *sink)
{
    const sdk_technique *t = ctx->self;
    int lt = *(const int *)t->data;
    int ct = lt == SDK_COL ? SDK_ROW : SDK_COL;
    for (int d = 1; d <= 9; d++) {
        for (int l1 = 0; l1 < 9; l1++) {
            sdk_bb p = sdk_house_digit(g, lt * 9 + l1, d);
            if (sdk_bb_count(p) != 2) continue;
            int p0 = sdk_bb_first(p), p1 = sdk_bb_next(p, p0);
            for (int x = 0; x < 2; x++) {
                int a = x ? p1 : p0, b = x ? p0 : p1;
                int across = sdk_cell_house[a][ct] % 9, bcross = sdk_cell_house[b][ct] % 9;
                for (int l2 = 0; l2 < 9; l2++) {
                    if (l2 / 3 == l1 / 3) continue;
                    sdk_bb q = sdk_house_digit(g, lt * 9 + l2, d);
                    int nq = sdk_bb_count(q);
                    if (nq < 2 || nq > 3) continue;
                    int a2 = lt == SDK_COL ? sdk_cell_at(across, l2) : sdk_cell_at(l2, across);
                    if (!sdk_bb_has(q, a2)) continue;
                    sdk_bb grp = q;
                    sdk_bb_del(&grp, a2);
                    int box = sdk_box(sdk_bb_first(grp)), bad = 0;
                    SDK_BB_FOREACH(c, grp) {
                        int cc = sdk_cell_house[c][ct] % 9;
                        bad |= sdk_box(c) != box || cc / 3 != bcross / 3 || cc == bcross;
                    }
                    if (bad) continue;
                    sdk_bb tgt = sdk_bb_and(sdk_peer_bb[b], g->digit[d - 1]);
                    SDK_BB_FOREACH(c, grp) tgt = sdk_bb_and(tgt, sdk_peer_bb[c]);
                    sdk_step *s = sdk_scratch_step(ctx, 0);
                    char na[8], nb[8], na2[8], ng[32], h1[8], h2[8];
                    sdk_step_init(s, t);
                    if (!sdk_step_elim_bb(s, g, tgt, d)) continue;
                    sdk_step_house(s, lt * 9 + l1, SDK_ROLE_BASE);
                    sdk_step_house(s, lt * 9 + l2, SDK_ROLE_BASE);
                    sdk_step_mark(s, b, d, SDK_ROLE_ON);
                    sdk_step_mark(s, a, d, SDK_ROLE_OFF);
                    sdk_step_mark(s, a2, d, SDK_ROLE_OFF);
                    sdk_step_mark_bb(s, grp, d, SDK_ROLE_ON);
                    sdk_step_printf(s, "%s: %d %s %s=%s, %s %s=%s", t->name, d,
                                    sdk_house_short(lt * 9 + l1, h1), sdk_cell_name(b, nb),
                                    sdk_cell_name(a, na), sdk_house_short(lt * 9 + l2, h2),
                                    sdk_cell_name(a2, na2), sdk_cells_compact(grp, ng, sizeof ng));
                    if (sdk_emit(sink, s) == SDK_STOP) return SDK_STOP;
                }
            }
        }
    }
    return SDK_CONTINUE;
}
