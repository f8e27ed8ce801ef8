#include "trainer_test_util.h"
#include "tests/common/test_files.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

void tt_mkdtemp(char *out, size_t len, const char *tag)
{
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(out, len, "%s/sl-%s-XXXXXX", base, tag);
    if (!mkdtemp(out)) {
        perror("mkdtemp");
        abort();
    }
}

void tt_rmtree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            tt_rmtree(p);
        else
            unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

const char *tt_path(const char *dir, const char *name)
{
    return test_in_dir(dir, name);
}

void tt_write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    if (!fp) {
        perror(path);
        abort();
    }
    fputs(text, fp);
    fclose(fp);
}

char *tt_read_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (fread(buf, 1, (size_t)n, fp) != (size_t)n)
        n = 0;
    buf[n] = '\0';
    fclose(fp);
    if (len)
        *len = (size_t)n;
    return buf;
}

static uint64_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 11;
}
static double uni(uint64_t *s) { return (double)next(s) * 0x1.0p-53; }

void tt_make_task_file(const char *dir, const char *name, double seconds, uint64_t seed)
{
    const int sr = 16000;
    uint64_t s = seed * 2654435761ull + 12345;
    const int64_t total_cs = (int64_t)(seconds * 100.0); /* centiseconds */
    float *pcm = calloc((size_t)(total_cs * 160), sizeof *pcm);
    char label_path[1024], wav_path[1024];
    snprintf(label_path, sizeof label_path, "%s/%s.txt", dir, name);
    snprintf(wav_path, sizeof wav_path, "%s/%s.wav", dir, name);
    FILE *lf = fopen(label_path, "w");
    int64_t at = 0;
    int prev = -1;
    while (at < total_cs) {
        int64_t len = 30 + (int64_t)(uni(&s) * 71.0); /* 0.30 .. 1.00 s */
        if (at + len > total_cs)
            len = total_cs - at;
        int cls;
        do
            cls = (int)(uni(&s) * 3.0);
        while (cls == prev);
        prev = cls;
        double f = 300.0 + uni(&s) * 2700.0, amp = cls == 0 ? 0.1 + 0.4 * uni(&s)
                                                            : cls == 1 ? 0.05 + 0.25 * uni(&s)
                                                                       : 1e-4;
        for (int64_t i = at * 160; i < (at + len) * 160; i++) {
            if (cls == 0)
                pcm[i] = (float)(amp * sin(2.0 * M_PI * f * (double)i / sr));
            else
                pcm[i] = (float)(amp * (2.0 * uni(&s) - 1.0));
        }
        static const char *names[3] = {"tone", "noise", "silence"};
        fprintf(lf, "%.2f\t%.2f\t%s\n", at / 100.0, (at + len) / 100.0, names[cls]);
        at += len;
    }
    fclose(lf);
    SF_INFO info = {0};
    info.samplerate = sr;
    info.channels = 1;
    info.format = SF_FORMAT_WAV | SF_FORMAT_PCM_16;
    SNDFILE *sf = sf_open(wav_path, SFM_WRITE, &info);
    sf_writef_float(sf, pcm, total_cs * 160);
    sf_close(sf);
    free(pcm);
}

void tt_make_task_set(const char *dir, const char *manifest, const char *prefix, int n,
                      double seconds, uint64_t seed, const char *split)
{
    char mpath[1024];
    snprintf(mpath, sizeof mpath, "%s/%s", dir, manifest);
    FILE *mf = fopen(mpath, "w");
    for (int i = 0; i < n; i++) {
        char name[128];
        snprintf(name, sizeof name, "%s_%d", prefix, i);
        tt_make_task_file(dir, name, seconds, seed * 1000 + (uint64_t)i);
        if (split)
            fprintf(mf, "%s.wav\t%s.txt\t%s\n", name, name, split);
        else
            fprintf(mf, "%s.wav\t%s.txt\n", name, name);
    }
    fclose(mf);
}

int tt_run(const char *cmd, char **err_out)
{
    char errfile[512];
    test_tmp_path(errfile, sizeof errfile, "sl-trainer-stderr-XXXXXX");
    int fd = mkstemp(errfile);
    close(fd);
    char full[8192];
    snprintf(full, sizeof full, "%s 2>'%s'", cmd, errfile);
    int st = system(full);
    if (err_out)
        *err_out = tt_read_file(errfile, NULL);
    unlink(errfile);
    if (st == -1 || !WIFEXITED(st))
        return -1;
    return WEXITSTATUS(st);
}

int tt_make_train_valid(const char *dir, uint64_t seed)
{
    tt_make_task_set(dir, "tr.tsv", "tr", 2, 6.0, seed, "train");
    tt_make_task_set(dir, "va.tsv", "va", 1, 4.0, seed + 1, "valid");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cat '%s/tr.tsv' '%s/va.tsv' > '%s/all.tsv'", dir, dir, dir);
    return system(cmd) == 0 ? 0 : -1;
}

int tt_train(const char *dir, const char *tag, const char *args, char **err)
{
    const char *seqlabel = getenv("SL_SEQLABEL");
    assert_non_null(seqlabel);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' train --out '%s/%s.slm' %s > '%s/%s.report'", seqlabel, dir, tag,
             args, dir, tag);
    return tt_run(cmd, err);
}

void tt_train_ok(const char *dir, const char *tag, const char *args)
{
    char *err = NULL;
    int rc = tt_train(dir, tag, args, &err);
    if (rc != 0)
        fail_msg("train %s exited %d: %s", args, rc, err ? err : "");
    free(err);
}

sl_model *tt_load_model(const char *dir, const char *tag)
{
    char name[256], e[SL_ERR_LEN];
    snprintf(name, sizeof name, "%s.slm", tag);
    sl_model *m = sl_model_load(tt_path(dir, name), e, sizeof e);
    if (!m)
        fail_msg("%s", e);
    return m;
}

double tt_epoch_train_loss(const char *dir, const char *tag, int epoch)
{
    char name[64], key[64];
    snprintf(name, sizeof name, "%s.report", tag);
    snprintf(key, sizeof key, "epoch %d/", epoch);
    char *rep = tt_read_file(tt_path(dir, name), NULL);
    assert_non_null(rep);
    const char *line = strstr(rep, key);
    if (!line)
        fail_msg("no '%s' in %s:\n%s", key, name, rep);
    const char *l = strstr(line, "train_loss ");
    assert_non_null(l);
    double v = atof(l + strlen("train_loss "));
    free(rep);
    return v;
}

int tt_same_file(const char *dir, const char *a, const char *b)
{
    size_t la, lb;
    char *x = tt_read_file(tt_path(dir, a), &la), *y = tt_read_file(tt_path(dir, b), &lb);
    assert_non_null(x);
    assert_non_null(y);
    int same = la == lb && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return same;
}

void tt_expect_refusal(const char *what, int code, int rc, char *err, const char *want1,
                       const char *want2)
{
    if (rc != code || !err || !strstr(err, want1) || !strstr(err, want2))
        fail_msg("%s: exit %d, stderr '%s'; expected exit %d naming '%s' and '%s'", what, rc,
                 err ? err : "", code, want1, want2);
    printf("%s", err);
    free(err);
}

int tt_collect_frame(void *user, int64_t index, const float *frame, int dim)
{
    tt_frames *s = user;
    memcpy(s->buf + index * dim, frame, (size_t)dim * sizeof(float));
    s->n = index + 1;
    return 0;
}
