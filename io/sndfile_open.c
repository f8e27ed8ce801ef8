/* libsndfile keeps the reason a file did not open in one variable of the
 * whole process (sf_error(NULL), sf_strerror(NULL)), which the next open of
 * any thread replaces, a successful one with "No Error.". Programs that open
 * files from several threads (a labelling service) would then be told another
 * file's reason; so an open and the reading of its reason are one step, under
 * one lock. */
#include <pthread.h>
#include <stdio.h>

#include "io/io_internal.h"

static pthread_mutex_t sndfile_open_lock = PTHREAD_MUTEX_INITIALIZER;

void sl_sf_open_begin(int locked)
{
    if (locked)
        pthread_mutex_lock(&sndfile_open_lock);
}

SNDFILE *sl_sf_open_end(SNDFILE *sf, sl_sf_failure *failed, int locked)
{
    if (!sf) {
        failed->code = sf_error(NULL);
        snprintf(failed->why, sizeof failed->why, "%s", sf_strerror(NULL));
    }
    if (locked)
        pthread_mutex_unlock(&sndfile_open_lock);
    return sf;
}
