#include "tools/cli.h"
#include "common/text.h"

#include <glib.h> /* g_unichar_iswide */
#include <sys/ioctl.h>

#include <errno.h>
#include <getopt.h>
#include <fcntl.h>
#include <libgen.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* While live input is read, the first Ctrl-C or SIGTERM (a service's stop:
 * systemd's, docker's) ends the input, not the command: the input's descriptor
 * becomes /dev/null, so a read waiting on a pipe that stalls (libsndfile
 * retries a read a signal interrupts) sees its end. */
static volatile sig_atomic_t sigint_ends_input, input_interrupted, sigterm_ends_input = 1;
static volatile sig_atomic_t live_fd = -1;
static int devnull_fd = -1;

void cli_end_by_signal(int sig)
{
    /* the command's outputs and the library's saves alike: their names are
     * random (common/output_file.h), known to that file's watch alone */
    sl_output_remove_temporaries();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_signal(int sig)
{
    if ((sig == SIGINT || (sig == SIGTERM && sigterm_ends_input)) && sigint_ends_input &&
        !input_interrupted) {
        input_interrupted = sig;
        if (live_fd >= 0 && devnull_fd >= 0)
            dup2(devnull_fd, live_fd); /* async-signal-safe */
        return;
    }
    cli_end_by_signal(sig);
}

/* Once; a signal the command was started with ignored (nohup, a background
 * job's SIGINT) stays ignored. SIGQUIT (Ctrl-\) and SIGXCPU (a soft `ulimit
 * -t`) end it as their default does, core and all, after the temporaries;
 * so do SIGUSR1 and SIGUSR2 (a batch queue's warning before its time limit,
 * SLURM's --signal), whose default ends a process too. */
static void catch_signals(void)
{
    static int installed;
    if (installed)
        return;
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXCPU, SIGUSR1, SIGUSR2};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa, old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
    installed = 1;
}

void cli_catch_signals(void)
{
    catch_signals();
}

void cli_interrupt_ends_input(int on, int input_fd)
{
    if (on) {
        catch_signals();
        if (devnull_fd < 0)
            devnull_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
        input_interrupted = 0;
    }
    live_fd = on ? input_fd : -1;
    sigint_ends_input = on;
}

void cli_jobs_worker(void)
{
    sigterm_ends_input = 0;
}

int cli_input_interrupted(void)
{
    return input_interrupted;
}

volatile int *cli_input_interrupt_flag(void) { return &input_interrupted; }

/* Says why `path` cannot be created in user terms; tmp: the temporary name it
 * was to be written under (beside the file a link leads to), whose folder must
 * allow it, or NULL. */
static void explain_open_failure(const char *path, int e, const char *tmp)
{
    char *copy = strdup(path);
    const char *dir = copy ? dirname(copy) : ".";
    struct stat st;
    if (e == ENOENT && stat(dir, &st) != 0)
        cli_error("%s: cannot write: directory '%s' does not exist", path, dir);
    else if (e == ENOTDIR || (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)))
        cli_error("%s: cannot write: '%s' is not a directory", path, dir);
    else if (tmp && e != EEXIST) { /* the file itself may be writable, as `>` would find it */
        char *tmp_copy = strdup(tmp);
        cli_error("%s: cannot write: cannot create a file in '%s' (an output is written "
                  "there under a temporary name, then renamed over it): %s", path,
                  tmp_copy ? dirname(tmp_copy) : dir, strerror(e));
        free(tmp_copy);
    }
    else
        cli_error("%s: cannot write: %s", path, strerror(e));
    free(copy);
}

size_t cli_shown(char *out, size_t size, const char *s)
{
    size_t len = 0;
    if (size == 0)
        return 0;
    for (size_t i = 0, n = strlen(s), m; i < n; i += m) {
        uint32_t cp;
        m = sl_utf8_char(s + i, n - i, &cp);
        /* a byte that is no UTF-8 (Windows-1252's é, a C1 byte alone: CSI to
         * an 8-bit terminal, also after such a byte), a control character
         * but tab, or an invisible format one (a right-to-left override
         * reorders the rest of the line): every byte as \xNN */
        const int as_is = (m && sl_shows_as_itself(cp)) || (m == 1 && cp == '\t');
        m = m ? m : 1;
        if (len + (as_is ? m : 4 * m) >= size) /* cut before what does not fit whole */
            break;
        if (as_is) {
            memcpy(out + len, s + i, m);
            len += m;
        } else {
            for (size_t b = 0; b < m; b++)
                len += (size_t)snprintf(out + len, size - len, "\\x%02x", (unsigned char)s[i + b]);
        }
    }
    out[len] = '\0';
    return len;
}

