/* input.h - where sudoctl's puzzles come from: the command line's arguments
 * first, then each file in turn ("-" is stdin), one puzzle at a time in
 * every format the core reads (lib/format.c's sdk_reader: 81-character
 * lines, printed and candidate grids, HoDoKu library lines, .sdk files).
 * Each puzzle comes with where it was found ("argument 2", "file:17",
 * "stdin:3") for the messages and headers. A file that cannot be opened or
 * read is reported and skipped (input.failed), the next one is read. */
#ifndef SUDOCTL_INPUT_H
#define SUDOCTL_INPUT_H

#include <stdbool.h>
#include <stdio.h>
#include "sudoku/format.h"

typedef struct input {
    const char *prog; /* for the messages */
    char **args;
    int nargs, argi;
    const char **files;
    int nfiles, filei;
    FILE *cur;
    const char *curname;
    bool reader_open;
    sdk_reader rd;
    double done_bytes; /* sizes of the files already read */
    double total_bytes;
    bool failed; /* a file could not be opened or read */
} input;

void input_init(input *in, const char *prog, char **args, int nargs, const char **files,
                int nfiles);
/* Next puzzle: 1 with *text (valid until the next call), its length *len
 * (strlen's) and where (unless
 * where is NULL: not wanted), 0 at the end (a file that cannot be read is
 * reported on stderr, then the next file is read). */
int input_next(input *in, const char **text, size_t *len, char *where, size_t n);
/* Bytes of the files read so far (for the progress bar's ETA). */
double input_pos(const input *in);
void input_free(input *in);

/* Puzzles in the input, for a true percentage: the arguments plus what the
 * files hold when they all are regular files (read once more); -1 when
 * unknown (a pipe). */
long input_count(int nargs, const char **files, int nfiles);

#endif
