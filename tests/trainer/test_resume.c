/* `seqlabel train` is deterministic and resumes exactly:
 *  - the same seed and thread count twice: byte-identical checkpoints and models;
 *  - another seed: different weights (so the comparison can fail);
 *  - 40 steps straight == 20 steps (--stop-after, mid-epoch) + --resume to 40:
 *    byte-identical checkpoints (weights, AdamW moments, generator, step) and
 *    best models; the same holds on 2 threads;
 *  - with gain augmentation, band-limit augmentation and noise mixing
 *    (--noise-list) the same holds;
 *  - a resume with other settings, relabelled training data, another model
 *    shape or classes, or a --stop-after the checkpoint is past is refused;
 *  - Ctrl-C (SIGINT) checkpoints after the current step and stops; resuming
 *    from there ends with the checkpoint of an uninterrupted run;
 *  - SIGKILL at random moments of a run that checkpoints every step never
 *    leaves a checkpoint that fails to load (temp file + rename);
 *  - a second SIGTERM in the middle of a save ends the run at once and leaves
 *    no temporary file.
 * The manifest's split column is honoured (train and valid lines in one file). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/output_file.h"
#include "model/trainer_internal.h"
#include "trainer_test_util.h"
#include "tests/common/test_files.h"

static char dir[512];
static const char *seqlabel;

#define TINY "--mel-bins 24 --d-model 32 --heads 2 --layers 1 --d-ff 64 --window 64 " \
             "--batch 8 --lr 3e-3 --warmup 5 --quiet"

static int setup(void **state)
{
    (void)state;
    seqlabel = getenv("SL_SEQLABEL");
    if (!seqlabel)
        return -1;
    tt_mkdtemp(dir, sizeof dir, "resume");
    return tt_make_train_valid(dir, 11);
}

static int teardown(void **state)
{
    (void)state;
    tt_rmtree(dir);
    return 0;
}

static void train(const char *extra, const char *tag, int expect_rc)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "'%s' train --manifest '%s/all.tsv' --out '%s/%s.slm' --checkpoint '%s/%s.ckpt' "
             "--cache-dir '%s/cache' " TINY " %s > '%s/%s.report'",
             seqlabel, dir, dir, tag, dir, tag, dir, extra, dir, tag);
    char *err = NULL;
    int rc = tt_run(cmd, &err);
    if (rc != expect_rc)
        fail_msg("'%s' exited %d: %s", cmd, rc, err ? err : "");
    free(err);
}

static void same_seed_same_model(void **state)
{
    (void)state;
    train("--steps 40 --seed 7", "a", 0);
    train("--steps 40 --seed 7", "a2", 0);
    train("--steps 40 --seed 8", "other", 0);
    assert_true(tt_same_file(dir, "a.ckpt", "a2.ckpt"));
    assert_true(tt_same_file(dir, "a.slm", "a2.slm"));
    assert_false(tt_same_file(dir, "a.ckpt", "other.ckpt"));
    /* The report: 2 train files of 598 frames, windows of 8 x 64 = 512 frames:
     * ceil(1196 / 512) = 3 steps per epoch, 40 steps = 14 epochs. */
    char *rep = tt_read_file(tt_path(dir, "a.report"), NULL);
    assert_non_null(strstr(rep, "epoch 14/14 step 40 "));
    assert_non_null(strstr(rep, "epoch 1/14 step 3 "));
    assert_non_null(strstr(rep, "best valid_macro_f1"));
    free(rep);
}

