#include "tests/common/test_files.h"

#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

char *test_tmp_path(char *buf, size_t len, const char *pattern)
{
    const char *dir = getenv("TMPDIR");
    snprintf(buf, len, "%s/%s", dir && *dir ? dir : "/tmp", pattern);
    return buf;
}

const char *test_fixture_path(char *buf, size_t len, const char *area, const char *name)
{
    const char *dir = getenv("SL_FIXTURES");
    snprintf(buf, len, "%s/%s/%s", dir ? dir : "tests/fixtures", area, name);
    return buf;
}

unsigned char *test_read_file(const char *path, size_t *size)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        fail_msg("cannot open %s", path);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    buf[n] = '\0';
    *size = (size_t)n;
    return buf;
}

double test_utc_seconds(const char *text, const char *key)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
    const char *u = strstr(text, pattern);
    if (!u)
        fail_msg("no %s in %.80s", pattern, text);
    struct tm tm = {0};
    const char *rest = strptime(u + strlen(pattern), "%Y-%m-%dT%H:%M:%S", &tm);
    if (!rest)
        fail_msg("not a UTC time: %.40s", u);
    return (double)timegm(&tm) + strtod(rest, NULL); /* ".070000Z": the fraction */
}

char *test_set_tz(const char *tz)
{
    char *was = getenv("TZ") ? strdup(getenv("TZ")) : NULL;
    setenv("TZ", tz, 1);
    tzset();
    return was;
}

void test_restore_tz(char *was)
{
    if (was)
        setenv("TZ", was, 1);
    else
        unsetenv("TZ");
    tzset();
    free(was);
}

/* Little-endian integers into a RIFF file. */
static void put_le(FILE *fp, uint32_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        fputc((int)(v >> (8 * i)) & 0xff, fp);
}

void test_write_bwf(const char *path, int rate, long n, const char *date, const char *time)
{
    FILE *fp = fopen(path, "wb");
    if (!fp)
        fail_msg("cannot write %s", path);
    const uint32_t bext_size = 602, data_size = (uint32_t)n * 2;
    fwrite("RIFF", 1, 4, fp);
    put_le(fp, 4 + (8 + 16) + (8 + bext_size) + (8 + data_size), 4);
    fwrite("WAVEfmt ", 1, 8, fp);
    put_le(fp, 16, 4);
    put_le(fp, 1, 2);                     /* PCM */
    put_le(fp, 1, 2);                     /* mono */
    put_le(fp, (uint32_t)rate, 4);
    put_le(fp, (uint32_t)rate * 2, 4);    /* bytes per second */
    put_le(fp, 2, 2);                     /* block align */
    put_le(fp, 16, 2);                    /* bits */
    fwrite("bext", 1, 4, fp);
    put_le(fp, bext_size, 4);
    unsigned char bext[602] = {0};        /* description, originator, its reference: empty */
    memcpy(bext + 256 + 32 + 32, date, 10);
    memcpy(bext + 256 + 32 + 32 + 10, time, 8);
    bext[346] = 2;                        /* version (after the time reference's 8 bytes) */
    fwrite(bext, 1, sizeof bext, fp);
    fwrite("data", 1, 4, fp);
    put_le(fp, data_size, 4);
    for (long i = 0; i < n; i++)
        put_le(fp, (uint32_t)(uint16_t)(int16_t)lrint(8000 * sin(2 * M_PI * 440 * (double)i / rate)), 2);
    if (fclose(fp) != 0)
        fail_msg("cannot write %s", path);
}

int test_drop_root(void)
{
    if (geteuid() != 0)
        return 0;
    return setgroups(0, NULL) == 0 && setgid(65534) == 0 && setuid(65534) == 0 ? 0 : -1;
}

int test_system_unprivileged(const char *dir, const char *cmd)
{
    pid_t pid = fork();
    if (pid < 0)
        fail_msg("fork: cannot");
    if (pid == 0) {
        if (chdir(dir) != 0 || test_drop_root() != 0)
            _exit(126);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int test_fifo_reader(const char *path, const char *copy)
{
    if (mkfifo(path, 0600) != 0)
        fail_msg("mkfifo %s: cannot", path);
    pid_t pid = fork();
    if (pid < 0)
        fail_msg("fork: cannot");
    if (pid == 0) {
        alarm(20); /* a writer that never comes (the FIFO replaced) ends it */
        int in = open(path, O_RDONLY), out = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        char buf[65536];
        ssize_t n;
        while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
            if (write(out, buf, (size_t)n) != n)
                _exit(1);
        _exit(in >= 0 && out >= 0 && close(out) == 0 ? 0 : 1);
    }
    return (int)pid;
}

int test_fifo_done(int pid)
{
    int st;
    if (waitpid((pid_t)pid, &st, 0) != (pid_t)pid)
        return -1;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int test_no_tmp_left(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int clean = 1;
    while (d && (e = readdir(d)))
        clean &= strstr(e->d_name, ".tmp.") == NULL;
    if (d)
        closedir(d);
    return clean;
}

void test_write_text(const char *path, const char *text, unsigned mode)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, (mode_t)mode), 0);
}

const char *test_in_dir(const char *dir, const char *name)
{
    static char buf[8][1024];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

const char *test_preload_path(char *buf, size_t len, const char *dir, const char *lib)
{
    snprintf(buf, len, "%s/preload.so", dir);
    unlink(buf);
    if (symlink(lib, buf) != 0)
        fail_msg("symlink %s to %s: %s", buf, lib, strerror(errno));
    return buf;
}
