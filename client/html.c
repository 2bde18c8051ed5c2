/* html.c - sudoctl --html: one self-contained page that draws each step on a
 * grid (SVG): candidates, pattern cells and candidates coloured by role, base
 * and cover houses tinted, placements ringed, eliminations struck out, chain
 * links as arrows (strong solid, weak dashed). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "rpc.h"
#include "sudoku/format.h"
#include "sudoku/grid.h"

#define CS 48 /* cell size */
#define MG 22 /* margin for the row/column labels */
#define SUB (CS / 3)

static const char *const role_colour[] = {
    "#dddddd", /* none */
    "#7fb3ff", /* base */
    "#ffcf70", /* cover */
    "#c39bd3", /* fin */
    "#e8c6f0", /* endofin */
    "#f7dc6f", /* pivot */
    "#8fd9a8", /* pincer */
    "#6fd08c", /* on */
    "#f5a3a3", /* off */
    "#a9d6f5", /* als */
    "#f1948a", /* target */
};
#define NCOL (int)(sizeof role_colour / sizeof role_colour[0])

static const char *colour(int role)
{
    return role >= 0 && role < NCOL ? role_colour[role] : "#ddd";
}

void html_escape(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        switch (s[i]) {
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '&':
            fputs("&amp;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            putc(s[i], f);
        }
    }
}

static void esc_obj(FILE *f, const msgpack_object *o)
{
    if (o && o->type == MSGPACK_OBJECT_STR) html_escape(f, o->via.str.ptr, o->via.str.size);
}

void html_begin(FILE *f, const char *title)
{
    fprintf(
        f,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<title>sudoctl %s</title>\n<style>\n"
        "body{font-family:sans-serif;margin:1.5em;color:#222}\n"
        "section.puzzle{border-top:2px solid #888;margin-top:1.5em;padding-top:.5em}\n"
        "code,.mono{font-family:monospace}\n"
        ".step{display:inline-block;vertical-align:top;margin:.6em 1em .6em 0;max-width:%dpx}\n"
        ".step p{margin:.2em 0;font-family:monospace;font-size:90%%}\n"
        ".error{color:#a00;font-weight:bold}\n"
        ".legend span{display:inline-block;padding:0 .5em;margin-right:.3em;border-radius:3px}\n"
        "table.rate td{padding:0 .8em 0 0}\n"
        "</style></head><body>\n<h1>sudoctl %s</h1>\n<p class=\"legend\">",
        title, 9 * CS + 2 * MG, title);
    for (int r = 1; r < NCOL; r++)
        fprintf(f, "<span style=\"background:%s\">%s</span>", colour(r), role_name(r));
    fputs("<span style=\"color:#c00;text-decoration:line-through\">eliminated</span>"
          "<span style=\"border:2px solid #1a8f3a\">placed</span></p>\n",
          f);
}

void html_end(FILE *f)
{
    fputs("</body></html>\n", f);
}

/* Centre of digit d's spot in cell c. */
static void cand_xy(int c, int d, double *x, double *y)
{
    *x = MG + (c % 9) * CS + ((d - 1) % 3) * SUB + SUB / 2.0;
    *y = MG + (c / 9) * CS + ((d - 1) / 3) * SUB + SUB / 2.0;
}

