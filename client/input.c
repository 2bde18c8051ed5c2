/* input.c - sudoctl's puzzles, one at a time, from the arguments and then
 * the files (input.h). The files are read through the core's sdk_reader, so
 * sudoctl reads every format the daemon does, and a file is opened only when
 * its turn comes: a batch of millions of puzzles is read in constant memory,
 * as the batch pipeline asks for more (a regular file in big blocks, split
 * into lines in place by the reader). */
#include "input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rpc.h"

static double file_size(const char *name)
{
    struct stat st;
    if (!strcmp(name, "-")) {
        if (fstat(0, &st) == 0 && S_ISREG(st.st_mode)) return (double)st.st_size;
        return 0;
    }
    if (stat(name, &st) == 0 && S_ISREG(st.st_mode)) return (double)st.st_size;
    return 0;
}

void input_init(input *in, const char *prog, char **args, int nargs, const char **files, int nfiles)
{
    memset(in, 0, sizeof *in);
    in->prog = prog;
    in->args = args;
    in->nargs = nargs;
    in->files = files;
    in->nfiles = nfiles;
    for (int i = 0; i < nfiles; i++) in->total_bytes += file_size(files[i]);
}

double input_pos(const input *in)
{
    double p = in->done_bytes;
    if (in->cur) {
        long t = ftell(in->cur);
        if (t > 0) p += (double)t;
    }
    return p;
}

/* "NAME:LINE" into where (n bytes), as snprintf would write it: this runs
 * for every puzzle of a file, snprintf costs more than the rest of it. */
static void where_line(char *where, size_t n, const char *name, long line)
{
    char digits[24], *e = digits + sizeof digits, *q = e;
    unsigned long v = line < 0 ? 0 : (unsigned long)line;
    do *--q = (char)('0' + v % 10);
    while (v /= 10);
    size_t nl = strlen(name), dl = (size_t)(e - q);
    if (!n) return;
    if (nl + 1 + dl >= n || line < 0) { /* rare: the general way */
        snprintf(where, n, "%s:%ld", name, line);
        return;
    }
    memcpy(where, name, nl);
    where[nl] = ':';
    memcpy(where + nl + 1, q, dl);
    where[nl + 1 + dl] = 0;
}

int input_next(input *in, const char **text, size_t *len, char *where, size_t n)
{
    if (in->argi < in->nargs) {
        *text = in->args[in->argi];
        *len = strlen(*text);
        if (where) snprintf(where, n, "argument %d", in->argi + 1);
        in->argi++;
        return 1;
    }
    for (;;) {
        if (!in->cur) {
            if (in->filei >= in->nfiles) return 0;
            in->curname = in->files[in->filei++];
            if (!strcmp(in->curname, "-"))
                in->cur = stdin;
            else
                in->cur = fopen(in->curname, "r");
            if (!in->cur) {
                fprintf(stderr, "%s: %s: %s\n", in->prog, in->curname, strerror(errno));
                in->failed = true;
                continue;
            }
            sdk_reader_init(&in->rd, in->cur);
            in->reader_open = true;
        }
        const char *t;
        long line;
        int r = sdk_reader_next(&in->rd, &t, &line);
        if (r == 1) {
            *text = t;
            *len = in->rd.len;
            if (where)
                where_line(where, n, !strcmp(in->curname, "-") ? "stdin" : in->curname, line);
            return 1;
        }
        if (r < 0 && !rpc_interrupted) {
            fprintf(stderr, "%s: %s: read error: %s\n", in->prog, in->curname, strerror(errno));
            in->failed = true;
        }
        in->done_bytes += file_size(in->curname);
        sdk_reader_free(&in->rd);
        in->reader_open = false;
        if (in->cur != stdin) fclose(in->cur);
        in->cur = NULL;
    }
}

void input_free(input *in)
{
    if (in->reader_open) sdk_reader_free(&in->rd);
    if (in->cur && in->cur != stdin) fclose(in->cur);
    in->cur = NULL;
}

long input_count(int nargs, const char **files, int nfiles)
{
    long n = nargs;
    for (int i = 0; i < nfiles; i++) {
        struct stat st;
        bool in = !strcmp(files[i], "-"); /* `< file`: read it through its own opening */
        if ((in ? fstat(0, &st) : stat(files[i], &st)) != 0 || !S_ISREG(st.st_mode)) return -1;
        FILE *f = fopen(in ? "/proc/self/fd/0" : files[i], "r");
        if (!f) return -1;
        sdk_reader rd;
        sdk_reader_init(&rd, f);
        const char *t;
        long line;
        while (sdk_reader_next(&rd, &t, &line) == 1) n++;
        sdk_reader_free(&rd);
        fclose(f);
    }
    return n;
}
