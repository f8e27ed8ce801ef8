/* Workers in processes for `seqlabel label --jobs N` (tools/jobs.h). They share
 * one page: the next item to take and whether Ctrl-C stopped one of them; each
 * takes the next item when it is free, so long and short files even out, and
 * writes the item's number into a pipe when it has ended, from which this
 * process counts them and hands their results on in item order. */
#include "tools/jobs.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/cli.h"

#define MAX_WORKERS 256

typedef struct {
    atomic_int next, interrupted;
} shared_state;

static pid_t workers_pid[MAX_WORKERS];
static int n_workers;
static shared_state *shared;

/* SIGTERM and SIGHUP sent to this process go on to the workers (they end
 * them, removing their temporary files). SIGINT does not: Ctrl-C reaches the
 * workers from the terminal already, and a second one would end a live input's
 * labelling instead of the input; here it only stops new inputs being taken
 * (a SIGINT sent to this process alone lets the workers finish theirs). */
static void pass_on(int sig)
{
    if (sig == SIGINT) {
        atomic_store(&shared->interrupted, 1);
        return;
    }
    for (int w = 0; w < n_workers; w++)
        if (workers_pid[w] > 0)
            kill(workers_pid[w], sig);
}

static int worker(const cli_jobs *jobs, shared_state *s, int n, int ended_fd)
{
    if (jobs->start(jobs->user) != 0)
        return 1; /* the other workers take the items */
    int rc = 0;
    while (!atomic_load(&s->interrupted)) {
        int i = atomic_fetch_add(&s->next, 1);
        if (i >= n)
            break;
        rc |= jobs->run(jobs->user, i);
        /* a write of a few bytes into a pipe is whole, whatever the others write */
        while (write(ended_fd, &i, sizeof i) < 0 && errno == EINTR)
            ;
        if (cli_input_interrupted()) /* Ctrl-C ended live input: no more items */
            atomic_store(&s->interrupted, 1);
    }
    jobs->stop(jobs->user);
    return rc;
}

int cli_jobs_run(const cli_jobs *jobs, int n, int workers, int progress)
{
    if (workers > MAX_WORKERS)
        workers = MAX_WORKERS;
    if (workers > n)
        workers = n;
    shared_state *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (s == MAP_FAILED)
        return cli_error("--jobs: cannot share memory between workers: %s", strerror(errno));
    atomic_init(&s->next, 0);
    atomic_init(&s->interrupted, 0);
    shared = s;
    int ended_pipe[2];
    unsigned char *ended = calloc((size_t)n, 1);
    if (!ended || pipe(ended_pipe) != 0) {
        free(ended);
        munmap(s, sizeof *s);
        return cli_error("--jobs: cannot set up the workers: %s", ended ? strerror(errno) : "out of memory");
    }

    /* signals wait until every worker's pid is known */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, &old);
    struct sigaction sa = {.sa_handler = pass_on, .sa_flags = SA_RESTART}, prev[3];
    const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
    for (int k = 0; k < 3; k++) {
        sigaction(sigs[k], NULL, &prev[k]);
        if (prev[k].sa_handler != SIG_IGN) /* nohup stays nohup */
            sigaction(sigs[k], &sa, NULL);
    }
    fflush(NULL); /* nothing buffered is written twice */
    n_workers = 0;
    for (int w = 0; w < workers; w++) {
        pid_t pid = fork();
        if (pid == 0) {
            for (int k = 0; k < 3; k++)
                sigaction(sigs[k], &prev[k], NULL);
            sigprocmask(SIG_SETMASK, &old, NULL);
            close(ended_pipe[0]);
            free(ended); /* this process's: a worker never reads it */
            int wrc = worker(jobs, s, n, ended_pipe[1]);
            fflush(NULL);
            _exit(wrc);
        }
        if (pid < 0) {
            cli_error("--jobs: cannot start worker %d: %s%s", w + 1, strerror(errno),
                      n_workers ? " (the others take its inputs)" : "");
            break;
        }
        workers_pid[n_workers++] = pid;
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    int rc = n_workers ? 0 : 1;

    close(ended_pipe[1]);

    /* the items as they end, until every worker has closed the pipe */
    int done = 0, next_emit = 0, emit_stopped = 0, i;
    for (;;) {
        ssize_t got = read(ended_pipe[0], &i, sizeof i);
        if (got < 0 && errno == EINTR)
            continue;
        if (got != (ssize_t)sizeof i || i < 0 || i >= n)
            break;
        ended[i] = 1;
        done++;
        if (progress)
            fprintf(stderr, "\r%d of %d inputs labelled", done, n);
        for (; next_emit < n && ended[next_emit] && !emit_stopped; next_emit++)
            if (jobs->emit && jobs->emit(jobs->user, next_emit) != 0) {
                emit_stopped = 1;
                atomic_store(&s->interrupted, 1);
                pass_on(SIGTERM);
            }
    }
    close(ended_pipe[0]);
    free(ended);

    int alive = n_workers, fatal = 0;
    while (alive > 0) {
        int st;
        pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0 && errno == EINTR)
            continue;
        if (pid < 0)
            break;
        for (int w = 0; w < n_workers; w++)
            if (workers_pid[w] == pid) {
                workers_pid[w] = 0;
                alive--;
            }
        if (WIFEXITED(st) && WEXITSTATUS(st) != 0)
            rc = 1;
        else if (WIFSIGNALED(st) && !fatal && !emit_stopped)
            fatal = WTERMSIG(st);
    }
    if (progress)
        fprintf(stderr, "\r\033[K");
    for (int k = 0; k < 3; k++)
        sigaction(sigs[k], &prev[k], NULL);
    int left = n - done;
    int interrupted = atomic_load(&s->interrupted) && !emit_stopped;
    munmap(s, sizeof *s);
    if (jobs->finish)
        jobs->finish(jobs->user);
    if (emit_stopped)
        return 1;
    if (fatal) { /* as the worker ended, so does the command */
        signal(fatal, SIG_DFL);
        raise(fatal);
    }
    if (interrupted && left > 0) {
        cli_error("interrupted: %d more input%s not labelled", left, left > 1 ? "s" : "");
        rc = 130;
    }
    return rc;
}