/* A chain node "r2c46/-1": its cells' centre and digit. */
static bool parse_node(const msgpack_object *o, double *x, double *y)
{
    if (!o || o->type != MSGPACK_OBJECT_STR) return false;
    char s[64];
    mp_str(o, s, sizeof s);
    const char *p = s;
    int rows[9], cols[9], nr = 0, nc = 0;
    if (*p != 'r') return false;
    for (p++; *p >= '1' && *p <= '9' && nr < 9; p++) rows[nr++] = *p - '1';
    if (*p != 'c') return false;
    for (p++; *p >= '1' && *p <= '9' && nc < 9; p++) cols[nc++] = *p - '1';
    if (!nr || !nc) return false;
    const char *slash = strchr(p, '/');
    int d = 0;
    if (slash) {
        const char *q = slash + 1;
        if (*q == '+' || *q == '-') q++;
        if (*q >= '1' && *q <= '9') d = *q - '0';
    }
    double sx = 0, sy = 0;
    for (int i = 0; i < nr; i++)
        for (int j = 0; j < nc; j++) {
            double cx, cy;
            int cell = rows[i] * 9 + cols[j];
            if (d)
                cand_xy(cell, d, &cx, &cy);
            else
                cx = MG + cols[j] * CS + CS / 2.0, cy = MG + rows[i] * CS + CS / 2.0;
            sx += cx;
            sy += cy;
        }
    *x = sx / (nr * nc);
    *y = sy / (nr * nc);
    return true;
}

/* Draw grid g; step (may be NULL) drawn over it; givens: the puzzle's clues
 * (81 chars or NULL) for telling clues from placed digits. */
