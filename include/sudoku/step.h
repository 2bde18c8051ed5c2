/* sudoku/step.h - the step record: what one technique found once.
 *
 * A step carries the technique, its difficulty, the placements and the
 * eliminations it proves, and enough structure to explain itself: the cells and
 * candidates of the pattern with their roles, the houses (base and cover sets),
 * the chain links when there are any, and one line of text in the notation
 * players use (HoDoKu / Eureka style). The engine applies steps, the rater reads
 * their difficulties, the explainer and the renderers read the structure.
 *
 * Plugins fill a step with the sdk_step_* helpers and hand it to the sink with
 * sdk_emit(), which appends " => r3c2,r4c2<>7" (or "=> r1c2=5") to the text.
 */
#ifndef SUDOKU_STEP_H
#define SUDOKU_STEP_H

#include <stdarg.h>
#include "sudoku/grid.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sdk_technique;

/* One candidate: digit in cell. */
typedef struct sdk_cand {
    uint8_t cell, digit;
} sdk_cand;

/* Roles of pattern cells/candidates and houses. */
typedef enum sdk_role {
    SDK_ROLE_NONE = 0,
    SDK_ROLE_BASE,    /* base set / defining candidate of the pattern */
    SDK_ROLE_COVER,   /* cover set */
    SDK_ROLE_FIN,     /* fin of a finned fish */
    SDK_ROLE_ENDOFIN, /* endo fin */
    SDK_ROLE_PIVOT,   /* pivot (wings), hinge */
    SDK_ROLE_PINCER,  /* pincer / wing cell */
    SDK_ROLE_ON,      /* chain node assumed or proved true (colour A) */
    SDK_ROLE_OFF,     /* chain node false (colour B) */
    SDK_ROLE_ALS,     /* member of an almost locked set */
    SDK_ROLE_TARGET,  /* the cell/candidate the step acts on */
    SDK_ROLE_COUNT
} sdk_role;

/* A marked candidate (digit 1..9) or a whole cell (digit 0) with its role. */
typedef struct sdk_mark {
    uint8_t cell, digit, role;
} sdk_mark;

/* A marked house (0..26) with its role (base or cover). */
typedef struct sdk_house_mark {
    uint8_t house, role;
} sdk_house_mark;

/* A chain node: digit in one cell, or in a group of up to 3 cells of one box
 * segment; `on` says whether the node is true (+) or false (-) at this point. */
typedef struct sdk_node {
    uint8_t digit, on, ncell;
    uint8_t cell[3];
} sdk_node;

typedef enum sdk_link_kind {
    SDK_LINK_CELL = 0, /* two candidates of one cell */
    SDK_LINK_HOUSE,    /* one digit in two cells of a house */
    SDK_LINK_GROUP,    /* one digit, at least one end a group node */
    SDK_LINK_ALS,      /* through an almost locked set */
} sdk_link_kind;

/* A link of a chain: from -> to, strong (S) or weak (W), and for ALS links the
 * cells of the set it runs through. */
typedef struct sdk_link {
    sdk_node from, to;
    uint8_t strong, kind, nals;
    uint8_t als[9];
} sdk_link;

#define SDK_STEP_MAX_PLACE 81
#define SDK_STEP_MAX_ELIM 243
#define SDK_STEP_MAX_MARK 160
#define SDK_STEP_MAX_HOUSE 24
#define SDK_STEP_MAX_LINK 128
#define SDK_STEP_TEXT 1024
#define SDK_STEP_MAX_INNER 64
#define SDK_STEP_MAX_CLAIM 9
#define SDK_STEP_INNER_TEXT 4096
#define SDK_INNER_MAX_EFFECT 12

/* An inner step: one step the engine applied inside a nested step's
 * propagation (ctx->propagate), kept compact: its technique, its effect
 * (placements first, then eliminations; `truncated` when it did more) and its
 * text, at offset `text` of the outer step's inner_text. */
typedef struct sdk_inner {
    const struct sdk_technique *tech;
    uint16_t text;
    uint8_t nplace, nelim, truncated;
    sdk_cand effect[SDK_INNER_MAX_EFFECT];
} sdk_inner;

/* Why a nested step's branch breaks, candidate by candidate: the candidate
 * the contradiction needs gone (place=0) or placed (place=1), and the inner
 * steps that remove (place) it, as a bit set over inner[] (bit i: inner[i]):
 * applied in order to the branch's position, they do it. */
typedef struct sdk_claim {
    sdk_cand cand;
    uint8_t place;
    uint64_t steps;
} sdk_claim;

