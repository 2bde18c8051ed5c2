/* sudoku/alloc.h - one out-of-memory policy: abort.
 *
 * Everything in libsudoku and the plugins allocates through these. A grid
 * search that runs out of memory cannot give a sound partial answer, and a
 * failure path per malloc that is never taken is untested code; so running
 * out of memory prints what was asked for and aborts the process. In
 * sudokud that process is a worker: the daemon sees it die, answers the
 * request with an error and starts another worker.
 */
#ifndef SUDOKU_ALLOC_H
#define SUDOKU_ALLOC_H

#include <stddef.h>
#include "sudoku/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* malloc / calloc / realloc that never return NULL (a size of 0 is 1). */
SDK_API void *sdk_xmalloc(size_t n) __attribute__((malloc, returns_nonnull));
SDK_API void *sdk_xcalloc(size_t count, size_t size) __attribute__((malloc, returns_nonnull));
SDK_API void *sdk_xrealloc(void *p, size_t n) __attribute__((returns_nonnull));

#ifdef __cplusplus
}
#endif
#endif