static void svg_grid(FILE *f, const sdk_grid *g, const msgpack_object *step)
{
    int W = 9 * CS + 2 * MG;
    /* what the step says about each candidate */
    signed char role[81][10];
    unsigned char elim[81][10], place[81][10];
    memset(role, -1, sizeof role);
    memset(elim, 0, sizeof elim);
    memset(place, 0, sizeof place);
    int cellrole[81];
    for (int i = 0; i < 81; i++) cellrole[i] = -1;
    const msgpack_object *marks = step ? mp_get(step, "marks") : NULL;
    for (size_t i = 0; i < mp_len(marks) && marks->type == MSGPACK_OBJECT_ARRAY; i++) {
        const msgpack_object *m = &marks->via.array.ptr[i];
        const msgpack_object *mc, *md, *mr;
        if (m->type == MSGPACK_OBJECT_ARRAY && m->via.array.size >= 3) {
            mc = &m->via.array.ptr[0], md = &m->via.array.ptr[1], mr = &m->via.array.ptr[2];
        } else if (m->type == MSGPACK_OBJECT_MAP) {
            mc = mp_get(m, "cell"), md = mp_get(m, "digit"), mr = mp_get(m, "role");
        } else
            continue;
        int c = wire_cell(mc);
        long long d = mp_int(md, -1);
        if (c < 0 || d < 0 || d > 9) continue;
        if (d == 0)
            cellrole[c] = wire_role(mr);
        else
            role[c][d] = (signed char)wire_role(mr);
    }
    const char *keys[] = {"placements", "eliminations"};
    for (int k = 0; step && k < 2; k++) {
        const msgpack_object *a = mp_get(step, keys[k]);
        for (size_t i = 0; i < mp_len(a) && a->type == MSGPACK_OBJECT_ARRAY; i++) {
            int c, d;
            bool pl;
            if (!parse_cand(&a->via.array.ptr[i], &c, &d, &pl)) continue;
            if (pl)
                place[c][d] = 1;
            else
                elim[c][d] = 1;
        }
    }
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n",
            W, W, W, W);
    fputs("<defs><marker id=\"arr\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" "
          "markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\" "
          "fill=\"#333\"/></marker></defs>\n",
          f);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", MG, MG,
            9 * CS, 9 * CS);
    /* houses */
    const msgpack_object *houses = step ? mp_get(step, "houses") : NULL;
    for (size_t i = 0; i < mp_len(houses) && houses->type == MSGPACK_OBJECT_ARRAY; i++) {
        const msgpack_object *h = &houses->via.array.ptr[i];
        const msgpack_object *hh, *hr;
        if (h->type == MSGPACK_OBJECT_ARRAY && h->via.array.size >= 2)
            hh = &h->via.array.ptr[0], hr = &h->via.array.ptr[1];
        else if (h->type == MSGPACK_OBJECT_MAP)
            hh = mp_get(h, "house"), hr = mp_get(h, "role");
        else
            continue;
        int house = -1;
        if (hh && hh->type == MSGPACK_OBJECT_POSITIVE_INTEGER && hh->via.u64 < 27)
            house = (int)hh->via.u64;
        else if (hh && hh->type == MSGPACK_OBJECT_STR && hh->via.str.size >= 2) {
            int n = hh->via.str.ptr[1] - '1';
            char t = hh->via.str.ptr[0];
            if (n >= 0 && n < 9) house = t == 'r' ? n : t == 'c' ? 9 + n : t == 'b' ? 18 + n : -1;
        }
        if (house < 0) continue;
        int x, y, w, hgt;
        if (house < 9)
            x = 0, y = house, w = 9, hgt = 1;
        else if (house < 18)
            x = house - 9, y = 0, w = 1, hgt = 9;
        else
            x = (house - 18) % 3 * 3, y = (house - 18) / 3 * 3, w = 3, hgt = 3;
        fprintf(
            f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" opacity=\"0.3\"/>\n",
            MG + x * CS, MG + y * CS, w * CS, hgt * CS, colour(wire_role(hr)));
    }
    for (int c = 0; c < 81; c++)
        if (cellrole[c] >= 0)
            fprintf(f,
                    "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" "
                    "opacity=\"0.55\"/>\n",
                    MG + c % 9 * CS, MG + c / 9 * CS, CS, CS, colour(cellrole[c]));
    /* lines and labels */
    for (int i = 0; i <= 9; i++) {
        int w = i % 3 ? 1 : 3;
        fprintf(
            f,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\" stroke-width=\"%d\"/>\n",
            MG, MG + i * CS, MG + 9 * CS, MG + i * CS, w);
        fprintf(
            f,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\" stroke-width=\"%d\"/>\n",
            MG + i * CS, MG, MG + i * CS, MG + 9 * CS, w);
        if (i < 9) {
            fprintf(f,
                    "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#777\" "
                    "text-anchor=\"middle\">c%d</text>\n",
                    MG + i * CS + CS / 2, MG - 7, i + 1);
            fprintf(f,
                    "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#777\" "
                    "text-anchor=\"middle\">r%d</text>\n",
                    MG / 2, MG + i * CS + CS / 2 + 4, i + 1);
        }
    }
    /* digits and candidates */
    for (int c = 0; c < 81; c++) {
        int x0 = MG + c % 9 * CS, y0 = MG + c / 9 * CS;
        if (g->value[c]) {
            fprintf(f,
                    "<text x=\"%d\" y=\"%d\" font-size=\"30\" text-anchor=\"middle\" "
                    "fill=\"%s\"%s>%d</text>\n",
                    x0 + CS / 2, y0 + CS / 2 + 11, g->given[c] ? "#000" : "#1a5fb4",
                    g->given[c] ? " font-weight=\"bold\"" : "", g->value[c]);
            continue;
        }
        for (int d = 1; d <= 9; d++) {
            bool has = sdk_grid_has(g, c, d);
            if (!has && !place[c][d]) continue;
            double cx, cy;
            cand_xy(c, d, &cx, &cy);
            if (role[c][d] >= 0)
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\"/>\n", cx, cy,
                        SUB / 2, colour(role[c][d]));
            if (place[c][d])
                fprintf(f,
                        "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"none\" stroke=\"#1a8f3a\" "
                        "stroke-width=\"2\"/>\n",
                        cx, cy, SUB / 2);
            const char *fill = elim[c][d] ? "#c00" : place[c][d] ? "#1a8f3a" : "#555";
            fprintf(f,
                    "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\" "
                    "fill=\"%s\"%s>%d</text>\n",
                    cx, cy + 4, fill, place[c][d] || elim[c][d] ? " font-weight=\"bold\"" : "", d);
            if (elim[c][d])
                fprintf(f,
                        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c00\" "
                        "stroke-width=\"2\"/>\n",
                        cx - SUB / 2.0 + 1, cy + SUB / 2.0 - 1, cx + SUB / 2.0 - 1,
                        cy - SUB / 2.0 + 1);
        }
    }
    /* links */
    const msgpack_object *links = step ? mp_get(step, "links") : NULL;
    for (size_t i = 0; i < mp_len(links) && links->type == MSGPACK_OBJECT_ARRAY; i++) {
        const msgpack_object *l = &links->via.array.ptr[i];
        double x1, y1, x2, y2;
        if (!parse_node(mp_get(l, "from"), &x1, &y1) || !parse_node(mp_get(l, "to"), &x2, &y2))
            continue;
        bool strong = mp_bool(mp_get(l, "strong"), false);
        /* stop short of the candidates so that their digits stay readable */
        double len = sqrt((x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1));
        if (len > 4 * SUB / 2.0) {
            double ux = (x2 - x1) / len, uy = (y2 - y1) / len, cut = SUB / 2.0;
            x1 += ux * cut, y1 += uy * cut, x2 -= ux * cut, y2 -= uy * cut;
        }
        /* a gentle curve so that links along one line stay apart */
        double mx = (x1 + x2) / 2, my = (y1 + y2) / 2, dx = x2 - x1, dy = y2 - y1;
        double qx = mx - dy * 0.15, qy = my + dx * 0.15;
        fprintf(f,
                "<path d=\"M%.1f,%.1f Q%.1f,%.1f %.1f,%.1f\" fill=\"none\" stroke=\"#333\" "
                "stroke-width=\"1.5\"%s marker-end=\"url(#arr)\"/>\n",
                x1, y1, qx, qy, x2, y2, strong ? "" : " stroke-dasharray=\"4,3\"");
    }
    fputs("</svg>\n", f);
}