typedef struct sdk_step {
    const struct sdk_technique *tech; /* who found it */
    int difficulty;                   /* SE scale in tenths: 23 = 2.3 */
    uint16_t nplace, nelim, nmark, nlink;
    uint8_t nhouse;
    uint8_t truncated;  /* structure did not fit (the proof still holds) */
    uint8_t text_final; /* the text already says what the step does */
    sdk_cand place[SDK_STEP_MAX_PLACE];
    sdk_cand elim[SDK_STEP_MAX_ELIM];
    sdk_mark mark[SDK_STEP_MAX_MARK];
    sdk_house_mark house[SDK_STEP_MAX_HOUSE];
    sdk_link link[SDK_STEP_MAX_LINK];
    char text[SDK_STEP_TEXT];
    /* nested steps (ABI 3): the inner steps behind the branch's contradiction
     * and the candidates they remove; zero elsewhere */
    uint8_t ninner, nclaim;
    uint16_t inner_text_len;
    sdk_claim claim[SDK_STEP_MAX_CLAIM];
    sdk_inner inner[SDK_STEP_MAX_INNER];
    char inner_text[SDK_STEP_INNER_TEXT];
} sdk_step;

/* Start a step for technique t (difficulty = t's default, text empty). */
SDK_API void sdk_step_init(sdk_step *s, const struct sdk_technique *t);
/* Add an elimination / placement (duplicates are ignored). */
SDK_API void sdk_step_elim(sdk_step *s, int cell, int digit);
SDK_API void sdk_step_place(sdk_step *s, int cell, int digit);
/* Eliminate digit from every cell of cells where the grid still has it;
 * returns how many were added. */
SDK_API int sdk_step_elim_bb(sdk_step *s, const sdk_grid *g, sdk_bb cells, int digit);
SDK_API void sdk_step_mark(sdk_step *s, int cell, int digit, sdk_role role);
SDK_API void sdk_step_mark_bb(sdk_step *s, sdk_bb cells, int digit, sdk_role role);
SDK_API void sdk_step_house(sdk_step *s, int house, sdk_role role);
SDK_API void sdk_step_link(sdk_step *s, const sdk_link *l);
/* Append to the step's text, printf style. */
SDK_API void sdk_step_printf(sdk_step *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
SDK_API void sdk_step_vprintf(sdk_step *s, const char *fmt, va_list ap);
SDK_API bool sdk_step_empty(const sdk_step *s); /* neither places nor eliminates */
/* Copy step s into d: what s uses only, so cheaper than *d = *s (a sink
 * that keeps steps). */
SDK_API void sdk_step_copy(sdk_step *d, const sdk_step *s);
/* Append inner as an inner step of s (its technique, effect and text);
 * returns its index, or -1 (s marked truncated) when it does not fit. */
SDK_API int sdk_step_inner(sdk_step *s, const sdk_step *inner);
/* Append a claim: cand removed (place: placed) by the inner steps in `steps`. */
SDK_API void sdk_step_claim(sdk_step *s, int cell, int digit, bool place, uint64_t steps);
/* The text of inner step i of s. */
SDK_API const char *sdk_step_inner_text(const sdk_step *s, int i);

/* "r3c2,r4c2<>7, r5c1<>3" / "r1c2=5": the effect in HoDoKu notation,
 * eliminations grouped by digit. Returns buf. */
SDK_API char *sdk_step_effect(const sdk_step *s, char *buf, size_t n);
/* "r25c4" style compact list of a set of cells (HoDoKu's notation). */
SDK_API char *sdk_cells_compact(sdk_bb cells, char *buf, size_t n);
/* "r2c2", "r2c46" for a node's cells. */
SDK_API char *sdk_node_cells(const sdk_node *nd, char *buf, size_t n);

/* ---- the sink: where find() sends its steps ---------------------------- */

enum { SDK_CONTINUE = 0, SDK_STOP = 1 };

typedef struct sdk_sink {
    /* Return SDK_STOP to end the search (first-step mode), else SDK_CONTINUE. */
    int (*emit)(void *ctx, const sdk_step *s);
    void *ctx;
} sdk_sink;

/* Finish the text (append " => effect") and hand the step to the sink.
 * A step that neither places nor eliminates is dropped. Returns what the sink
 * returned (SDK_STOP means: stop searching and return SDK_STOP). */
SDK_API int sdk_emit(sdk_sink *sink, sdk_step *s);

/* Apply a step to a grid (placements, then eliminations). */
SDK_API void sdk_step_apply(const sdk_step *s, sdk_grid *g);

#ifdef __cplusplus
}
#endif
#endif
