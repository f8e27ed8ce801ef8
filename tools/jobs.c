/* Workers in processes for `seqlabel label --jobs N` (tools/jobs.h). They share
 * one page: the next item to take, the item each is on, and whether Ctrl-C
 * stopped one of them; each
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
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/cli.h"

#define MAX_WORKERS CLI_JOBS_MAX

typedef struct {
    atomic_int next, interrupted;
    atomic_int current[MAX_WORKERS]; /* worker w's item, -1 between items */
    atomic_uchar ran[];              /* item i's run returned: it has ended, whether or
                                        not its number reached the pipe */
} shared_state;

static pid_t workers_pid[MAX_WORKERS];
static int n_workers;
static shared_state *shared;
/* The signals this process takes while it has workers, and which of them it
 * got (or sent itself on): a worker ended by one of them was stopped with the
 * command; by one this process never got, it was killed alone. */
#define N_CAUGHT 7
static const int caught[N_CAUGHT] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXCPU, SIGUSR1, SIGUSR2};
static volatile sig_atomic_t got[N_CAUGHT];

static int caught_index(int sig)
{
    for (int k = 0; k < N_CAUGHT; k++)
        if (caught[k] == sig)
            return k;
    return -1;
}

/* SIGTERM, SIGHUP, SIGQUIT, SIGXCPU, SIGUSR1 and SIGUSR2 sent to this process
 * go on to the workers (they end them, removing their temporary files), and the command
 * ends by it once they are gone and its own temporary folder is removed.
 * SIGINT does not: Ctrl-C reaches the workers from the terminal already, and a
 * second one would end a live input's labelling instead of the input; here it
 * only stops new inputs being taken (a SIGINT sent to this process alone lets
 * the workers finish theirs). */
static void pass_on(int sig)
{
    const int k = caught_index(sig);
    if (k >= 0)
        got[k] = 1;
    if (sig == SIGINT) {
        atomic_store(&shared->interrupted, SIGINT);
        return;
    }
    for (int w = 0; w < n_workers; w++)
        if (workers_pid[w] > 0)
            kill(workers_pid[w], sig);
}

static int worker(const cli_jobs *jobs, shared_state *s, int w, int n, int ended_fd)
{
    if (jobs->start(jobs->user) != 0)
        return 1; /* the other workers take the items */
    int rc = 0;
    while (!atomic_load(&s->interrupted)) {
        int i = atomic_fetch_add(&s->next, 1);
        if (i >= n)
            break;
        atomic_store(&s->current[w], i);
        rc |= jobs->run(jobs->user, i);
        atomic_store(&s->ran[i], 1);
        atomic_store(&s->current[w], -1);
        /* a write of a few bytes into a pipe is whole, whatever the others write */
        ssize_t put;
        while ((put = write(ended_fd, &i, sizeof i)) < 0 && errno == EINTR)
            ;
        if (put < 0) /* the command is gone (EPIPE): nobody hands the labels on */
            break;
        if (cli_input_interrupted()) /* Ctrl-C ended live input: no more items */
            atomic_store(&s->interrupted, cli_input_interrupted());
    }
    jobs->stop(jobs->user);
    return rc;
}

/* Hands on, in item order, the results of the items ended from *next on;
 * returns whether emit stopped the run (the workers then end by SIGTERM). */
static int emit_ended(const cli_jobs *jobs, const unsigned char *ended, int n, int *next,
                      int stopped)
{
    for (; *next < n && ended[*next] && !stopped; (*next)++)
        if (jobs->emit && jobs->emit(jobs->user, *next) != 0) {
            stopped = 1;
            atomic_store(&shared->interrupted, 1);
            pass_on(SIGTERM);
        }
    return stopped;
}