static void puzzle_header(FILE *f, const msgpack_object *r, const char *input, const char *where)
{
    fputs("<section class=\"puzzle\"><h2 class=\"mono\">", f);
    const msgpack_object *p = mp_get(r, "puzzle");
    if (p && p->type == MSGPACK_OBJECT_STR)
        esc_obj(f, p);
    else
        html_escape(f, input, strlen(input));
    fputs("</h2>\n", f);
    if (where && *where) {
        fputs("<p>", f);
        html_escape(f, where, strlen(where));
        fputs("</p>\n", f);
    }
}

void html_failure(FILE *f, const char *input, const char *where, const char *code,
                  const char *message)
{
    puzzle_header(f, NULL, input, where);
    fputs("<p class=\"error\">", f);
    html_escape(f, code, strlen(code));
    fputs(": ", f);
    html_escape(f, message, strlen(message));
    fputs("</p></section>\n", f);
}

static bool grid_of(const char *text, sdk_grid *g)
{
    sdk_error err;
    return text && sdk_parse(text, g, &err);
}

static bool grid_of_obj(const msgpack_object *o, sdk_grid *g)
{
    if (!o || o->type != MSGPACK_OBJECT_STR) return false;
    char *t = strndup(o->via.str.ptr, o->via.str.size);
    bool ok = grid_of(t, g);
    free(t);
    return ok;
}

static void apply_step(sdk_grid *g, const msgpack_object *s)
{
    const char *keys[] = {"placements", "eliminations"};
    for (int k = 0; k < 2; k++) {
        const msgpack_object *a = mp_get(s, keys[k]);
        for (size_t i = 0; i < mp_len(a) && a->type == MSGPACK_OBJECT_ARRAY; i++) {
            int c, d;
            bool pl;
            if (!parse_cand(&a->via.array.ptr[i], &c, &d, &pl)) continue;
            if (pl) {
                if (!g->value[c]) sdk_grid_place(g, c, d, false);
            } else
                sdk_grid_eliminate(g, c, d);
        }
    }
}

