#include "tools/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("seqlabel: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 1;
}

int cli_parse_int(const char *opt, const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < lo || v > hi) {
        cli_error("%s: '%s' is not an integer in [%ld, %ld]", opt, s, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_parse_float(const char *opt, const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end != '\0' || !(v >= lo && v <= hi)) {
        cli_error("%s: '%s' is not a number in [%g, %g]", opt, s, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_output_open(cli_output *o, const char *path, const char *mode)
{
    memset(o, 0, sizeof *o);
    o->path = strdup(path);
    if (!o->path)
        return cli_error("out of memory");
    if (strcmp(path, "-") == 0) {
        o->fp = stdout;
        return 0;
    }
    size_t n = strlen(path) + 32;
    o->tmp_path = malloc(n);
    if (!o->tmp_path)
        return cli_error("out of memory");
    snprintf(o->tmp_path, n, "%s.tmp.%ld", path, (long)getpid());
    o->fp = fopen(o->tmp_path, mode);
    if (!o->fp) {
        int e = errno;
        cli_error("%s: cannot write: %s", path, strerror(e));
        free(o->tmp_path);
        free(o->path);
        memset(o, 0, sizeof *o);
        return 1;
    }
    return 0;
}

int cli_output_commit(cli_output *o)
{
    int rc = 0;
    if (o->fp == stdout) {
        if (fflush(stdout) != 0)
            rc = cli_error("%s: write failed: %s", "standard output", strerror(errno));
    } else if (o->fp) {
        int bad = ferror(o->fp);
        if (fclose(o->fp) != 0 || bad) {
            rc = cli_error("%s: write failed: %s", o->path, strerror(errno));
            remove(o->tmp_path);
        } else if (rename(o->tmp_path, o->path) != 0) {
            rc = cli_error("%s: cannot rename temporary file into place: %s", o->path, strerror(errno));
            remove(o->tmp_path);
        }
    }
    free(o->tmp_path);
    free(o->path);
    memset(o, 0, sizeof *o);
    return rc;
}

void cli_output_abort(cli_output *o)
{
    if (o->fp && o->fp != stdout) {
        fclose(o->fp);
        remove(o->tmp_path);
    }
    free(o->tmp_path);
    free(o->path);
    memset(o, 0, sizeof *o);
}
