/* Shared helpers of the `seqlabel` command's subcommands. */
#ifndef SL_CLI_H
#define SL_CLI_H

#include <stdio.h>
#include "seqlabel.h"
#include "common/output_file.h"

/* Each subcommand: argv[0] is the subcommand name. Returns the exit code. */
typedef int (*sl_cmd_fn)(int argc, char **argv);
int sl_cmd_features(int argc, char **argv);
int sl_cmd_info(int argc, char **argv);
int sl_cmd_label(int argc, char **argv);
int sl_cmd_train(int argc, char **argv);
int sl_cmd_eval(int argc, char **argv);
int sl_cmd_bench(int argc, char **argv);
int sl_cmd_average(int argc, char **argv);

/* The encodings --raw-format takes (sl_raw_encoding_from_name), for messages. */
#define SL_CLI_RAW_FORMATS "s16le, f32le, ulaw, alaw, gsm, g722"

/* Prints "seqlabel: <message>" on stderr. Returns 1 (an exit code). */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for an error in the command line itself (an unknown option, a bad
 * value, one missing or at odds with another): returns 2, as every command
 * exits on such errors (1: the work failed). */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The progress line on standard error: wanted where it is a terminal that can
 * take it back (not TERM=dumb: Emacs' shell, a braille console) and not
 * --quiet. show draws one ("\r" then text); clear takes a drawn one away, and
 * so does every message and every line of labels written to the terminal, so
 * that nothing runs on into it. cli_progress_shared: another process of the
 * command may have one there (the --jobs count, a worker's input), so this
 * one clears the line before it speaks whether or not it drew it. */
int cli_progress_wanted(int quiet);
void cli_progress_show(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_progress_clear(void);
void cli_progress_shared(int on);

/* What is wrong with the option getopt_long has just refused, as typed and
 * quoted: "unknown option '--foo'", "unknown option '--fromat': did you mean
 * '--format'?", "ambiguous option '--thr' (--threads,
 * --threshold-on, ...)", "option '--segments' takes no value", "option
 * '--threads' needs a value", "unknown option '-d' (in '-dash.wav'; ...)" for
 * a short one in a word of several (with a hint when a file has that name). */
struct option;
const char *cli_refused_option(char *const argv[], const struct option *longopts);
/* Edits (a letter added, dropped, changed, or two swapped) that make a into b,
 * counted up to 3: "lable" is 1 from "label"; what a typo was meant to be. */
int cli_edits(const char *a, const char *b);

/* Strict number parsing for option values: the whole string must be a number
 * within [lo, hi]; otherwise prints an error naming the option and returns -1. */
int cli_parse_int(const char *opt, const char *s, long lo, long hi, long *out);
int cli_parse_float(const char *opt, const char *s, double lo, double hi, double *out);
/* "10,60" split at commas into items (each under CLI_ITEM_LEN bytes, none
 * empty), at most max of them: their count, or -1 (nothing said; the caller
 * names the option and what its list holds). */
#define CLI_ITEM_LEN 32
int cli_list_items(const char *s, char items[][CLI_ITEM_LEN], int max);
/* The decoder's options as `seqlabel label` and `seqlabel eval` take them:
 * --smoothing none|viterbi, --switch-penalty X, --smoothing-lag N,
 * --on-threshold X, --off-threshold X, --pad-before S, --pad-after S,
 * --padding S (both), and the two that name classes, --target CLASS and
 * --min-duration SPEC, which wait for the model (cli_decoder_classes). */
typedef enum {
    CLI_SMOOTHING, CLI_SWITCH_PENALTY, CLI_SMOOTHING_LAG, CLI_ON_THRESHOLD, CLI_OFF_THRESHOLD,
    CLI_PAD_BEFORE, CLI_PAD_AFTER, CLI_PADDING, CLI_TARGET, CLI_MIN_DURATION, CLI_DECODER_OPTIONS
} cli_decoder_option;
typedef struct {
    sl_decoder_config cfg;             /* the library's defaults, then the options given */
    const char *target, *min_duration; /* as given (NULL: not), until the model is known */
    int given;                         /* any of the options was given */
    const char *viterbi_only;          /* the last of --switch-penalty, --smoothing-lag given */
    const char *target_only;           /* the last of the thresholds and paddings given */
    const char *on_as, *off_as;        /* the thresholds as given (NULL: the default) */
    const char *target_as, *min_duration_as; /* those options as typed (--target-class) */
} cli_decoder;
void cli_decoder_init(cli_decoder *d);
/* One option's value into d, or an error naming the option and -1. as_given:
 * the option's word on the command line ("--threshold-on", "--padding=0.2"),
 * which cli_decoder_check's messages name. */
int cli_parse_decoder(cli_decoder_option which, const char *s, const char *as_given,
                      cli_decoder *d);
/* The word of the option getopt_long just took: "--padding=0.2" is one word,
 * "--padding 0.2" two. */
#define CLI_OPTION_AS_GIVEN(argv) ((argv)[optarg == (argv)[optind - 1] ? optind - 2 : optind - 1])
/* Options that would do nothing, refused: Viterbi's with --smoothing none, the
 * target class's without a target (--target, or eval's --sweep CLASS, which
 * decodes CLASS as one: target_elsewhere 1). 0, or 2 (a wrong command line, said). */
int cli_decoder_check(const cli_decoder *d, int target_elsewhere);
/* Those options as getopt_long entries (with the element's property names
 * too), each returning CLI_DECODER_CODE + its cli_decoder_option, so that label
 * and eval take the same names; cli_is_decoder_code tells such a code. */
#define CLI_DECODER_CODE 0x1000
#define CLI_DECODER_LONG_OPTIONS                                                       \
    {"smoothing", required_argument, NULL, CLI_DECODER_CODE + CLI_SMOOTHING},          \
    {"switch-penalty", required_argument, NULL, CLI_DECODER_CODE + CLI_SWITCH_PENALTY}, \
    {"smoothing-lag", required_argument, NULL, CLI_DECODER_CODE + CLI_SMOOTHING_LAG},  \
    {"on-threshold", required_argument, NULL, CLI_DECODER_CODE + CLI_ON_THRESHOLD},    \
    {"off-threshold", required_argument, NULL, CLI_DECODER_CODE + CLI_OFF_THRESHOLD},  \
    {"pad-before", required_argument, NULL, CLI_DECODER_CODE + CLI_PAD_BEFORE},        \
    {"pad-after", required_argument, NULL, CLI_DECODER_CODE + CLI_PAD_AFTER},          \
    {"padding", required_argument, NULL, CLI_DECODER_CODE + CLI_PADDING},              \
    {"target", required_argument, NULL, CLI_DECODER_CODE + CLI_TARGET},                \
    {"min-duration", required_argument, NULL, CLI_DECODER_CODE + CLI_MIN_DURATION},    \
    {"threshold-on", required_argument, NULL, CLI_DECODER_CODE + CLI_ON_THRESHOLD},    \
    {"threshold-off", required_argument, NULL, CLI_DECODER_CODE + CLI_OFF_THRESHOLD},  \
    {"target-class", required_argument, NULL, CLI_DECODER_CODE + CLI_TARGET},          \
    {"min-durations", required_argument, NULL, CLI_DECODER_CODE + CLI_MIN_DURATION}
static inline int cli_is_decoder_code(int code)
{
    return code >= CLI_DECODER_CODE && code < CLI_DECODER_CODE + CLI_DECODER_OPTIONS;
}
/* d's --target and --min-duration, resolved with the model at model_path into
 * d->cfg, or an error naming the option and 2 (a wrong command line). */
int cli_decoder_classes(cli_decoder *d, const sl_model *m, const char *model_path);
/* sl_parse_utc, or an error naming the option and -1. */
int cli_parse_utc(const char *opt, const char *s, int64_t *us);

/* Output written to a temporary file beside the destination and renamed into
 * place only on success, so a failure never leaves a partial or clobbered file.
 * path "-" writes to stdout directly, and a path that is a device or a FIFO
 * (/dev/null), which a rename would replace, is written as it is. A symbolic
 * link's file is replaced (the link stays), an existing file keeps its mode,
 * and one the user may not write is refused (common/output_file.h). */
typedef struct {
    FILE *fp;
    char *path;    /* destination */
    sl_output out; /* where it goes; out.tmp NULL for stdout, a device or a FIFO */
} cli_output;
int cli_output_open(cli_output *o, const char *path, const char *mode);
/* The same, a failure to open said under `said` (a --jobs worker's file that
 * holds an input's labels, which the user knows as that input's) */
int cli_output_open_as(cli_output *o, const char *path, const char *mode, const char *said);
/* 1, with an error naming both, when the output path ("-": standard output)
 * is the very file that in_path ("-": standard input) reads: renaming the
 * output into place would replace the audio it came from, and standard output
 * would be written into it (label x.wav >> x.wav). */
int cli_output_is_input(const char *out_path, const char *in_path);
/* 1 when writing a and writing b ("-": standard output) would write one file
 * (by name, through links, as one inode, or through a descriptor such as
 * /dev/stdout open on it; existing or not): two outputs of one command must not. */
int cli_same_output(const char *a, const char *b);
/* The extension of path's last part, from its '.' ("x/a.b.wav": ".wav"); NULL
 * when it has none (a leading dot, as in ".hidden", is no extension). */
const char *cli_extension(const char *path);
int cli_output_commit(cli_output *o); /* flush, fsync-less close, rename; prints errors */
/* The same, renamed to `path` instead (NULL: the path it was opened with);
 * where path leads into another file system, copied there first. */
int cli_output_commit_as(cli_output *o, const char *path);
void cli_output_abort(cli_output *o); /* close and remove the temporary file */
/* The CPUs this process may use (at least 1): its affinity (taskset, a
 * container's cpuset), and a cgroup CPU quota (v2 or v1) where one is less. */
int cli_cpus(void);
/* s as the command shows text to a terminal, into out[size] (cut to fit): its
 * control characters (C0 but tab, DEL, C1 in UTF-8), invisible format ones
 * (a right-to-left override) and bytes that are no UTF-8 (a C1 byte alone,
 * Windows-1252's é) as \xNN, so that a name from a file (an upload's, a
 * manifest's) sends the terminal no escape. Every message is shown so.
 * Returns the length. */
size_t cli_shown(char *out, size_t size, const char *s);
/* The folder of the command's temporary files: $TMPDIR, else /tmp. */
const char *cli_tmp_folder(void);
/* A nameless temporary file in cli_tmp_folder(), gone once closed, open for
 * reading and writing (tmpfile() would ignore $TMPDIR); NULL with errno. */
FILE *cli_spool(void);
/* All of `from` (from its start) written to `to`: 0, or -1 (errno says why). */
int cli_copy_file(FILE *from, FILE *to);

/* Installs the command's handlers of SIGINT, SIGTERM and SIGHUP (once; one
 * the command was started to ignore stays ignored): they remove the temporary
 * files of this process's outputs, the library's saves too (sl_model_save:
 * PATH.tmp.<pid>.XXXXXX renamed over PATH, common/output_file.h), then end it.
 * cli_output_open installs them too; a command that saves through the library
 * alone calls this first. */
void cli_catch_signals(void);
/* What SIGINT, SIGTERM and SIGHUP do once they end the command (a handler of a
 * command's own may call it, async-signal-safe): the temporary files of this
 * process's outputs removed, then the signal's default action. */
void cli_end_by_signal(int sig);

/* Live input (`arecord | seqlabel label -`) ends with Ctrl-C or SIGTERM (a
 * service's stop): while on, the first SIGINT or SIGTERM only sets
 * cli_input_interrupted() and puts /dev/null in place of input_fd (the
 * descriptor the input is read from, -1 if none), so a read waiting on a
 * stalled pipe ends, what was read is labelled to its end and the output
 * kept; a second one ends the command as before (removing a temporary
 * output). Turning it on clears the flag. cli_jobs_worker: in a worker of
 * several (--jobs) SIGTERM ends the worker whatever it reads (the command's
 * stop, passed on, takes every worker's temporary files with it); the one
 * worker of several inputs onto standard output is the command alone. */
void cli_interrupt_ends_input(int on, int input_fd);
void cli_jobs_worker(void);
/* The signal that ended the input (SIGINT or SIGTERM; the command's exit
 * status 128 + it where inputs were left), 0: none. */
int cli_input_interrupted(void);
/* The flag behind it, for sl_audio_options.interrupt: a read waiting on a
 * stalled network stream ends at Ctrl-C too. */
volatile int *cli_input_interrupt_flag(void);

#endif