static void html_steps(FILE *f, const msgpack_object *steps, sdk_grid *g, bool have, bool advance)
{
    for (size_t i = 0; i < mp_len(steps) && steps->type == MSGPACK_OBJECT_ARRAY; i++) {
        const msgpack_object *s = &steps->via.array.ptr[i];
        fputs("<div class=\"step\"><p>", f);
        fprintf(f, "%zu. ", i + 1);
        const msgpack_object *t = mp_get(s, "text");
        esc_obj(f, t ? t : mp_get(s, "technique"));
        fputs("</p>\n", f);
        if (have) svg_grid(f, g, s);
        fputs("</div>\n", f);
        if (have && advance) apply_step(g, s);
    }
}

static void pack_s(msgpack_packer *pk, const char *s)
{
    size_t l = strlen(s);
    msgpack_pack_str(pk, l);
    msgpack_pack_str_body(pk, s, l);
}

/* A trace result drawn as a step: the assumption and every consequence
 * marked on (+, ringed as a placement) or off (-, struck out). */
static void html_link_trace(FILE *f, const sdk_grid *g, const msgpack_object *r)
{
    const msgpack_object *lines = mp_get(r, "lines");
    const msgpack_object *as = mp_get(r, "assumption");
    size_t n = lines && lines->type == MSGPACK_OBJECT_ARRAY ? lines->via.array.size : 0;
    int *cell = malloc((n + 1) * sizeof *cell), *digit = malloc((n + 1) * sizeof *digit);
    bool *on = malloc((n + 1) * sizeof *on);
    if (!cell || !digit || !on) {
        free(cell), free(digit), free(on);
        return;
    }
    size_t k = 0;
    char buf[64];
    int r1, c1, d1;
    char sign;
    mp_str(as, buf, sizeof buf);
    if (sscanf(buf, "r%1dc%1d=%1d", &r1, &c1, &d1) == 3 ||
        sscanf(buf, "r%1dc%1d<>%1d", &r1, &c1, &d1) == 3) {
        cell[k] = (r1 - 1) * 9 + c1 - 1, digit[k] = d1,
        on[k] = strchr(buf, '=') && !strchr(buf, '<');
        k++;
    }
    size_t nassume = k;
    for (size_t i = 0; i < n; i++) {
        mp_str(&lines->via.array.ptr[i], buf, sizeof buf);
        if (sscanf(buf, "r%1dc%1d/%c%1d", &r1, &c1, &sign, &d1) == 4 && r1 >= 1 && c1 >= 1 &&
            d1 >= 1)
            cell[k] = (r1 - 1) * 9 + c1 - 1, digit[k] = d1, on[k] = sign == '+', k++;
    }
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_pack_map(&pk, 3);
    pack_s(&pk, "marks");
    msgpack_pack_array(&pk, k);
    for (size_t i = 0; i < k; i++) {
        msgpack_pack_array(&pk, 3);
        msgpack_pack_int(&pk, cell[i]);
        msgpack_pack_int(&pk, digit[i]);
        pack_s(&pk, i < nassume ? "target" : on[i] ? "on" : "off");
    }
    size_t np = 0, ne = 0;
    for (size_t i = nassume; i < k; i++) np += on[i], ne += !on[i];
    const char *key[2] = {"placements", "eliminations"};
    for (int w = 0; w < 2; w++) {
        pack_s(&pk, key[w]);
        msgpack_pack_array(&pk, w ? ne : np);
        for (size_t i = nassume; i < k; i++) {
            if (on[i] != (w == 0)) continue;
            snprintf(buf, sizeof buf, "r%dc%d%s%d", cell[i] / 9 + 1, cell[i] % 9 + 1,
                     on[i] ? "=" : "<>", digit[i]);
            pack_s(&pk, buf);
        }
    }
    msgpack_unpacked up;
    msgpack_unpacked_init(&up);
    if (msgpack_unpack_next(&up, sb.data, sb.size, NULL) == MSGPACK_UNPACK_SUCCESS)
        svg_grid(f, g, &up.data);
    msgpack_unpacked_destroy(&up);
    msgpack_sbuffer_destroy(&sb);
    free(cell), free(digit), free(on);
}

