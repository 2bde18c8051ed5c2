/* render.h - sudoctl's output: human text, JSON lines, an HTML page. */
#ifndef SUDOCTL_RENDER_H
#define SUDOCTL_RENDER_H

#include <stdbool.h>
#include <stdio.h>
#include <msgpack.h>

#include "sudoku/wire.h"

enum { OUT_TEXT = 0, OUT_JSON, OUT_HTML, OUT_LINES, OUT_CSV, OUT_FORMAT };

typedef struct render_opts {
    FILE *out;
    int mode;         /* OUT_* */
    const char *cmd;  /* solve, rate, explain, hint, trace */
    bool grid;        /* explain, hint: candidate grid before each step */
    bool pencil;      /* that grid as one pencilmark line per row (readable back) */
    int color;        /* COLOR_AUTO / ALWAYS / NEVER (grid_text.h) */
    int share;        /* explain: SHARE_FORUM / SHARE_HODOKU text (share_text.h) */
    bool trace;       /* explain: the backtracking trace */
    bool logic;       /* solve: by techniques */
    bool trace_links; /* each step's chains as consequence lines */
    bool gnpx;        /* those lines as GNPX writes them (SDK_TRACE_GNPX) */
    bool big;         /* print grids rather than lines (puzzles from arguments) */
    bool headers;     /* several puzzles: a header line before each (explain, hint) */

    /* OUT_FORMAT (outfmt.c): serate's conversions; the daemon and profile to
     * ask for technique names */
    const char *format;
    const char *socket, *profile;
} render_opts;

void render_begin(const render_opts *o);
void render_end(const render_opts *o);

/* One per-puzzle result (a map; a failure has `error`). input: the puzzle
 * text as read; where: "file:line" or "argument 2" for messages. Returns false
 * when the puzzle failed (invalid, unsolvable, ...). */
bool render_puzzle(const render_opts *o, const msgpack_object *r, const char *input,
                   const char *where);
/* solve's compact answers (rpc_msg.solutions: [solution, guesses] standing
 * for a unique solution's map): does this output print them as they are
 * (JSON lines)? Then render_compact_line writes the line of one into b (at
 * most RENDER_COMPACT_MAX bytes, no NUL), its puzzle the 81 characters as
 * sent (input, not NUL-terminated): what render_puzzle prints for the same
 * answer, without building it; the length. */
#define RENDER_COMPACT_MAX 256
bool render_takes_compact(const render_opts *o);
size_t render_compact_line(char *b, const char *input, const char *solution, uint64_t guesses);

/* A puzzle whose request failed as a whole (code/message from the daemon). */
void render_failure(const render_opts *o, const char *input, const char *where, const char *code,
                    const char *message);

/* Whole-result commands. */
void render_techniques(const render_opts *o, const msgpack_object *r);
void render_status(const render_opts *o, const msgpack_object *r);
void render_reload(const render_opts *o, const msgpack_object *r);

/* The backtracking trace of an explain result, and the super-link lines of a
 * trace result, as text (traces.c). */
void render_backtrack_trace(FILE *f, const msgpack_object *r);
void render_link_trace(FILE *f, const msgpack_object *r);

/* JSON of any msgpack object, of a string, of a number (fmt; null when not
 * finite) (json.c). */
void json_write(FILE *f, const msgpack_object *o);
void json_string(FILE *f, const char *s, size_t n);
/* Does s need no escape in a JSON string? */
bool json_plain(const char *s, size_t n);
void json_double(FILE *f, double v, const char *fmt);

/* 81-character lines, CSV, serate's --format (outfmt.c). outfmt_check says
 * why a format is bad; outfmt_wants whether it uses one of convs. */
bool outfmt_check(const char *fmt, char *why, size_t n);
bool outfmt_wants(const char *fmt, const char *convs);
void outfmt_begin(const render_opts *o);
bool outfmt_puzzle(const render_opts *o, const msgpack_object *r, const char *input,
                   const char *where);
void outfmt_failure(const render_opts *o, const char *input, const char *where, const char *code,
                    const char *message);

/* The HTML page (html.c). */
void html_begin(FILE *f, const char *title);
void html_end(FILE *f);
void html_puzzle(const render_opts *o, const msgpack_object *r, const char *input,
                 const char *where);
void html_failure(FILE *f, const char *input, const char *where, const char *code,
                  const char *message);
void html_escape(FILE *f, const char *s, size_t n);

#endif