static void resume_is_exact(void **state)
{
    (void)state;
    train("--steps 40 --seed 7", "straight", 0);
    train("--steps 40 --seed 7 --stop-after 20", "b", 0);
    assert_false(tt_same_file(dir, "straight.ckpt", "b.ckpt")); /* really stopped early */
    /* the same command without --resume would start afresh over it: refused,
     * the checkpoint kept */
    train("--steps 40 --seed 7", "b", 1);
    assert_false(tt_same_file(dir, "straight.ckpt", "b.ckpt"));
    /* a second run of the checkpoint while one trains (a timer fired twice)
     * is refused, the checkpoint kept: the lock the first holds, taken here */
    char lock[600];
    snprintf(lock, sizeof lock, "%s/.b.ckpt.lock", dir);
    int held = open(lock, O_RDWR | O_CREAT, 0644);
    assert_true(held >= 0 && flock(held, LOCK_EX) == 0);
    /* by its name, and by a link to it: one checkpoint */
    assert_int_equal(symlink("b.ckpt", tt_path(dir, "b-link.ckpt")), 0);
    const char *names[] = {"b.ckpt", "b-link.ckpt"};
    char cmd[4096], *err = NULL;
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd,
                 "'%s' train --manifest '%s/all.tsv' --out '%s/b.slm' --checkpoint '%s/%s' "
                 "--cache-dir '%s/cache' " TINY " --steps 40 --seed 7 --resume",
                 seqlabel, dir, dir, dir, names[k], dir);
        err = NULL;
        assert_int_equal(tt_run(cmd, &err), 1);
        if (!strstr(err, ": another training run is writing this checkpoint"))
            fail_msg("%s: %s", names[k], err);
        free(err);
    }
    remove(tt_path(dir, "b-link.ckpt"));
    /* a link to a checkpoint not made yet leads to the same lock as its name */
    {
        char lock2[600];
        snprintf(lock2, sizeof lock2, "%s/.g.ckpt.lock", dir);
        int held2 = open(lock2, O_RDWR | O_CREAT, 0644);
        assert_true(held2 >= 0 && flock(held2, LOCK_EX) == 0);
        assert_int_equal(symlink("g.ckpt", tt_path(dir, "g-link.ckpt")), 0);
        snprintf(cmd, sizeof cmd,
                 "'%s' train --manifest '%s/all.tsv' --out '%s/g.slm' --checkpoint "
                 "'%s/g-link.ckpt' --cache-dir '%s/cache' " TINY " --steps 3 --seed 7",
                 seqlabel, dir, dir, dir, dir);
        err = NULL;
        assert_int_equal(tt_run(cmd, &err), 1);
        if (!strstr(err, "g-link.ckpt: another training run is writing this checkpoint"))
            fail_msg("%s", err);
        free(err);
        close(held2);
        remove(lock2);
        remove(tt_path(dir, "g-link.ckpt"));
    }
    assert_false(tt_same_file(dir, "straight.ckpt", "b.ckpt"));
    close(held); /* that run ended (killed: its lock file left, locking nothing) */
    train("--steps 40 --seed 7 --resume", "b", 0);
    assert_true(tt_same_file(dir, "straight.ckpt", "b.ckpt"));
    assert_true(tt_same_file(dir, "straight.slm", "b.slm"));
    assert_int_equal(access(lock, F_OK), -1); /* a run's own lock goes with it */
    /* no file of the user's is taken for the lock: a model named as the
     * checkpoint with .lock after it is kept (it was removed), and a file
     * where the lock would be that is none is said, not removed */
    snprintf(cmd, sizeof cmd,
             "'%s' train --manifest '%s/all.tsv' --out '%s/e.ckpt.lock' --checkpoint '%s/e.ckpt' "
             "--cache-dir '%s/cache' " TINY " --steps 3 --seed 7", seqlabel, dir, dir, dir, dir);
    err = NULL;
    assert_int_equal(tt_run(cmd, &err), 0);
    free(err);
    assert_int_equal(access(tt_path(dir, "e.ckpt.lock"), F_OK), 0);
    snprintf(lock, sizeof lock, "%s/.f.ckpt.lock", dir);
    tt_write_text(lock, "notes\n");
    snprintf(cmd, sizeof cmd,
             "'%s' train --manifest '%s/all.tsv' --out '%s/f.slm' --checkpoint '%s/f.ckpt' "
             "--cache-dir '%s/cache' " TINY " --steps 3 --seed 7", seqlabel, dir, dir, dir, dir);
    err = NULL;
    assert_int_equal(tt_run(cmd, &err), 1);
    if (!strstr(err, ".f.ckpt.lock, which is there and no lock"))
        fail_msg("%s", err);
    free(err);
    assert_int_equal(access(lock, F_OK), 0);
}

static void resume_is_exact_on_two_threads(void **state)
{
    (void)state;
    train("--steps 30 --seed 3 --threads 2", "t", 0);
    train("--steps 30 --seed 3 --threads 2", "t2", 0);
    assert_true(tt_same_file(dir, "t.ckpt", "t2.ckpt"));
    train("--steps 30 --seed 3 --threads 2 --stop-after 16", "u", 0);
    train("--steps 30 --seed 3 --threads 2 --resume", "u", 0);
    assert_true(tt_same_file(dir, "t.ckpt", "u.ckpt"));
}