void html_puzzle(const render_opts *o, const msgpack_object *r, const char *input,
                 const char *where)
{
    FILE *f = o->out;
    const msgpack_object *err = mp_get(r, "error");
    if (err && err->type != MSGPACK_OBJECT_NIL) {
        char code[64], msg[512];
        puzzle_header(f, r, input, where);
        fputs("<p class=\"error\">", f);
        mp_str(mp_get(err, "code"), code, sizeof code);
        mp_str(mp_get(err, "message"), msg, sizeof msg);
        html_escape(f, code, strlen(code));
        fputs(": ", f);
        html_escape(f, msg, strlen(msg));
        fputs("</p></section>\n", f);
        return;
    }
    puzzle_header(f, r, input, where);
    sdk_grid g;
    bool have = grid_of(input, &g) || grid_of_obj(mp_get(r, "puzzle"), &g);
    const char *cmd = o->cmd;
    if (!strcmp(cmd, "solve")) {
        fputs("<p>status: <b>", f);
        esc_obj(f, mp_get(r, "status"));
        fputs("</b></p>\n", f);
        if (o->logic) html_steps(f, mp_get(r, "steps"), &g, have, true);
        const msgpack_object *sol = mp_get(r, "solution");
        if (have && sol && sol->type == MSGPACK_OBJECT_STR && sol->via.str.size >= 81) {
            sdk_grid s = g;
            for (int c = 0; c < 81; c++) {
                int d = sol->via.str.ptr[c] - '0';
                if (!s.value[c] && d >= 1 && d <= 9) sdk_grid_place(&s, c, d, false);
            }
            svg_grid(f, &s, NULL);
        }
    } else if (!strcmp(cmd, "rate")) {
        fputs("<table class=\"rate\"><tr>", f);
        const char *keys[] = {"er", "ep", "ed", "level", "score", "hardest", "solved", "steps"};
        for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) fprintf(f, "<th>%s</th>", keys[i]);
        fputs("</tr><tr>", f);
        for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
            const msgpack_object *v = mp_get(r, keys[i]);
            fputs("<td>", f);
            if (v && (v->type == MSGPACK_OBJECT_FLOAT32 || v->type == MSGPACK_OBJECT_FLOAT64))
                fprintf(f, "%.1f", v->via.f64);
            else if (v && v->type == MSGPACK_OBJECT_STR)
                esc_obj(f, v);
            else if (v)
                json_write(f, v);
            fputs("</td>", f);
        }
        fputs("</tr></table>\n", f);
        if (have) svg_grid(f, &g, NULL);
    } else if (!strcmp(cmd, "explain") || !strcmp(cmd, "hint")) {
        const msgpack_object *steps = mp_get(r, "steps");
        html_steps(f, steps, &g, have, !strcmp(cmd, "explain"));
        if (!strcmp(cmd, "explain")) {
            bool solved = mp_bool(mp_get(r, "solved"), false);
            fprintf(f, "<p><b>%s after %zu steps</b></p>\n", solved ? "solved" : "stuck",
                    mp_len(steps));
            if (!solved && have) svg_grid(f, &g, NULL);
        } else if (!mp_len(steps))
            fputs("<p>no step found</p>\n", f);
    }
    if (!strcmp(cmd, "trace")) {
        fputs("<p>", f);
        esc_obj(f, mp_get(r, "assumption"));
        fputs(mp_bool(mp_get(r, "contradiction"), false) ? ": <b>contradiction</b></p>\n"
                                                         : "</p>\n",
              f);
        if (have) html_link_trace(f, &g, r);
    }
    if (!strcmp(cmd, "trace") || o->trace) {
        /* the super-link lines, or the backtracking trace, as text */
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        if (m) {
            if (!strcmp(cmd, "trace"))
                render_link_trace(m, r);
            else
                render_backtrack_trace(m, r);
            fclose(m);
            fputs("<pre>", f);
            html_escape(f, buf, len);
            fputs("</pre>\n", f);
            free(buf);
        }
    }
    fputs("</section>\n", f);
}
