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

static const char *const role_colour[SDK_ROLE_COUNT] = {
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
#define NCOL SDK_ROLE_COUNT

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
        fprintf(f, "<span style=\"background:%s\">%s</span>", colour(r), sdk_wire_role_name(r));
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

/* A chain node (1 to 3 cells, as sdk_node_parse reads it): the centre of
 * its candidates. */
static void node_xy(const sdk_node *nd, double *x, double *y)
{
    double sx = 0, sy = 0;
    for (int i = 0; i < nd->ncell; i++) {
        double cx, cy;
        cand_xy(nd->cell[i], nd->digit, &cx, &cy);
        sx += cx;
        sy += cy;
    }
    *x = sx / nd->ncell;
    *y = sy / nd->ncell;
}

/* What a drawing shows on each candidate: a role's colour, a ring when it is
 * placed, a stroke when it is eliminated; and a role for whole cells. */
typedef struct overlay {
    signed char role[81][10]; /* -1: none */
    unsigned char elim[81][10], place[81][10];
    int cellrole[81];
} overlay;

static void overlay_clear(overlay *ov)
{
    memset(ov->role, -1, sizeof ov->role);
    memset(ov->elim, 0, sizeof ov->elim);
    memset(ov->place, 0, sizeof ov->place);
    for (int i = 0; i < 81; i++) ov->cellrole[i] = -1;
}

/* What a step says about each candidate. */
static void overlay_step(overlay *ov, const sdk_step *step)
{
    for (int i = 0; i < step->nmark; i++) {
        const sdk_mark *m = &step->mark[i];
        if (m->digit == 0)
            ov->cellrole[m->cell] = m->role;
        else
            ov->role[m->cell][m->digit] = (signed char)m->role;
    }
    for (int i = 0; i < step->nplace; i++) ov->place[step->place[i].cell][step->place[i].digit] = 1;
    for (int i = 0; i < step->nelim; i++) ov->elim[step->elim[i].cell][step->elim[i].digit] = 1;
}

/* Draw grid g with ov over it, and step's houses and links (step may be NULL). */
static void svg_draw(FILE *f, const sdk_grid *g, const overlay *ov, const sdk_step *step)
{
    int W = 9 * CS + 2 * MG;
    const signed char(*role)[10] = ov->role;
    const unsigned char(*elim)[10] = ov->elim, (*place)[10] = ov->place;
    const int *cellrole = ov->cellrole;
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
    for (int i = 0; step && i < step->nhouse; i++) {
        int house = step->house[i].house;
        int x, y, w, hgt;
        if (house < 9)
            x = 0, y = house, w = 9, hgt = 1;
        else if (house < 18)
            x = house - 9, y = 0, w = 1, hgt = 9;
        else
            x = (house - 18) % 3 * 3, y = (house - 18) / 3 * 3, w = 3, hgt = 3;
        fprintf(
            f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" opacity=\"0.3\"/>\n",
            MG + x * CS, MG + y * CS, w * CS, hgt * CS, colour(step->house[i].role));
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
    for (int i = 0; step && i < step->nlink; i++) {
        const sdk_link *l = &step->link[i];
        double x1, y1, x2, y2;
        node_xy(&l->from, &x1, &y1);
        node_xy(&l->to, &x2, &y2);
        bool strong = l->strong;
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

/* Draw grid g with step (may be NULL) over it. */
static void svg_grid(FILE *f, const sdk_grid *g, const sdk_step *step)
{
    static overlay ov;
    overlay_clear(&ov);
    if (step) overlay_step(&ov, step);
    svg_draw(f, g, &ov, step);
}

static void puzzle_header(FILE *f, const msgpack_object *r, const char *input, const char *where)
{
    fputs("<section class=\"puzzle\"><h2 class=\"mono\">", f);
    const msgpack_object *p = sdk_wire_get(r, "puzzle");
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

static void html_steps(FILE *f, const msgpack_object *steps, sdk_grid *g, bool have, bool advance)
{
    static sdk_wire_step ws;
    for (size_t i = 0; i < sdk_wire_len(steps) && steps->type == MSGPACK_OBJECT_ARRAY; i++) {
        const msgpack_object *s = &steps->via.array.ptr[i];
        fputs("<div class=\"step\"><p>", f);
        fprintf(f, "%zu. ", i + 1);
        const msgpack_object *t = sdk_wire_get(s, "text");
        esc_obj(f, t ? t : sdk_wire_get(s, "technique"));
        fputs("</p>\n", f);
        sdk_error err;
        bool read = have && sdk_wire_unpack_step(s, &ws, &err);
        if (have) svg_grid(f, g, read ? &ws.step : NULL);
        fputs("</div>\n", f);
        if (read && advance) sdk_step_apply(&ws.step, g);
    }
}

/* A trace result drawn as a step: the assumption and every consequence
 * marked on (+, ringed as a placement) or off (-, struck out). */
static void html_link_trace(FILE *f, const sdk_grid *g, const msgpack_object *r)
{
    static overlay ov;
    overlay_clear(&ov);
    char buf[64];
    int r1, c1, d1;
    char sign;
    sdk_wire_text(sdk_wire_get(r, "assumption"), buf, sizeof buf);
    if ((sscanf(buf, "r%1dc%1d=%1d", &r1, &c1, &d1) == 3 ||
         sscanf(buf, "r%1dc%1d<>%1d", &r1, &c1, &d1) == 3) &&
        r1 >= 1 && c1 >= 1 && d1 >= 1)
        ov.role[(r1 - 1) * 9 + c1 - 1][d1] = SDK_ROLE_TARGET;
    const msgpack_object *lines = sdk_wire_get(r, "lines");
    for (size_t i = 0; i < sdk_wire_len(lines) && lines->type == MSGPACK_OBJECT_ARRAY; i++) {
        sdk_wire_text(&lines->via.array.ptr[i], buf, sizeof buf);
        if (sscanf(buf, "r%1dc%1d/%c%1d", &r1, &c1, &sign, &d1) == 4 && r1 >= 1 && c1 >= 1 &&
            d1 >= 1) {
            int cell = (r1 - 1) * 9 + c1 - 1;
            bool on = sign == '+';
            ov.role[cell][d1] = on ? SDK_ROLE_ON : SDK_ROLE_OFF;
            if (on)
                ov.place[cell][d1] = 1;
            else
                ov.elim[cell][d1] = 1;
        }
    }
    svg_draw(f, g, &ov, NULL);
}

void html_puzzle(const render_opts *o, const msgpack_object *r, const char *input,
                 const char *where)
{
    FILE *f = o->out;
    const msgpack_object *err = sdk_wire_get(r, "error");
    if (err && err->type != MSGPACK_OBJECT_NIL) {
        char code[64], msg[512];
        puzzle_header(f, r, input, where);
        fputs("<p class=\"error\">", f);
        sdk_wire_text(sdk_wire_get(err, "code"), code, sizeof code);
        sdk_wire_text(sdk_wire_get(err, "message"), msg, sizeof msg);
        html_escape(f, code, strlen(code));
        fputs(": ", f);
        html_escape(f, msg, strlen(msg));
        fputs("</p></section>\n", f);
        return;
    }
    puzzle_header(f, r, input, where);
    sdk_grid g;
    bool have = grid_of(input, &g) || grid_of_obj(sdk_wire_get(r, "puzzle"), &g);
    const char *cmd = o->cmd;
    if (!strcmp(cmd, "solve")) {
        fputs("<p>status: <b>", f);
        esc_obj(f, sdk_wire_get(r, "status"));
        fputs("</b></p>\n", f);
        if (o->logic) html_steps(f, sdk_wire_get(r, "steps"), &g, have, true);
        const msgpack_object *sol = sdk_wire_get(r, "solution");
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
            const msgpack_object *v = sdk_wire_get(r, keys[i]);
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
        const msgpack_object *steps = sdk_wire_get(r, "steps");
        html_steps(f, steps, &g, have, !strcmp(cmd, "explain"));
        if (!strcmp(cmd, "explain")) {
            bool solved = sdk_wire_bool(sdk_wire_get(r, "solved"), false);
            fprintf(f, "<p><b>%s after %zu steps</b></p>\n", solved ? "solved" : "stuck",
                    sdk_wire_len(steps));
            if (!solved && have) svg_grid(f, &g, NULL);
        } else if (!sdk_wire_len(steps))
            fputs("<p>no step found</p>\n", f);
    }
    if (!strcmp(cmd, "trace")) {
        fputs("<p>", f);
        esc_obj(f, sdk_wire_get(r, "assumption"));
        fputs(sdk_wire_bool(sdk_wire_get(r, "contradiction"), false)
                  ? ": <b>contradiction</b></p>\n"
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