static void resume_is_exact_with_augmentation(void **state)
{
    (void)state;
    tt_make_task_file(dir, "nz0", 2.0, 31);
    tt_make_task_file(dir, "nz1", 1.5, 32);
    tt_write_text(tt_path(dir, "noise.txt"), "# noises\nnz0.wav\n\nnz1.wav\n");
    char opts[1024];
    snprintf(opts, sizeof opts, "--steps 24 --seed 9 --augment-gain 6 --augment-lowpass 0.5 "
             "--augment-8bit 0.5 --augment-eq 6 --noise-list '%s/noise.txt' --snr-range 5,15 "
             "--noise-prob 0.7", dir);
    train(opts, "n", 0);
    char opts2[1100];
    snprintf(opts2, sizeof opts2, "%s --stop-after 11", opts);
    train(opts2, "n2", 0);
    /* the noise list named another way is the same list */
    snprintf(opts2, sizeof opts2, "%s --resume", opts);
    char *dot_named = strstr(opts2, "/noise.txt");
    memmove(dot_named + 2, dot_named, strlen(dot_named) + 1);
    memcpy(dot_named, "/.", 2);
    train(opts2, "n2", 0);
    assert_true(tt_same_file(dir, "n.ckpt", "n2.ckpt"));
    /* Augmentation changes training: not the same as without it. */
    train("--steps 24 --seed 9", "plain", 0);
    assert_false(tt_same_file(dir, "n.ckpt", "plain.ckpt"));
    /* Nor is it without the band limit alone. */
    snprintf(opts, sizeof opts, "--steps 24 --seed 9 --augment-gain 6 --augment-8bit 0.5 "
             "--augment-eq 6 --noise-list '%s/noise.txt' --snr-range 5,15 --noise-prob 0.7", dir);
    train(opts, "nolp", 0);
    assert_false(tt_same_file(dir, "n.ckpt", "nolp.ckpt"));
    /* Nor without the 8-bit floor alone. */
    snprintf(opts, sizeof opts, "--steps 24 --seed 9 --augment-gain 6 --augment-lowpass 0.5 "
             "--augment-eq 6 --noise-list '%s/noise.txt' --snr-range 5,15 --noise-prob 0.7", dir);
    train(opts, "no8", 0);
    assert_false(tt_same_file(dir, "n.ckpt", "no8.ckpt"));
    /* Nor without the shelves alone. */
    snprintf(opts, sizeof opts, "--steps 24 --seed 9 --augment-gain 6 --augment-lowpass 0.5 "
             "--augment-8bit 0.5 --noise-list '%s/noise.txt' --snr-range 5,15 --noise-prob 0.7", dir);
    train(opts, "noeq", 0);
    assert_false(tt_same_file(dir, "n.ckpt", "noeq.ckpt"));
}

