/* alloc.c - allocation that aborts on failure (see sudoku/alloc.h). */
#include "sudoku/alloc.h"

#include <stdio.h>
#include <stdlib.h>

static void out_of_memory(size_t n)
{
    fprintf(stderr, "sudoku: out of memory allocating %zu bytes\n", n);
    abort();
}

void *sdk_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) out_of_memory(n);
    return p;
}

void *sdk_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) out_of_memory(count * size);
    return p;
}

void *sdk_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) out_of_memory(n);
    return q;
}
