/* `seqlabel label --jobs N`: inputs labelled N at a time, each worker a process
 * of its own (so every worker has its own labeler, encoder threads and
 * temporary-file cleanup, and the model's pages are shared copy-on-write). */
#ifndef SL_JOBS_H
#define SL_JOBS_H

/* The most workers cli_jobs_run starts, whatever it is asked. */
#define CLI_JOBS_MAX 256

typedef struct {
    void *user;
    /* In each worker before its first item: 0, or non-zero (said) to stop it. */
    int (*start)(void *user);
    /* Item i: 0, or 1 on an error (said; the other items go on). */
    int (*run)(void *user, int i);
    void (*stop)(void *user);
    /* In this process, NULL or: item i's result handed on (0, or 1 to stop:
     * the workers are ended by SIGTERM and no item is taken after), in item
     * order, as soon as item i and every item before it have ended. */
    int (*emit)(void *user, int i);
    /* In this process, NULL or: called once every worker is gone (or none
     * could be set up), before cli_jobs_run returns or ends this process by a
     * worker's signal. */
    void (*finish)(void *user);
    /* In this process, NULL or: item i's worker (process pid; 0: unknown, the
     * item taken but not begun) was ended by signal sig, not one this command
     * was sent (a crash, the OOM killer, a kill of that process alone), before
     * the item was: say so naming the item, and remove what the worker left
     * of it. */
    void (*lost)(void *user, int i, long pid, int sig);
} cli_jobs;

/* Runs items 0..n-1, each once, in `workers` processes that take the next item
 * when one is done. Ctrl-C reaches the workers from the terminal (ending them,
 * or their live inputs); after it no worker takes another item, nor after a
 * SIGINT sent to this process alone. SIGTERM and SIGHUP sent to this process
 * are passed on to the workers, and a worker whose parent dies (this process
 * killed outright) gets SIGTERM. Returns the command's exit status: 0, 1 when
 * an item failed, 130 when items were left by an interruption; a worker ended
 * by SIGINT, SIGTERM or SIGHUP that this process got too (a stop asked) ends
 * this process by it, once every worker is gone (unless emit stopped them);
 * one ended by any other signal, or by those sent to it alone, fails its item
 * (lost) and the others take the items left. `progress`: a count on standard
 * error. */
int cli_jobs_run(const cli_jobs *jobs, int n, int workers, int progress);

#endif
