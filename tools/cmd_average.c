/* `seqlabel average -o OUT MODEL...`: weight averaging of models of one shape
 * (the library's sl_model_average; docs/training.md). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/model_internal.h"   /* SL_CHECKPOINT_MAGIC */
#include "model/trainer_internal.h" /* sl_checkpoint_load */
#include "tools/cli.h"

/* A model file, or the model a training checkpoint holds (its weights at the
 * step it was written): the checkpoints of one run, averaged. */
static sl_model *load_model(const char *path, char *err, size_t errlen)
{
    sl_model *m = sl_model_load(path, err, errlen);
    if (m)
        return m;
    struct stat st_file;
    char magic[8];
    FILE *fp = stat(path, &st_file) == 0 && S_ISREG(st_file.st_mode) /* no FIFO's wait */
                   ? fopen(path, "rb") : NULL;
    const int checkpoint = fp && fread(magic, 1, 8, fp) == 8 &&
                           !memcmp(magic, SL_CHECKPOINT_MAGIC, 8);
    if (fp)
        fclose(fp);
    float *adam_m, *adam_v;
    sl_train_state st;
    if (!checkpoint || sl_checkpoint_load(path, &m, &adam_m, &adam_v, &st, err, errlen))
        return NULL;
    free(adam_m);
    free(adam_v);
    return m;
}

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: seqlabel average -o OUT MODEL...\n\n"
            "Writes the model whose every weight is the mean of the MODELs' (checkpoint\n"
            "averaging, a 'model soup'). Meant for models with one training history: the\n"
            "stages of one run, or fine-tunings (seqlabel train --init) of one model; the\n"
            "average of unrelated models is a poor model. Shape, features, normalisation,\n"
            "classes and streaming window must be identical. Evaluate the result (seqlabel\n"
            "eval) before using it. One MODEL is written out as it is. A MODEL may be a\n"
            "training checkpoint (train --checkpoint): the model it holds, at its step.\n"
            "OUT is written under a temporary name, then renamed (a device or FIFO is\n"
            "written as it is, a link's file is replaced and a file's mode kept); not to\n"
            "standard output.\n"
            "\n"
            "  -o, --output OUT  the averaged model [required]\n"
            "  -h, --help        this text\n");
}

int sl_cmd_average(int argc, char **argv)
{
    static const struct option opts[] = {{"output", required_argument, 0, 'o'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *out = NULL;
    optind = 1;
    opterr = 0;
    int o;
    while ((o = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
        switch (o) {
        case 'o':
            if (out)
                return cli_usage_error("average: -o given twice");
            out = optarg;
            break;
        case 'h': usage(stdout); return 0;
        case ':': return cli_usage_error("average: %s needs a value", argv[optind - 1]);
        default:
            return cli_usage_error("average: %s (see seqlabel average --help)",
                                   cli_refused_option(argv, opts));
        }
    }
    const int first = optind, n = argc - first;
    if (!out || n < 1) {
        return cli_usage_error("average: -o OUT and at least one MODEL are required (see "
                               "seqlabel average --help)");
    }
    if (!strcmp(out, "-")) /* not a file named "-" either: refused */
        return cli_usage_error("average: -o -: a model is written to a file, not to standard "
                               "output; name one");
    if (!out[0])
        return cli_usage_error("average: -o: an empty name");
    /* by name, or as one file (./m.slm, a link): the output would replace it */
    for (int i = first; i < argc; i++) {
        if (!strcmp(argv[i], out))
            return cli_usage_error("average: %s is both an input and the output", out);
        if (cli_output_is_input(out, argv[i])) /* said */
            return 2;
    }
    sl_model **models = calloc((size_t)n, sizeof *models);
    if (!models)
        return cli_error("out of memory");
    char err[SL_ERR_LEN];
    int rc = 1;
    for (int i = 0; i < n; i++)
        if (!(models[i] = load_model(argv[first + i], err, sizeof err))) {
            cli_error("%s", err);
            goto done;
        }
    sl_model *avg = sl_model_average((const sl_model *const *)models,
                                     (const char *const *)argv + first, n, err, sizeof err);
    if (!avg) {
        cli_error("%s", err);
        goto done;
    }
    /* a signal during the save ends the command at once, and takes the
     * temporary file with it; OUT stays as it was */
    cli_catch_signals();
    if (sl_model_save(avg, out, err, sizeof err))
        cli_error("%s", err);
    else
        rc = 0;
    sl_model_free(avg);
done:
    for (int i = 0; i < n; i++)
        sl_model_free(models[i]);
    free(models);
    return rc;
}