static void resume_with_other_settings_is_refused(void **state)
{
    (void)state;
    train("--steps 40 --seed 7 --stop-after 10", "c", 0);
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "'%s' train --manifest '%s/all.tsv' --out '%s/c.slm' --checkpoint '%s/c.ckpt' --cache-dir "
             "'%s/cache' " TINY " --steps 40 --seed 7 --batch 4 --resume",
             seqlabel, dir, dir, dir, dir);
    char *err = NULL;
    assert_int_equal(tt_run(cmd, &err), 1);
    assert_non_null(strstr(err, "c.ckpt"));
    assert_non_null(strstr(err, "other training settings"));
    assert_non_null(strstr(err, "start a new run from its model with --init"));
    free(err);
    /* the model is the checkpoint's: options that would make another are refused,
     * and so is a stop the checkpoint is past */
    const char *other[3][2] = {
        {"--activation gelu", "another shape or other features"},
        {"--classes silence,tone,noise", "other classes than --classes"},
        {"--stop-after 5", "at step 10 already, past stop-after 5"}};
    for (int k = 0; k < 3; k++) {
        snprintf(cmd, sizeof cmd,
                 "'%s' train --manifest '%s/all.tsv' --out '%s/c.slm' --checkpoint '%s/c.ckpt' --cache-dir "
                 "'%s/cache' " TINY " --steps 40 --seed 7 --resume %s",
                 seqlabel, dir, dir, dir, dir, other[k][0]);
        err = NULL;
        int rc = tt_run(cmd, &err);
        tt_expect_refusal(other[k][0], 1, rc, err, "c.ckpt", other[k][1]);
    }
    /* another teacher is another run (t.slm and t2.slm: models of an earlier test) */
    char teach[1024];
    snprintf(teach, sizeof teach, "--steps 40 --seed 7 --stop-after 10 --teacher '%s/t.slm'", dir);
    train(teach, "d", 0);
    snprintf(cmd, sizeof cmd,
             "'%s' train --manifest '%s/all.tsv' --out '%s/d.slm' --checkpoint '%s/d.ckpt' --cache-dir "
             "'%s/cache' " TINY " --steps 40 --seed 7 --resume --teacher '%s/t2.slm'",
             seqlabel, dir, dir, dir, dir, dir);
    err = NULL;
    int rc = tt_run(cmd, &err);
    tt_expect_refusal("--teacher t2.slm", 1, rc, err, "d.ckpt", "teachers");
    /* relabelled data of the same length is other data: tr_0.txt's first
     * segment takes the class of its second */
    char *labels = tt_read_file(tt_path(dir, "tr_0.txt"), NULL), changed[4096];
    assert_non_null(labels);
    char *end1 = strchr(labels, '\n'), *end2 = strchr(end1 + 1, '\n');
    char *class1 = end1, *class2 = end2;
    while (class1[-1] != '\t')
        class1--;
    while (class2[-1] != '\t')
        class2--;
    assert_true(end1 - class1 != end2 - class2 || strncmp(class1, class2, (size_t)(end2 - class2)));
    snprintf(changed, sizeof changed, "%.*s%.*s%s", (int)(class1 - labels), labels,
             (int)(end2 - class2), class2, end1);
    tt_write_text(tt_path(dir, "tr_0.txt"), changed);
    snprintf(cmd, sizeof cmd,
             "'%s' train --manifest '%s/all.tsv' --out '%s/c.slm' --checkpoint '%s/c.ckpt' --cache-dir "
             "'%s/cache' " TINY " --steps 40 --seed 7 --resume", seqlabel, dir, dir, dir, dir);
    err = NULL;
    rc = tt_run(cmd, &err);
    tt_write_text(tt_path(dir, "tr_0.txt"), labels); /* as it was, for the other tests */
    free(labels);
    tt_expect_refusal("relabelled tr_0.txt", 1, rc, err, "c.ckpt", "their labels");
}

/* Starts training into dir/TAG.slm with a checkpoint every 5 steps, sends `sig`
 * once the first checkpoint exists, and checks that the command stopped with a
 * checkpoint (exit 128 + sig, as a shell reports an end by it, "interrupted after
 * step"): the checkpoint's step. */
static int64_t interrupted_run(const char *tag, int sig)
{
    char ck[1024];
    snprintf(ck, sizeof ck, "%s/%s.ckpt", dir, tag);
    unlink(ck);
    pid_t pid = fork();
    if (pid == 0) {
        char out[1024], man[1024], cache[1024], errf[1024];
        snprintf(out, sizeof out, "%s/%s.slm", dir, tag);
        snprintf(man, sizeof man, "%s/all.tsv", dir);
        snprintf(cache, sizeof cache, "%s/cache", dir);
        snprintf(errf, sizeof errf, "%s/%s.err", dir, tag);
        if (!freopen("/dev/null", "w", stdout) || !freopen(errf, "w", stderr))
            _exit(127);
        signal(SIGHUP, SIG_DFL); /* as a terminal's session starts it */
        execl(seqlabel, seqlabel, "train", "--manifest", man, "--out", out, "--checkpoint", ck,
              "--checkpoint-every", "5", "--cache-dir", cache, "--mel-bins", "24", "--d-model",
              "32", "--heads", "2", "--layers", "1", "--d-ff", "64", "--window", "64", "--batch",
              "8", "--lr", "3e-3", "--warmup", "5", "--quiet", "--steps", "300", "--seed", "4",
              (char *)NULL);
        _exit(127);
    }
    /* Interrupt once training is under way (the first checkpoint exists). */
    for (int i = 0; i < 3000 && access(ck, F_OK) != 0; i++) {
        struct timespec ts = {0, 5000000L};
        nanosleep(&ts, NULL);
    }
    kill(pid, sig);
    if (sig != SIGINT && sig != SIGHUP) { /* sent again, as a soft limit sends SIGXCPU each
                                            * second: counted once */
        struct timespec ts = {0, 20000000L};
        nanosleep(&ts, NULL);
        kill(pid, sig);
    }
    int st;
    waitpid(pid, &st, 0);
    char errf[1024];
    snprintf(errf, sizeof errf, "%s.err", tag);
    char *err = tt_read_file(tt_path(dir, errf), NULL);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 128 + sig || !strstr(err, "interrupted after step"))
        fail_msg("signal %d: %s %d, stderr: %s", sig, WIFEXITED(st) ? "exit" : "signal",
                 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), err);
    printf("%s", err);
    free(err);
    sl_model *m;
    float *am, *av;
    sl_train_state s;
    char e[SL_ERR_LEN];
    assert_int_equal(sl_checkpoint_load(ck, &m, &am, &av, &s, e, sizeof e), 0);
    sl_model_free(m);
    free(am);
    free(av);
    return s.step;
}