/* a progress line this process drew, and whether the --jobs count may be on
 * the terminal (a worker's messages clear it) */
static int progress_drawn, progress_shared;

int cli_progress_wanted(int quiet)
{
    const char *term = getenv("TERM");
    return !quiet && isatty(STDERR_FILENO) && !(term && !strcmp(term, "dumb"));
}

/* Columns the text takes on a terminal: a wide character (CJK) two, a
 * combining mark none (tabs are made spaces before). */
static size_t columns_of(const char *s, size_t n)
{
    size_t cols = 0;
    for (size_t i = 0, m; i < n; i += m) {
        uint32_t cp;
        m = sl_utf8_char(s + i, n - i, &cp);
        cols += !m ? 1 : g_unichar_iszerowidth(cp) ? 0 : g_unichar_iswide(cp) ? 2 : 1;
        m = m ? m : 1;
    }
    return cols;
}

void cli_progress_show(const char *fmt, ...)
{
    char line[4 * 4096 + 256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    for (char *tab = strchr(line, '\t'); tab; tab = strchr(tab, '\t'))
        *tab = ' '; /* (a tab's columns depend on where it falls) */
    /* one row of the terminal at most, its start left out: a line that wraps
     * cannot be taken back by \r (a long path's rows of stale progress) */
    const char *shown = line;
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1) {
        const size_t room = ws.ws_col - 1u, n = strlen(line), dots = room > 8 ? 3 : 0;
        size_t cols = columns_of(line, n);
        if (cols > room) {
            /* "..." and the rest, from a character that takes a column (not
             * a combining mark, which would sit on the dots) */
            for (;;) {
                const size_t left = n - (size_t)(shown - line);
                uint32_t cp;
                size_t m = sl_utf8_char(shown, left, &cp);
                if (!*shown || (cols <= room - dots && !(m && g_unichar_iszerowidth(cp))))
                    break;
                m = m ? m : 1;
                cols -= columns_of(shown, m);
                shown += m;
            }
            fputs(dots ? "\r..." : "\r", stderr);
            fputs(shown, stderr);
            progress_drawn = 1;
            return;
        }
    }
    fputc('\r', stderr);
    fputs(line, stderr);
    progress_drawn = 1;
}

void cli_progress_clear(void)
{
    if (progress_drawn || progress_shared)
        fputs("\r\033[K", stderr);
    progress_drawn = 0;
}

void cli_progress_shared(int on)
{
    progress_shared = on;
}

/* One write for the whole line: the --jobs workers share standard error, and a
 * line written in pieces ran into another worker's. */
static void say(const char *fmt, va_list ap)
{
    char said[SL_ERR_LEN + 4096], line[4 * sizeof said + 16];
    vsnprintf(said, sizeof said, fmt, ap);
    /* a progress line (this process's, or the --jobs count of the command a
     * worker belongs to) is cleared first, not run on into; no control codes
     * where none was drawn */
    size_t len = (size_t)snprintf(line, sizeof line, "%sseqlabel: ",
                                  progress_drawn || progress_shared ? "\r\033[K" : "");
    progress_drawn = 0;
    /* a message is one line, and the names in it (an uploaded folder's files,
     * a manifest's lines) are not the terminal's to act on */
    len += cli_shown(line + len, sizeof line - len - 1, said);
    line[len++] = '\n';
    fflush(stderr);
    for (size_t done = 0; done < len;) {
        ssize_t w = write(STDERR_FILENO, line + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
}

int cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap);
    va_end(ap);
    return 1;
}

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap);
    va_end(ap);
    return 2;
}

