/* thread_cache.h - one thread's cache block on the heap (inside lib/).
 *
 * Several pattern helpers keep a block of work per thread (answers kept,
 * link graphs of the last positions, recorded propagations), too big for
 * static thread-local storage. Such a block must go when its thread ends
 * (a pthread key's destructor) and when the host releases the caches
 * between requests (sudoku/cache.h). A file keeps its own thread-local
 * pointer (read once per call: in a shared library each read costs a call
 * to __tls_get_addr) and one thread_cache describing the block:
 *
 *     static void memo_release(void);
 *     static thread_cache tc = {.destroy = memo_free, .release = memo_release};
 *     static _Thread_local prop_memo *mine;
 *
 *     static void memo_release(void)      // sudoku/cache.h's release
 *     {
 *         thread_cache_drop(&tc, mine);
 *         mine = NULL;
 *     }
 *     ...
 *     if (!mine) mine = thread_cache_new(&tc, sizeof *mine);
 */
#ifndef SUDOKU_THREAD_CACHE_H
#define SUDOKU_THREAD_CACHE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include "sudoku/cache.h"

typedef struct thread_cache {
    void (*destroy)(void *block); /* frees one thread's block and what it holds */
    sdk_cache_release_fn release; /* the file's release (drops the calling thread's) */
    pthread_key_t key;            /* made by the first thread_cache_new */
    bool keyed;
} thread_cache;

/* A zeroed block of size bytes for the calling thread, destroyed when the
 * thread ends; tc->release is registered with the host (sudoku/cache.h). */
void *thread_cache_new(thread_cache *tc, size_t size);

/* Destroy the calling thread's block (NULL: nothing) before its thread ends. */
void thread_cache_drop(thread_cache *tc, void *block);

#endif
