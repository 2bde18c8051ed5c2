/* report.h - the interactive HTML report of explain / hint and the sortable
 * table of rate (report.c, report.js). */
#ifndef SUDOCTL_REPORT_H
#define SUDOCTL_REPORT_H

#include "render.h"

bool report_wants(const char *cmd); /* explain, hint, rate */
void report_begin(FILE *f, const char *cmd);
void report_end(FILE *f, const char *cmd);
void report_puzzle(const render_opts *o, const msgpack_object *r, const char *input,
                   const char *where);
void report_failure(const render_opts *o, const char *input, const char *where, const char *code,
                    const char *message);

/* A step's text for people (step_text.c): the technique's name in the
 * reader's language, a chain in Eureka notation, the effect. malloc'd. */
char *step_text_alloc(const msgpack_object *step);

#endif