/* A long option is argv[optind - 1], as it was typed. A short one is optopt,
 * and getopt may still be inside its word, argv[optind]: for "-dash.wav" after
 * "label", argv[optind - 1] is "label". */
int cli_edits(const char *a, const char *b)
{
    const size_t la = strlen(a), lb = strlen(b);
    if (la > 32 || lb > 32)
        return 3;
    int d[33][33];
    for (size_t i = 0; i <= la; i++)
        for (size_t j = 0; j <= lb; j++) {
            if (!i || !j) {
                d[i][j] = (int)(i + j);
                continue;
            }
            int v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < v)
                v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[la][lb] < 3 ? d[la][lb] : 3;
}

/* The long option a mistyped name (no "--", len bytes) was meant to be: the
 * nearest within 2 edits, for a name of 4 letters or more; else NULL. */
static const char *meant_option(const char *name, size_t len, const struct option *longopts)
{
    char typed[33];
    if (len < 4 || len >= sizeof typed)
        return NULL;
    memcpy(typed, name, len);
    typed[len] = '\0';
    const char *best = NULL;
    int best_d = 3;
    for (const struct option *o = longopts; o->name; o++) {
        const int d = cli_edits(typed, o->name);
        if (d < best_d) {
            best_d = d;
            best = o->name;
        }
    }
    return best;
}

const char *cli_refused_option(char *const argv[], const struct option *longopts)
{
    static char said[1024];
    const char *prev = argv[optind - 1], *cur = argv[optind];
    /* a short option inside a word getopt has not left yet (-dash.wav after
     * --json): that word's, where the long option before it is sound */
    const int in_word = optopt > 0 && optopt <= 127 && cur && cur[0] == '-' && cur[1] != '-' &&
                        strchr(cur + 1, optopt);
    if (!strncmp(prev, "--", 2) && prev[2] && longopts) {
        /* getopt_long takes a unique prefix of a long option: say what an
         * ambiguous one could be, and a value glued to one that takes none */
        const char *name = prev + 2;
        const size_t len = strcspn(name, "=");
        const struct option *exact = NULL, *only = NULL;
        int n = 0;
        char could[768] = "";
        for (const struct option *o = longopts; o->name; o++)
            if (!strncmp(o->name, name, len)) {
                if (strlen(o->name) == len)
                    exact = o;
                only = o;
                size_t at = strlen(could);
                snprintf(could + at, sizeof could - at, "%s--%s", n++ ? ", " : "", o->name);
            }
        const struct option *o = exact ? exact : n == 1 ? only : NULL;
        if (o && name[len] == '=' && o->has_arg == no_argument)
            snprintf(said, sizeof said, "option '--%s' takes no value ('%s')", o->name, prev);
        else if (o && o->has_arg == required_argument && name[len] != '=' && !in_word)
            snprintf(said, sizeof said, "option '--%s' needs a value", o->name);
        else if (!o && n > 1)
            snprintf(said, sizeof said, "ambiguous option '--%.*s' (%s)", (int)len, name, could);
        else if (!o && meant_option(name, len, longopts))
            snprintf(said, sizeof said, "unknown option '%s': did you mean '--%s'?", prev,
                     meant_option(name, len, longopts));
        else if (!o || !in_word)
            snprintf(said, sizeof said, "unknown option '%s'", prev);
        if (!o || !in_word || (name[len] == '=' && o->has_arg == no_argument))
            return said;
    }
    if (!in_word && (optopt <= 0 || optopt > 127 || !strncmp(prev, "--", 2))) {
        snprintf(said, sizeof said, "unknown option '%s'", prev);
        return said;
    }
    const char *word = in_word ? cur : prev;
    if (strlen(word) <= 2)
        snprintf(said, sizeof said, "unknown option '-%c'", optopt);
    else
        snprintf(said, sizeof said, "unknown option '-%c' (in '%s'%s%s)", optopt, word,
                 access(word, F_OK) == 0 ? "; a file of that name: ./" : "",
                 access(word, F_OK) == 0 ? word : "");
    return said;
}