/* Ctrl-C checkpoints and stops; resuming gives the uninterrupted run's
 * checkpoint. A hang-up (the terminal closed) stops the same way. */
static void ctrl_c_checkpoints_and_resume_is_exact(void **state)
{
    (void)state;
    int64_t step = interrupted_run("i", SIGINT);
    assert_true(step >= 3 && step < 300); /* first checkpoint: end of epoch 1, step 3 */
    train("--steps 300 --seed 4 --checkpoint-every 5 --resume", "i", 0);
    train("--steps 300 --seed 4", "j", 0);
    assert_true(tt_same_file(dir, "i.ckpt", "j.ckpt"));
    step = interrupted_run("h", SIGHUP);
    assert_true(step >= 3 && step < 300);
    /* a soft CPU-time limit (a batch queue's), its signal sent again: the
     * checkpoint once, not the end at the second (a core, no checkpoint) */
    step = interrupted_run("x", SIGXCPU);
    assert_true(step >= 3 && step < 300);
    /* a batch queue's warning before its time limit (SLURM's --signal=USR1@60,
     * or USR2): the checkpoint, not the end at once that is their default */
    step = interrupted_run("u1", SIGUSR1);
    assert_true(step >= 3 && step < 300);
    step = interrupted_run("u2", SIGUSR2);
    assert_true(step >= 3 && step < 300);
}

static void kill_never_corrupts_the_checkpoint(void **state)
{
    (void)state;
    const char *ck = tt_path(dir, "k.ckpt");
    /* a good checkpoint to start from, then runs that resume it, killed */
    train("--steps 100000 --seed 5 --checkpoint-every 1 --stop-after 1", "k", 0);
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "exec '%s' train --manifest '%s/all.tsv' --out '%s/k.slm' --checkpoint '%s/k.ckpt' "
             "--cache-dir '%s/cache' " TINY " --steps 100000 --seed 5 --checkpoint-every 1 "
             "--resume > /dev/null", seqlabel, dir, dir, dir, dir);
    srand(12345);
    for (int round = 0; round < 4; round++) {
        pid_t pid = fork();
        if (pid == 0) {
            execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
            _exit(127);
        }
        struct timespec ts = {0, 150000000L + (long)(rand() % 300) * 1000000L};
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        int st;
        waitpid(pid, &st, 0);
        assert_true(WIFSIGNALED(st));
        sl_model *m;
        float *am, *av;
        sl_train_state s;
        char err[SL_ERR_LEN];
        if (sl_checkpoint_load(ck, &m, &am, &av, &s, err, sizeof err))
            fail_msg("round %d: %s", round, err);
        assert_true(s.step >= 1);
        sl_model_free(m);
        free(am);
        free(av);
    }
}

/* Runs `seqlabel argv...` (argv[0] the subcommand; standard output to
 * /dev/null) with SIGTERM raised `times` times as a temporary file is about to
 * be renamed into place (raise_in_rename.c, preloaded; tests/model/meson.build),
 * and asserts that it ended by SIGTERM. */
