/* `seqlabel eval --model M --manifest SET.tsv`: frame metrics of a model on a
 * labeled set, computed in the streaming labeler's own windows (the same
 * report the trainer prints for its validation set). */
#include <cblas.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seqlabel.h"
#include "tools/cli.h"
#include "tools/train_cli.h"

static void usage(FILE *fp)
{
    fprintf(fp,
        "usage: seqlabel eval --model MODEL --manifest SET.tsv [OPTIONS]\n"
        "\n"
        "Frame accuracy, loss, per-class precision/recall/F1, macro F1, speech-vs-rest F1\n"
        "(when the model has a 'speech' class) and the confusion matrix of MODEL on the\n"
        "labeled files of SET.tsv (audio<TAB>labels[<TAB>split], as for train).\n"
        "\n"
        "  --split train|valid|test  only the lines of that split [all lines]\n"
        "  --cache-dir DIR           feature cache [as train]\n"
        "  --no-cache                keep features in memory only\n"
        "  --threads N               encoder threads, and files whose features are\n"
        "                            computed at once; results do not depend on them [1]\n"
        "  --clip-edges              windows as `seqlabel label --clip-edges` cuts them\n"
        "  --json                    the figures as one JSON object on one line\n"
        "                            (frames, loss, accuracy, macro_f1,\n"
        "                            speech_vs_rest_f1, classes, confusion) instead of\n"
        "                            the table\n");
}

int sl_cmd_eval(int argc, char **argv)
{
    enum { O_MODEL = 256, O_MANIFEST, O_SPLIT, O_CACHE, O_NOCACHE, O_THREADS, O_CLIP, O_JSON, O_HELP };
    static const struct option opts[] = {
        {"model", required_argument, 0, O_MODEL}, {"manifest", required_argument, 0, O_MANIFEST},
        {"split", required_argument, 0, O_SPLIT}, {"cache-dir", required_argument, 0, O_CACHE},
        {"no-cache", no_argument, 0, O_NOCACHE}, {"threads", required_argument, 0, O_THREADS},
        {"clip-edges", no_argument, 0, O_CLIP}, {"json", no_argument, 0, O_JSON},
        {"help", no_argument, 0, O_HELP}, {0, 0, 0, 0}};
    const char *model_path = NULL, *manifest = NULL, *cache_dir = NULL;
    int no_cache = 0, clip_edges = 0, json = 0;
    long threads = 1;
    sl_split split = SL_SPLIT_NONE;
    optind = 1;
    opterr = 0;
    int o;
    while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (o) {
        case O_MODEL: model_path = optarg; break;
        case O_MANIFEST: manifest = optarg; break;
        case O_SPLIT:
            if (!strcmp(optarg, "train")) split = SL_SPLIT_TRAIN;
            else if (!strcmp(optarg, "valid")) split = SL_SPLIT_VALID;
            else if (!strcmp(optarg, "test")) split = SL_SPLIT_TEST;
            else return cli_error("--split: '%s' is not train, valid or test", optarg);
            break;
        case O_CACHE: cache_dir = optarg; break;
        case O_NOCACHE: no_cache = 1; break;
        case O_CLIP: clip_edges = 1; break;
        case O_JSON: json = 1; break;
        case O_THREADS:
            if (cli_parse_int("--threads", optarg, 1, 256, &threads))
                return 1;
            break;
        case O_HELP:
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return cli_error("eval: unknown option or missing value: '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return cli_error("eval: unexpected argument '%s' (options only; see --help)", argv[optind]);
    if (!model_path || !manifest) {
        usage(stderr);
        return cli_error("eval: --model and --manifest are required");
    }
    char cache_buf[4096];
    if (!no_cache && !cache_dir)
        cache_dir = train_cli_default_cache(cache_buf, sizeof cache_buf);
    if (no_cache)
        cache_dir = NULL;
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_load(model_path, err, sizeof err);
    if (!m)
        return cli_error("%s", err);
    openblas_set_num_threads(1); /* the encoder's own threads do the splitting */
    sl_metrics mt;
    if (sl_metrics_init(&mt, sl_model_get_config(m)->n_classes)) {
        sl_model_free(m);
        return cli_error("out of memory");
    }
    int rc = sl_evaluate_manifest(m, manifest, split, cache_dir, (int)threads, clip_edges, &mt,
                                  err, sizeof err);
    if (rc == 0 && json) {
        int n = sl_metrics_format_json(&mt, m, NULL, 0);
        char *text = n > 0 ? malloc((size_t)n + 1) : NULL;
        if (text) {
            sl_metrics_format_json(&mt, m, text, (size_t)n + 1);
            fputs(text, stdout);
        } else {
            rc = -1;
            snprintf(err, sizeof err, "out of memory");
        }
        free(text);
    } else if (rc == 0) {
        printf("model %s  set %s\n", model_path, manifest);
        sl_metrics_print(&mt, m, "", stdout);
    }
    sl_metrics_free(&mt);
    sl_model_free(m);
    return rc ? cli_error("%s", err) : 0;
}
