/* cache.c - the registry of caches a host can ask to free (sudoku/cache.h).
 *
 * A short list of release functions, one per kind of cache, shared by all
 * threads (a lock around it: registering is rare, releasing is between
 * requests); each function frees the calling thread's cache of its kind.
 * The functions are kept, not the caches: a thread with nothing cached
 * makes each call a no-op. Below, the per-thread block most caches in
 * lib/ are made of (thread_cache.h). */
#include <dlfcn.h>
#include <pthread.h>
#include "sudoku/alloc.h"
#include "sudoku/cache.h"
#include "thread_cache.h"

#define CACHE_KINDS 64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static sdk_cache_release_fn kinds[CACHE_KINDS];
static int nkinds;

void sdk_cache_register(sdk_cache_release_fn release)
{
    pthread_mutex_lock(&lock);
    int i = 0;
    while (i < nkinds && kinds[i] != release) i++;
    if (i == nkinds && nkinds < CACHE_KINDS) kinds[nkinds++] = release;
    pthread_mutex_unlock(&lock);
}

void sdk_cache_release_all(void)
{
    /* copied first: a release function may register again (harmless) */
    sdk_cache_release_fn now[CACHE_KINDS];
    pthread_mutex_lock(&lock);
    int n = nkinds;
    for (int i = 0; i < n; i++) now[i] = kinds[i];
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < n; i++) now[i]();
}

/* The base address of the loaded object that holds p (NULL: none). */
static const void *module_of(const void *p)
{
    Dl_info info;
    return dladdr(p, &info) ? info.dli_fbase : NULL;
}

void sdk_cache_forget_module(const void *addr)
{
    const void *base = module_of(addr);
    if (!base) return;
    pthread_mutex_lock(&lock);
    int kept = 0;
    for (int i = 0; i < nkinds; i++) {
        union {
            sdk_cache_release_fn fn;
            const void *p;
        } u = {kinds[i]};
        if (module_of(u.p) != base) kinds[kept++] = kinds[i];
    }
    nkinds = kept;
    pthread_mutex_unlock(&lock);
}

/* ---- one thread's cache block (thread_cache.h) ---------------------------- */

void *thread_cache_new(thread_cache *tc, size_t size)
{
    pthread_mutex_lock(&lock); /* the key is made once, by whichever thread comes first */
    if (!tc->keyed) {
        pthread_key_create(&tc->key, tc->destroy);
        tc->keyed = true;
    }
    pthread_mutex_unlock(&lock);
    void *block = sdk_xcalloc(1, size);
    pthread_setspecific(tc->key, block);
    sdk_cache_register(tc->release);
    return block;
}

void thread_cache_drop(thread_cache *tc, void *block)
{
    if (!block) return;
    pthread_setspecific(tc->key, NULL); /* its thread's end has nothing more to free */
    tc->destroy(block);
}
