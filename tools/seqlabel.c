/* `seqlabel`: the command-line front-end. Each subcommand lives in its own
 * cmd_*.c file; this file only dispatches. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/memory.h"
#include "tools/cli.h"

static const struct {
    const char *name;
    sl_cmd_fn fn;
    const char *summary;
} commands[] = {
    {"label", sl_cmd_label, "label audio files and folders frame by frame (Audacity, frames, CSV,\n            JSON Lines, RTTM, TextGrid, WebVTT, SubRip, summary), cut or split\n            their audio by class"},
    {"features", sl_cmd_features, "compute Kaldi-compatible log-mel / MFCC features of an audio file"},
    {"info", sl_cmd_info, "print everything a model file says about itself"},
    {"train", sl_cmd_train, "train a labeler from a manifest of audio + labels (Audacity,\n            TextGrid, RTTM, WebVTT, SubRip, JSON Lines, CSV, whole-file\n            classes) or a folder of them"},
    {"eval", sl_cmd_eval, "measure a model, or any tool's label files, on a labeled\n            manifest or folder; choose a VAD threshold (--sweep)"},
    {"average", sl_cmd_average, "average the weights of models of one shape (checkpoint averaging)"},
    {"bench", sl_cmd_bench, "benchmarks: features, encoder, label, train"},
};

static void usage(FILE *fp)
{
    fprintf(fp, "usage: seqlabel COMMAND [OPTIONS...]\n\n"
                "Audio sequence labeling: a label for every 10 ms frame.\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(fp, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(fp, "\n'seqlabel COMMAND --help' (or 'seqlabel help COMMAND') describes each "
                "command.\n"
                "  --help      this text\n  --version   print the version\n"
                "\nExit status: 0 done, 1 the work failed (a file missing, unreadable or\n"
                "refused), 2 a wrong command line (an unknown option, a bad value),\n"
                "128 + N stopped by signal N as asked (130 Ctrl-C, 143 SIGTERM: label\n"
                "with inputs left after a live one, train before its last step's end).\n"
                "\nSEQLABEL_MEMORY_LIMIT=BYTES (4G, 512M, 4GiB) caps what each labeler, encoder,\n"
                "training step and the rest of training's buffers may take, below what the\n"
                "machine has free (docs/labeling.md, \"Memory and work\").\n");
}

/* What a command that succeeded printed must have arrived: `eval --json > f` on a
 * full disk is a failure, not a silent success (a command that failed has said
 * why). rc, or 1 when standard output failed. */
static int stdout_written(int rc)
{
    errno = 0;
    if (rc != 0 || (fflush(stdout) == 0 && !ferror(stdout)))
        return rc;
    cli_error("standard output: write failed%s%s", errno ? ": " : "", errno ? strerror(errno) : "");
    return 1;
}

/* Descriptors 0-2 that the caller closed (`>&-`) are taken by /dev/null, read
 * only: otherwise the next file opened, the input audio, would be descriptor 1,
 * and the labels bound for standard output would be written into it. Writing
 * to a closed standard output then fails (EBADF) and is said, as coreutils'
 * commands say it. */
static void reserve_standard_descriptors(void)
{
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF)
            (void)!open("/dev/null", O_RDONLY); /* the lowest free descriptor: fd */
}

/* The word (a command, help, --help or --version) a mistyped one was meant to
 * be, into said ("'label'", or "'train' or 'eval'" for two as near): those
 * nearest it, within 2 edits (1 for a word of 3 letters or fewer, which 2
 * could turn into any short command). 0: none near. */
static int meant_word(const char *word, char *said, size_t len, int with_help)
{
    const char *words[sizeof commands / sizeof commands[0] + 3];
    size_t n = 0;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        words[n++] = commands[i].name;
    if (with_help) {
        words[n++] = "help";
        words[n++] = "--help";
        words[n++] = "--version";
    }
    const int most = strlen(word) <= 3 ? 1 : 2;
    int best = most + 1, found = 0;
    said[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        const int d = cli_edits(word, words[i]);
        if (d > most)
            continue;
        if (d < best) {
            best = d;
            found = 0;
            said[0] = '\0';
        }
        if (d == best && found < 2) {
            size_t at = strlen(said);
            snprintf(said + at, len - at, "%s'%s'", found++ ? " or " : "", words[i]);
        }
    }
    return found;
}

/* `seqlabel lable x.wav`, `seqlabel --quiet label x.wav`: what was meant. */
static int unknown_command(int argc, char **argv)
{
    char meant[128];
    if (meant_word(argv[1], meant, sizeof meant, 1))
        return cli_usage_error("unknown command '%s': did you mean %s? (see seqlabel --help)",
                               argv[1], meant);
    for (int i = 2; argv[1][0] == '-' && i < argc; i++)
        for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
            if (!strcmp(argv[i], commands[k].name))
                return cli_usage_error("'%s' before the command: options go after it (seqlabel "
                                       "%s %s ...)", argv[1], argv[i], argv[1]);
    return cli_usage_error("unknown command '%s' (see seqlabel --help)", argv[1]);
}

int main(int argc, char **argv)
{
    reserve_standard_descriptors();
    /* past `ulimit -f`, a write fails (EFBIG, said, its temporary file removed)
     * instead of the process ending on SIGXFSZ with the file left */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
        (!strcmp(argv[1], "help") && argc == 2)) {
        usage(stdout);
        return stdout_written(0);
    }
    if (!strcmp(argv[1], "help")) { /* `seqlabel help label`: `seqlabel label --help` */
        for (size_t i = 0; argc == 3 && i < sizeof commands / sizeof commands[0]; i++)
            if (!strcmp(argv[2], commands[i].name)) {
                char *help_argv[] = {argv[2], "--help", NULL};
                return stdout_written(commands[i].fn(2, help_argv));
            }
        if (argc != 3)
            return cli_usage_error("help: one command at most (seqlabel help COMMAND)");
        char meant[128];
        const int near = meant_word(argv[2], meant, sizeof meant, 0);
        return cli_usage_error("help: '%s' is not a command%s%s%s (see seqlabel --help)", argv[2],
                               near ? "; did you mean " : "", meant, near ? "?" : "");
    }
    if (!strcmp(argv[1], "--version")) {
        printf("seqlabel %s\n", SL_VERSION_STRING);
        return stdout_written(0);
    }
    /* the library passes over a cap it cannot read; a command says so */
    const char *cap = getenv("SEQLABEL_MEMORY_LIMIT");
    if (cap && *cap && sl_memory_limit_setting(cap) < 0)
        return cli_usage_error("SEQLABEL_MEMORY_LIMIT: '%s' is not a number of bytes (such as "
                               "4000000000, 4G or 512M)", cap);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return stdout_written(commands[i].fn(argc - 1, argv + 1));
    return unknown_command(argc, argv);
}