int cli_jobs_run(const cli_jobs *jobs, int n, int workers, int progress)
{
    if (workers > MAX_WORKERS)
        workers = MAX_WORKERS;
    if (workers > n)
        workers = n;
    const size_t shared_size = sizeof(shared_state) + (size_t)n * sizeof(atomic_uchar);
    shared_state *s = mmap(NULL, shared_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                           -1, 0); /* zeroed: no item has run */
    if (s == MAP_FAILED) {
        cli_error("--jobs: cannot share memory between workers: %s", strerror(errno));
        if (jobs->finish) /* what the caller made for the run (its spool folder) */
            jobs->finish(jobs->user);
        return 1;
    }
    atomic_init(&s->next, 0);
    atomic_init(&s->interrupted, 0);
    for (int w = 0; w < MAX_WORKERS; w++)
        atomic_init(&s->current[w], -1);
    shared = s;
    int ended_pipe[2];
    unsigned char *ended = calloc((size_t)n, 1);
    if (!ended || pipe(ended_pipe) != 0) {
        cli_error("--jobs: cannot set up the workers: %s", ended ? strerror(errno) : "out of memory");
        free(ended);
        munmap(s, shared_size);
        if (jobs->finish)
            jobs->finish(jobs->user);
        return 1;
    }

    /* signals wait until every worker's pid is known */
    sigset_t block, old;
    sigemptyset(&block);
    for (int k = 0; k < N_CAUGHT; k++)
        sigaddset(&block, caught[k]);
    sigprocmask(SIG_BLOCK, &block, &old);
    struct sigaction sa = {.sa_handler = pass_on, .sa_flags = SA_RESTART}, prev[N_CAUGHT];
    for (int k = 0; k < N_CAUGHT; k++) {
        sigaction(caught[k], NULL, &prev[k]);
        if (prev[k].sa_handler != SIG_IGN) /* nohup stays nohup */
            sigaction(caught[k], &sa, NULL);
    }
    fflush(NULL); /* nothing buffered is written twice */
    if (progress)
        cli_progress_shared(1);
    n_workers = 0;
    const pid_t parent = getpid();
    for (int w = 0; w < workers; w++) {
        pid_t pid = fork();
        if (pid == 0) {
            for (int k = 0; k < N_CAUGHT; k++)
                sigaction(caught[k], &prev[k], NULL);
            /* this process killed outright (SIGKILL, the OOM killer): the worker
             * stops as at SIGTERM, removing its temporary files, rather than
             * labelling every input left for nobody */
            prctl(PR_SET_PDEATHSIG, SIGTERM);
            if (workers > 1)
                cli_jobs_worker();
            sigprocmask(SIG_SETMASK, &old, NULL);
            if (getppid() != parent) /* it died before the line above */
                raise(SIGTERM);
            close(ended_pipe[0]);
            free(ended); /* this process's: a worker never reads it */
            int wrc = worker(jobs, s, w, n, ended_pipe[1]);
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
        /* (labels written to the same terminal come on a line of their own) */
        if (isatty(STDOUT_FILENO))
            cli_progress_clear();
        emit_stopped = emit_ended(jobs, ended, n, &next_emit, emit_stopped);
        if (progress)
            cli_progress_show("%d of %d inputs done", done, n); /* (failed ones too) */
    }
    close(ended_pipe[0]);

    int alive = n_workers, fatal = 0, died = 0, unnamed = 0;
    while (alive > 0) {
        int st, w = 0;
        pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0 && errno == EINTR)
            continue;
        if (pid < 0)
            break;
        while (w < n_workers && workers_pid[w] != pid)
            w++;
        if (w == n_workers)
            continue; /* not a worker */
        workers_pid[w] = 0;
        alive--;
        int sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0, lost = atomic_load(&s->current[w]);
        const int k = sig ? caught_index(sig) : -1;
        int asked = k >= 0 && got[k];
        if (WIFEXITED(st) && WEXITSTATUS(st) != 0) {
            rc = 1;
        } else if (sig && !asked) {
            /* this worker alone (a crash, the OOM killer, a kill of it alone):
             * its item failed, and the others, which took the items after it,
             * go on */
            rc = 1;
            died = sig;
            if (lost >= 0 && !atomic_load(&s->ran[lost])) {
                if (jobs->lost)
                    jobs->lost(jobs->user, lost, (long)pid, sig);
                ended[lost] = 1;
                done++;
            } else if (lost < 0) {
                unnamed++; /* starting, between inputs, or taking one (below) */
            }
        } else if (sig && !fatal && !emit_stopped) {
            fatal = sig;
        }
    }
    /* A worker that died between taking an item and saying it ended: the
     * items taken whose number never came, ended if their run returned, else
     * lost (taken, not yet begun: nothing of them to remove). Not when the
     * command was stopped too: the items its stop left are said as left. */
    const int taken = atomic_load(&s->next) < n ? atomic_load(&s->next) : n;
    const int stopped = fatal || emit_stopped || atomic_load(&s->interrupted);
    for (int k = 0; died && !stopped && k < taken; k++)
        if (!ended[k]) {
            if (!atomic_load(&s->ran[k])) {
                if (jobs->lost)
                    jobs->lost(jobs->user, k, 0, died);
                unnamed--;
            }
            ended[k] = 1;
            done++;
        }
    if (unnamed > 0 && !stopped)
        cli_error("a worker ended by signal %d (%s) before or between its inputs; the others "
                  "went on", died, strsignal(died));
    /* the items after one whose worker died, held back until now */
    emit_stopped = emit_ended(jobs, ended, n, &next_emit, emit_stopped);
    free(ended);
    cli_progress_clear();
    cli_progress_shared(0);
    for (int k = 0; k < N_CAUGHT; k++)
        sigaction(caught[k], &prev[k], NULL);
    int left = n - done;
    const int interrupted = emit_stopped ? 0 : atomic_load(&s->interrupted); /* the signal */
    munmap(s, shared_size);
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
        rc = 128 + interrupted;
    } else if (left > 0 && n_workers > 0) { /* every worker ended by a signal of its own */
        cli_error("%d more input%s not labelled: no worker was left", left, left > 1 ? "s" : "");
        rc = 1;
    }
    return rc;
}
