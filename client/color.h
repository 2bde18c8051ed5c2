/* color.h - sudoctl's colour: whether to use it, and ANSI SGR helpers.
 *
 * The decision is made once (color_setup) from --color=auto|always|never,
 * NO_COLOR (https://no-color.org: set and not empty means no colour unless
 * asked for with --color=always), TERM=dumb and whether stdout is a terminal.
 * Every renderer then asks color_on() or uses the helpers, which write
 * nothing extra when colour is off, so plain and coloured output are the
 * same text. */
#ifndef SUDOCTL_COLOR_H
#define SUDOCTL_COLOR_H

#include <stdbool.h>
#include <stdio.h>

typedef enum color_when { COLOR_AUTO = 0, COLOR_ALWAYS, COLOR_NEVER } color_when;

typedef enum color_style {
    STYLE_NONE = 0,
    STYLE_BOLD,
    STYLE_DIM,
    STYLE_RED,    /* failures, "not solved", eliminations */
    STYLE_GREEN,  /* solved, placements */
    STYLE_YELLOW, /* warnings, the hardest technique */
    STYLE_BLUE,
    STYLE_MAGENTA,
    STYLE_CYAN, /* technique names */
    STYLE_COUNT
} color_style;

/* Parse "auto", "always", "never" (also "yes"/"no"/"tty" like GNU ls).
 * False when s is none of them. */
bool color_parse(const char *s, color_when *out);
/* Decide for output on fd (1: stdout). Returns the decision. */
bool color_setup(color_when when, int fd);
bool color_on(void);

/* The escape sequence that starts a style, and the reset; "" when colour is
 * off. */
const char *color_start(color_style s);
const char *color_reset(void);
/* Write text in a style (n bytes, or up to the NUL when n < 0). */
void color_fputs(FILE *f, color_style s, const char *text);
void color_fwrite(FILE *f, color_style s, const char *text, size_t n);
void color_fprintf(FILE *f, color_style s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