int cli_parse_int(const char *opt, const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < lo || v > hi || !sl_number_as_written(s)) {
        cli_error("%s: '%s' is not an integer in [%ld, %ld]", opt, s, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_parse_utc(const char *opt, const char *s, int64_t *us)
{
    if (sl_parse_utc(s, us) == 0)
        return 0;
    cli_error("%s: '%s' is %s", opt, s, SL_UTC_FORMS);
    return -1;
}

int cli_parse_float(const char *opt, const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end != '\0' || !(v >= lo && v <= hi) || !sl_number_as_written(s)) {
        cli_error("%s: '%s' is not a number in [%g, %g]", opt, s, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_list_items(const char *s, char items[][CLI_ITEM_LEN], int max)
{
    for (int n = 0;; n++) {
        size_t len = strcspn(s, ",");
        if (n == max || len >= CLI_ITEM_LEN)
            return -1;
        memcpy(items[n], s, len);
        items[n][len] = '\0';
        /* blanks around an item, as --skip 'a, b' takes them */
        const char *item = sl_trim_space(items[n]);
        if (!*item)
            return -1;
        memmove(items[n], item, strlen(item) + 1);
        if (!s[len])
            return n + 1;
        s += len + 1;
    }
}

/* A number in [0, hi] into *a (and *b when not NULL), or -1. */
static int float_option(const char *opt, const char *s, double hi, float *a, float *b)
{
    double x;
    if (cli_parse_float(opt, s, 0, hi, &x))
        return -1;
    *a = (float)x;
    if (b)
        *b = (float)x;
    return 0;
}

void cli_decoder_init(cli_decoder *d)
{
    memset(d, 0, sizeof *d);
    sl_decoder_config_default(&d->cfg);
}

/* An option's name as typed (as, "--threshold-on=0.3": its part before '='),
 * else canon. */
static const char *as_typed(const char *as, const char *canon, char *buf, size_t len)
{
    if (!as)
        return canon;
    snprintf(buf, len, "%.*s", (int)strcspn(as, "="), as);
    return buf;
}

static int parse_decoder(cli_decoder_option which, const char *s, cli_decoder *dec)
{
    sl_decoder_config *d = &dec->cfg;
    char name[64];
    long n;
    switch (which) {
    case CLI_SMOOTHING:
        if (!strcmp(s, "none"))
            d->smoothing = SL_SMOOTH_NONE;
        else if (!strcmp(s, "viterbi"))
            d->smoothing = SL_SMOOTH_VITERBI;
        else
            return cli_error("--smoothing: '%s' is not none or viterbi", s), -1;
        return 0;
    case CLI_SMOOTHING_LAG:
        if (cli_parse_int("--smoothing-lag", s, 0, 100000, &n))
            return -1;
        d->smoothing_lag = (int)n;
        return 0;
    case CLI_SWITCH_PENALTY: return float_option("--switch-penalty", s, 1e6, &d->switch_penalty, NULL);
    case CLI_ON_THRESHOLD:
        return float_option(as_typed(dec->on_as, "--on-threshold", name, sizeof name), s, 1,
                            &d->on_threshold, NULL);
    case CLI_OFF_THRESHOLD:
        return float_option(as_typed(dec->off_as, "--off-threshold", name, sizeof name), s, 1,
                            &d->off_threshold, NULL);
    case CLI_PAD_BEFORE: return float_option("--pad-before", s, 3600, &d->pad_before_s, NULL);
    case CLI_PAD_AFTER: return float_option("--pad-after", s, 3600, &d->pad_after_s, NULL);
    case CLI_PADDING:
        return float_option("--padding", s, 3600, &d->pad_before_s, &d->pad_after_s);
    case CLI_TARGET: dec->target = s; return 0;
    case CLI_MIN_DURATION:
        if (!s[strspn(s, " \t")]) { /* (as --skip '' is) not taken for no option */
            cli_error("%s: an empty list (CLASS=SECONDS,...)",
                      as_typed(dec->min_duration_as, "--min-duration", name, sizeof name));
            return -1;
        }
        dec->min_duration = s;
        return 0;
    case CLI_DECODER_OPTIONS: break;
    }
    return -1;
}

int cli_parse_decoder(cli_decoder_option which, const char *s, const char *as_given,
                      cli_decoder *d)
{
    d->given = 1;
    if (which == CLI_SWITCH_PENALTY || which == CLI_SMOOTHING_LAG)
        d->viterbi_only = as_given;
    else if (which >= CLI_ON_THRESHOLD && which <= CLI_PADDING)
        d->target_only = as_given;
    if (which == CLI_TARGET)
        d->target_as = as_given;
    else if (which == CLI_MIN_DURATION)
        d->min_duration_as = as_given;
    else if (which == CLI_ON_THRESHOLD)
        d->on_as = as_given;
    else if (which == CLI_OFF_THRESHOLD)
        d->off_as = as_given;
    return parse_decoder(which, s, d);
}

int cli_decoder_check(const cli_decoder *d, int target_elsewhere)
{
    /* the options as they were typed, without a value glued on by '=' */
    char a[64], b[64];
    if (d->viterbi_only && d->cfg.smoothing == SL_SMOOTH_NONE)
        return cli_usage_error("%s goes with Viterbi smoothing, not --smoothing none",
                               as_typed(d->viterbi_only, NULL, a, sizeof a));
    if (d->target_only && !d->target && !target_elsewhere)
        return cli_usage_error("%s goes with --target CLASS: it shapes that class's segments",
                               as_typed(d->target_only, NULL, a, sizeof a));
    /* not as the model's fault (the labeler's check) */
    if (d->target && d->cfg.off_threshold > d->cfg.on_threshold) {
        const char *off = as_typed(d->off_as, "--off-threshold", a, sizeof a);
        return cli_usage_error("%s %g%s is above %s %g%s: set %s at or below it", off,
                               (double)d->cfg.off_threshold, d->off_as ? "" : " (its default)",
                               as_typed(d->on_as, "--on-threshold", b, sizeof b),
                               (double)d->cfg.on_threshold, d->on_as ? "" : " (its default)", off);
    }
    return 0;
}

int cli_decoder_classes(cli_decoder *d, const sl_model *m, const char *model_path)
{
    char err[SL_ERR_LEN], as[64];
    if (d->min_duration &&
        sl_decoder_parse_min_durations(&d->cfg, m, d->min_duration, err, sizeof err))
        return cli_usage_error("%s: %s",
                               as_typed(d->min_duration_as, "--min-duration", as, sizeof as), err);
    if (d->target && (d->cfg.target_class = sl_model_class_index(m, d->target)) < 0)
        return cli_usage_error("%s: %s has no class '%s'",
                               as_typed(d->target_as, "--target", as, sizeof as), model_path,
                               d->target);
    return 0;
}

int cli_output_is_input(const char *out_path, const char *in_path)
{
    struct stat so, si;
    const int is_stdin = !strcmp(in_path, "-"), is_stdout = !strcmp(out_path, "-");
    if ((is_stdout ? fstat(STDOUT_FILENO, &so) : stat(out_path, &so)) != 0 ||
        !S_ISREG(so.st_mode) ||
        (is_stdin ? fstat(STDIN_FILENO, &si) : stat(in_path, &si)) != 0 ||
        so.st_dev != si.st_dev || so.st_ino != si.st_ino)
        return 0;
    /* standard output into the input (label x.wav >> x.wav) would write into
     * the audio as it is read */
    const char *out = is_stdout ? "standard output" : out_path;
    if (is_stdin)
        cli_error("%s: is the file on standard input; not %s (name another output)", out,
                  is_stdout ? "writing into it" : "replacing it");
    else
        cli_error("%s: is the input %s itself; not %s (name another output)", out, in_path,
                  is_stdout ? "writing into it" : "replacing it");
    return 1;
}

/* What writing `path` ("-": standard output) writes, as a string two outputs
 * can be compared by (malloc'd; NULL when it cannot be told, or is a character
 * device, which two outputs may share): a file that is there by its device and
 * inode, so that its names (links, hard links, a descriptor such as
 * /dev/stdout open on it) are one; one not there yet by the end of its links,
 * its folder by device and inode (two mounts of one folder are one). */
static char *output_identity(const char *path)
{
    int fd = STDOUT_FILENO;
    char *target = NULL;
    if (strcmp(path, "-")) {
        sl_output o;
        if (sl_output_plan(&o, path, NULL, 0))
            return NULL;
        fd = o.through;
        target = o.target; /* taken over */
        o.target = NULL;
        sl_output_free(&o);
    }
    struct stat st;
    char *id = NULL;
    if (fd >= 0 ? fstat(fd, &st) == 0 : stat(target, &st) == 0) {
        if (!S_ISCHR(st.st_mode) && (id = malloc(64))) /* (/dev/null, a terminal: shared) */
            snprintf(id, 64, "inode %ju:%ju", (uintmax_t)st.st_dev, (uintmax_t)st.st_ino);
    } else if (fd < 0) {
        char *folder = sl_path_folder(target);
        const char *slash = strrchr(target, '/'), *name = slash ? slash + 1 : target;
        size_t n = strlen(name) + 64;
        if (folder && stat(folder, &st) == 0 && (id = malloc(n)))
            snprintf(id, n, "folder %ju:%ju/%s", (uintmax_t)st.st_dev, (uintmax_t)st.st_ino, name);
        free(folder);
    }
    free(target);
    return id;
}

int cli_same_output(const char *a, const char *b)
{
    char *fa = output_identity(a), *fb = output_identity(b);
    int same = fa && fb && !strcmp(fa, fb);
    free(fa);
    free(fb);
    return same;
}

/* Clears o after a failed open. Returns 1, the open's result. */
static int open_failed(cli_output *o)
{
    sl_output_free(&o->out);
    free(o->path);
    memset(o, 0, sizeof *o);
    return 1;
}

int cli_output_open(cli_output *o, const char *path, const char *mode)
{
    return cli_output_open_as(o, path, mode, NULL);
}

int cli_output_open_as(cli_output *o, const char *path, const char *mode, const char *said)
{
    memset(o, 0, sizeof *o);
    o->out.fd = o->out.through = o->out.tmp_dir = -1; /* (planned below, but for "-") */
    o->path = strdup(path);
    if (!o->path)
        return cli_error("out of memory");
    if (strcmp(path, "-") == 0) {
        o->fp = stdout;
        return 0;
    }
    /* the library's rule for its model files too: a temporary file renamed
     * over the destination (over the file a link leads to, keeping its mode;
     * refused when the user may not write it), a device or FIFO written as it
     * is (-o /dev/null: a rename would replace it) */
    char err[SL_ERR_LEN];
    if (sl_output_plan(&o->out, o->path, err, sizeof err)) {
        cli_error("%s", err);
        return open_failed(o);
    }
    /* the temporary file is watched as it is made (common/output_file.c): a
     * signal ending the command removes it */
    if (o->out.tmp)
        catch_signals();
    if (sl_output_create(&o->out, err, sizeof err) != 0 ||
        !(o->fp = fdopen(o->out.fd, mode))) {
        int e = errno;
        sl_output_discard(&o->out);
        if (o->out.mode_failed || o->out.through >= 0) /* the library says why */
            cli_error("%s", err);
        else if (said)
            cli_error("%s: cannot write: %s", said, strerror(e));
        else
            explain_open_failure(path, e, o->out.tmp);
        return open_failed(o);
    }
    o->out.fd = -1; /* fclose closes it */
    return 0;
}

/* Ends o: frees and clears it. Returns rc. */
static int output_done(cli_output *o, int rc)
{
    sl_output_free(&o->out);
    free(o->path);
    memset(o, 0, sizeof *o);
    return rc;
}

int cli_output_commit(cli_output *o)
{
    int rc = 0;
    char err[SL_ERR_LEN];
    if (o->fp == stdout) {
        if (fflush(stdout) != 0)
            rc = cli_error("%s: write failed: %s", "standard output", strerror(errno));
    } else if (o->fp) {
        int bad = ferror(o->fp);
        if (fclose(o->fp) != 0 || bad) {
            rc = cli_error("%s: write failed: %s", o->path, strerror(errno));
            sl_output_discard(&o->out);
        } else if (sl_output_commit(&o->out, err, sizeof err) != 0) {
            rc = cli_error("%s", err);
        }
    }
    return output_done(o, rc);
}

/* The CPUs of the CPU quota of the cgroup folder `folder` (rounded up), or 0
 * for none: cgroup v2's cpu.max ("QUOTA PERIOD", "max PERIOD"), v1's
 * cpu.cfs_quota_us (-1: none) and cpu.cfs_period_us. */
static int quota_at(const char *folder, int v1)
{
    char path[8500];
    long long quota = -1, period = 0;
    snprintf(path, sizeof path, "%s/%s", folder, v1 ? "cpu.cfs_quota_us" : "cpu.max");
    FILE *fp = fopen(path, "r");
    if (fp && (v1 ? fscanf(fp, "%lld", &quota) != 1
                  : fscanf(fp, "%lld %lld", &quota, &period) != 2))
        quota = -1;
    if (fp)
        fclose(fp);
    snprintf(path, sizeof path, "%s/cpu.cfs_period_us", folder);
    if (v1 && quota > 0 && (fp = fopen(path, "r"))) {
        if (fscanf(fp, "%lld", &period) != 1)
            period = 0;
        fclose(fp);
    }
    return quota > 0 && period > 0 ? (int)((quota + period - 1) / period) : 0;
}

/* The least CPU quota of this process's cgroup and each one above it (a
 * systemd slice's CPUQuota, a container's outer group), in cgroup v2 or v1's
 * cpu controller; 0 for none. */
static int cgroup_cpus(void)
{
    char line[4096], base[4200], folder[8400];
    FILE *fp = fopen("/proc/self/cgroup", "r");
    int cpus = 0;
    while (fp && fgets(line, sizeof line, fp)) {
        line[strcspn(line, "\n")] = '\0';
        /* "0::/PATH" (v2), or "N:CONTROLLERS:/PATH" (v1) with the cpu controller */
        char *ctrl = strchr(line, ':'), *group = ctrl ? strchr(ctrl + 1, ':') : NULL;
        if (!group)
            continue;
        *group++ = '\0';
        ctrl++;
        const int v1 = *ctrl != '\0';
        if (v1) {
            char list[256], *save = NULL;
            int cpu = 0;
            snprintf(list, sizeof list, "%s", ctrl);
            for (char *c = strtok_r(list, ",", &save); c && !cpu; c = strtok_r(NULL, ",", &save))
                cpu = !strcmp(c, "cpu");
            if (!cpu)
                continue;
        }
        snprintf(base, sizeof base, "/sys/fs/cgroup%s%s", v1 ? "/" : "", ctrl);
        /* the group's folder and each above it, the hierarchy's root too (a
         * container's own view: its group is there) */
        for (char *end = group + strlen(group); end >= group; end--) {
            if (*end != '/' && *end != '\0')
                continue;
            snprintf(folder, sizeof folder, "%s%.*s", base, (int)(end - group), group);
            const int n = quota_at(folder, v1);
            if (n > 0 && (!cpus || n < cpus))
                cpus = n;
        }
    }
    if (fp)
        fclose(fp);
    return cpus;
}

int cli_cpus(void)
{
    cpu_set_t set;
    int n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
                                                         : (int)sysconf(_SC_NPROCESSORS_ONLN);
    int quota = cgroup_cpus();
    if (quota > 0 && quota < n)
        n = quota;
    return n > 0 ? n : 1;
}

const char *cli_tmp_folder(void)
{
    const char *tmp = getenv("TMPDIR");
    return tmp && *tmp ? tmp : "/tmp";
}

FILE *cli_spool(void)
{
    int fd = open(cli_tmp_folder(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
        /* a file system without O_TMPFILE: a name of its own, removed at once */
        char path[4096];
        snprintf(path, sizeof path, "%s/seqlabel-spool-XXXXXX", cli_tmp_folder());
        if ((fd = mkostemp(path, O_CLOEXEC)) >= 0)
            unlink(path);
    }
    FILE *fp = fd >= 0 ? fdopen(fd, "w+b") : NULL;
    if (fd >= 0 && !fp) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return fp;
}

int cli_copy_file(FILE *from, FILE *to)
{
    char buf[65536];
    size_t n;
    rewind(from);
    while ((n = fread(buf, 1, sizeof buf, from)) > 0)
        if (fwrite(buf, 1, n, to) != n)
            return -1;
    return ferror(from) ? -1 : 0;
}

/* 1 when the folder `target` goes into is not the temporary file's (a link
 * there leads elsewhere), or is it through another mount, where a rename may
 * not reach: another file system, or a bind mount of this one (a container's
 * volume), which has its device number, even its folder, and still refuses a
 * rename across it (0 where either is unknown: the rename says what is wrong). */
static int in_another_folder(const sl_output *tmp, const char *target)
{
    struct statx a, b;
    char *folder = sl_path_folder(target), *tmp_folder = sl_path_folder(tmp->tmp);
    const unsigned want = STATX_INO | STATX_MNT_ID;
    int other = folder && tmp_folder &&
                (tmp->tmp_dir >= 0 ? statx(tmp->tmp_dir, "", AT_EMPTY_PATH, want, &a)
                                   : statx(AT_FDCWD, tmp_folder, 0, want, &a)) == 0 &&
                statx(AT_FDCWD, folder, 0, want, &b) == 0 &&
                (a.stx_dev_major != b.stx_dev_major || a.stx_dev_minor != b.stx_dev_minor ||
                 a.stx_ino != b.stx_ino ||
                 ((a.stx_mask & b.stx_mask & STATX_MNT_ID) && a.stx_mnt_id != b.stx_mnt_id));
    free(folder);
    free(tmp_folder);
    return other;
}

/* Commits o as `final` (planned), copying what o holds into final's own
 * temporary file beside its target first; o's is removed. 0, or 1 (said). */
static int commit_across(cli_output *o, sl_output *final)
{
    char err[SL_ERR_LEN];
    int rc = 0, ok = fflush(o->fp) == 0 && !ferror(o->fp);
    if (ok && sl_output_create(final, err, sizeof err) != 0) {
        rc = cli_error("%s", err);
    } else if (ok) {
        int in = dup(fileno(o->fp)); /* (made read-write by mkostemp) */
        FILE *from = in >= 0 ? fdopen(in, "rb") : NULL, *to = fdopen(final->fd, "wb");
        if (in >= 0 && !from)
            close(in);
        if (to)
            final->fd = -1; /* fclose closes it */
        ok = from && to && cli_copy_file(from, to) == 0;
        ok = (!to || fclose(to) == 0) && ok;
        if (from)
            fclose(from);
    }
    if (!ok && !rc)
        rc = cli_error("%s: write failed: %s", final->name, strerror(errno));
    if (rc)
        sl_output_discard(final);
    else if (sl_output_commit(final, err, sizeof err) != 0)
        rc = cli_error("%s", err);
    sl_output_free(final);
    cli_output_abort(o);
    return rc;
}

int cli_output_commit_as(cli_output *o, const char *path)
{
    if (path && o->out.tmp) {
        /* a name of its own (a --split piece's, once its end is known), which
         * the rule of common/output_file.h holds for as for the first: the end
         * of its links, refused when not writable, its mode kept */
        char err[SL_ERR_LEN], *p = strdup(path);
        sl_output final;
        int bad = !p ? snprintf(err, sizeof err, "%s: out of memory", path) :
                  sl_output_plan(&final, path, err, sizeof err) != 0;
        if (!bad && !final.tmp) {
            snprintf(err, sizeof err, "%s: a device or FIFO: not replaced by a piece", path);
            sl_output_free(&final);
            bad = 1;
        }
        if (bad) {
            free(p);
            cli_output_abort(o);
            return cli_error("%s", err);
        }
        if (in_another_folder(&o->out, final.target)) {
            free(p);
            return commit_across(o, &final);
        }
        if (final.keep_mode)
            fchmod(fileno(o->fp), final.mode);
        free(o->path);
        o->path = p;
        free(o->out.target);
        o->out.target = final.target; /* taken over */
        final.target = NULL;
        sl_output_free(&final);
        o->out.name = o->path;
    }
    return cli_output_commit(o);
}

void cli_output_abort(cli_output *o)
{
    if (o->fp && o->fp != stdout) {
        fclose(o->fp);
        sl_output_discard(&o->out);
    }
    output_done(o, 0);
}

const char *cli_extension(const char *path)
{
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    return dot && dot != base ? dot : NULL;
}