static void term_in_rename(const char *times, char *const argv[])
{
    const char *lib = getenv("SL_RAISE_IN_RENAME_LIB");
    assert_non_null(lib);
    char preload[1024];
    test_preload_path(preload, sizeof preload, dir, lib);
    pid_t pid = fork();
    if (pid == 0) {
        char asan[1024];
        /* under the sanitizers, the preloaded library comes before their runtime */
        snprintf(asan, sizeof asan, "%s%sverify_asan_link_order=0",
                 getenv("ASAN_OPTIONS") ? getenv("ASAN_OPTIONS") : "",
                 getenv("ASAN_OPTIONS") ? ":" : "");
        setenv("ASAN_OPTIONS", asan, 1);
        setenv("SL_RAISE_IN_RENAME", "15", 1); /* SIGTERM */
        setenv("SL_RAISE_TIMES", times, 1);
        setenv("LD_PRELOAD", preload, 1);
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        char *args[32] = {(char *)seqlabel};
        for (int i = 0; argv[i] && i < 30; i++)
            args[i + 1] = argv[i];
        execv(seqlabel, args);
        _exit(127);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGTERM);
}

/* SIGTERM twice as the model's complete temporary file is about to be renamed:
 * the first asks for the end after the step, the second ends the process at
 * once, in the middle of the save, and takes the temporary file with it. */
static void second_signal_in_a_save(void **state)
{
    (void)state;
    char sub[600], out[700], man[700], cache[700];
    snprintf(sub, sizeof sub, "%s/second-signal", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(out, sizeof out, "%s/s.slm", sub);
    snprintf(man, sizeof man, "%s/all.tsv", dir);
    snprintf(cache, sizeof cache, "%s/cache", dir);
    char *const train[] = {"train", "--manifest", man, "--out", out, "--cache-dir", cache,
                           "--mel-bins", "24", "--d-model", "32", "--heads", "2", "--layers",
                           "1", "--d-ff", "64", "--window", "64", "--batch", "8", "--quiet",
                           "--steps", "3", NULL};
    term_in_rename("2", train);
    DIR *d = opendir(sub);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d)))
        files += e->d_name[0] != '.';
    closedir(d);
    assert_int_equal(files, 0); /* neither the model nor its temporary file */
}

/* SIGTERM as eval's first feature cache entry is about to be renamed into
 * place: the command ends, and the entry's temporary file goes with it (it
 * was left, up to 31 MB a 20-minute file, under a new name each run). */
static void signal_in_a_cache_entry(void **state)
{
    (void)state;
    const char *root = getenv("SL_SOURCE_ROOT");
    assert_non_null(root);
    char cache[700], model[1024], samples[1024];
    snprintf(cache, sizeof cache, "%s/cache-signal", dir);
    snprintf(model, sizeof model, "%s/model/default.slm", root);
    snprintf(samples, sizeof samples, "%s/samples", root);
    char *const eval[] = {"eval", "--model", model, "--manifest", samples, "--cache-dir", cache,
                          NULL};
    term_in_rename("1", eval);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "test -d '%s' && test -z \"$(find '%s' -name '*.tmp.*')\"", cache,
             cache);
    assert_int_equal(system(cmd), 0);
}

/* As many temporaries are watched as SL_MAX_THREADS threads write cache
 * entries at once, with outputs besides: a signal removes every one (only 16
 * were watched: eval --threads 32 killed left 16 entries' temporary files). */
static void every_writer_watched(void **state)
{
    (void)state;
    enum { N = SL_MAX_THREADS + 16 };
    static char names[N][700];
    for (int i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "%s/watched-%d.tmp.1", dir, i);
        sl_output_watch(names[i]);
        FILE *fp = fopen(names[i], "w");
        assert_non_null(fp);
        fclose(fp);
    }
    sl_output_remove_temporaries(); /* what a signal's handler calls */
    for (int i = 0; i < N; i++) {
        if (access(names[i], F_OK) == 0)
            fail_msg("%s was left", names[i]);
        sl_output_unwatch(names[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_seed_same_model),
        cmocka_unit_test(resume_is_exact),
        cmocka_unit_test(resume_is_exact_on_two_threads),
        cmocka_unit_test(resume_is_exact_with_augmentation),
        cmocka_unit_test(resume_with_other_settings_is_refused),
        cmocka_unit_test(ctrl_c_checkpoints_and_resume_is_exact),
        cmocka_unit_test(kill_never_corrupts_the_checkpoint),
        cmocka_unit_test(second_signal_in_a_save),
        cmocka_unit_test(signal_in_a_cache_entry),
        cmocka_unit_test(every_writer_watched),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
