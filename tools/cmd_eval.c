/* `seqlabel eval --model M --manifest SET.tsv`: frame metrics of a model on a
 * labeled set, computed in the streaming labeler's own windows (the same
 * report the trainer prints for its validation set), or with the decoder's
 * options those of the labels `seqlabel label` gives; with --hyp, the same
 * figures of label files any tool wrote (sl_score_manifest); with --events,
 * sound event detection's figures of the same frames (sl_events). */
#include "common/blas_threads.h"
#include "common/text.h"
#include "model/label_files.h" /* sl_label_list_kept */
#include "model/trainer_internal.h" /* sl_evaluate_manifest_cached */
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
        "       seqlabel eval --hyp LABELS --manifest SET.tsv [OPTIONS]\n"
        "\n"
        "Frame accuracy, loss, per-class precision/recall/F1, macro F1, speech-vs-rest F1\n"
        "(when there is a 'speech' class) and the confusion matrix of MODEL on the\n"
        "labeled files of SET.tsv (audio<TAB>labels[<TAB>split], or a folder, as for\n"
        "train); with --hyp, of the label files any tool wrote for them (no loss), on\n"
        "the same 10 ms frames (a model's, with --model); with --events, the event-\n"
        "and segment-based figures of sound event detection too.\n"
        "\n"
        "  --hyp LABELS              a folder holding NAME.txt (Audacity), NAME.TextGrid,\n"
        "                            NAME.rttm, NAME.vtt (WebVTT), NAME.srt (SubRip),\n"
        "                            NAME.jsonl (JSON Lines: frames or segments),\n"
        "                            NAME.csv (seqlabel label --format csv) or\n"
        "                            NAME.tsv (seqlabel label --format frames) for\n"
        "                            each audio file NAME.* of SET.tsv,\n"
        "                            NAME its path below SET's folder or the end of it\n"
        "                            (as seqlabel label -o DIR/ writes them), or one\n"
        "                            RTTM file with every file's lines (file id NAME;\n"
        "                            x.rttm#speech: every turn as class speech), or\n"
        "                            one CSV or JSON Lines file of segments whose\n"
        "                            file column names each row's input (seqlabel\n"
        "                            label DIR --format csv > x.csv writes one; with\n"
        "                            --hyp-root DIR); one file or id that two files\n"
        "                            of SET.tsv would share (a/x.wav and b/x.wav: x)\n"
        "                            is refused\n"
        "  --hyp-root DIR            the folder seqlabel label labelled to write --hyp\n"
        "                            (one CSV or JSON Lines file of several inputs'\n"
        "                            segments, where it is needed; or a folder of\n"
        "                            label files), each of its names, or label\n"
        "                            files, a file's path below DIR:\n"
        "                            each audio file of SET.tsv takes the rows, or\n"
        "                            the file, of its path below DIR and that alone\n"
        "                            (one elsewhere is an error) [a folder: the path\n"
        "                            below SET's folder or its end]\n"
        "  --hyp-gap CLASS           the class of time no hypothesis segment covers\n"
        "                            (a VAD's speech-only output: e.g. silence) [such\n"
        "                            time is an error]\n"
        "  --ref-gap CLASS           the class of time no reference segment covers (a\n"
        "                            speech-only RTTM reference: the rest non-speech,\n"
        "                            its false alarms scored, as md-eval scores them)\n"
        "                            [such time is not scored]; a gap's class the\n"
        "                            references lack is listed with --classes\n"
        "  --classes a,b,c           with --hyp and no model: the classes and their\n"
        "                            order, each once [the references' names, first\n"
        "                            seen first]\n"
        "  --collar S                frames within S seconds of a change of the\n"
        "                            reference's labels are not scored (the forgiveness\n"
        "                            at boundaries of VAD scoring, e.g. 0.25) [0]\n"
        "  --uem FILE                score only the regions a NIST UEM file gives each\n"
        "                            file ('<file-id> <channel> <onset> <offset>' per\n"
        "                            line, as md-eval, dscore and pyannote.metrics take\n"
        "                            it; the file id its audio's name without folder\n"
        "                            and extension): frames whose centre lies in one;\n"
        "                            a file it gives no region is an error; not with\n"
        "                            --events [every frame]\n"
        "  --split train|valid|test  only the lines of that split (train: also those\n"
        "                            without one, --valid-share's held-out ones too;\n"
        "                            validation, val or dev: valid)\n"
        "                            [all lines]\n"
        "  --cache-dir DIR           feature cache [as train]\n"
        "  --no-cache                keep features in memory only\n"
        "  --threads N               encoder threads, and files whose features are\n"
        "                            computed at once; results do not depend on them [1]\n"
        "  --clip-edges              windows as `seqlabel label --clip-edges` cuts them\n"
        "  --sweep CLASS             precision, recall, F1, false alarms and misses of\n"
        "                            CLASS at thresholds of its probability from 0.05\n"
        "                            to 0.95, the best F1 and the equal error rate (for\n"
        "                            --on-threshold of a VAD): the model's, or with\n"
        "                            --hyp those its frames (.tsv, .jsonl) hold; with\n"
        "                            --events, each threshold's event F1 and error\n"
        "                            rate of CLASS too; with --model and the decoder's\n"
        "                            options (below), the labels label gives with them\n"
        "                            and --target CLASS, --on-threshold at each\n"
        "                            threshold and --off-threshold below it by their\n"
        "                            gap (0.15 unless set; not below 0)\n"
        "  --events all|a,b          sound event detection figures as DCASE publishes\n"
        "                            them (sed_eval's): an event is a run of frames of\n"
        "                            one class (of these classes; all: every class);\n"
        "                            event-based F1 and error rate (onsets within the\n"
        "                            collar, offsets within it or half the event), and\n"
        "                            segment-based (1 s segments); with --model of its\n"
        "                            argmax frames, or of the decoder's labels (below)\n"
        "  --event-collar S          the events' collar in seconds [0.2]\n"
        "  --smoothing none|viterbi, --switch-penalty X, --smoothing-lag N,\n"
        "  --min-duration SPEC, --target CLASS, --on-threshold X, --off-threshold X,\n"
        "  --pad-before S, --pad-after S, --padding S (the element's names too, as\n"
        "  label takes them:\n"
        "  --min-durations, --target-class, --threshold-on, --threshold-off)\n"
        "                            with --model: score the labels `seqlabel label`\n"
        "                            gives with these decoder options (its defaults\n"
        "                            for the others: --smoothing viterbi alone scores\n"
        "                            its default labels) instead of the model's argmax\n"
        "                            frames, which the trainer scores [argmax]\n"
        "  --per-file                each file's accuracy, macro F1 and speech-vs-rest\n"
        "                            F1 (and event F1 with --events) after the set's\n"
        "                            frame figures, the worst first (a file with no\n"
        "                            frame scored last, its figures '-')\n"
        "  --json                    the figures as one JSON object on one line\n"
        "                            (frames, loss, accuracy, macro_f1,\n"
        "                            speech_vs_rest_f1, classes, confusion) instead of\n"
        "                            the table; with --per-file, a line for each file\n"
        "                            first (\"audio\" its path), in the set's order;\n"
        "                            --sweep and --events add a line each after it,\n"
        "                            its first key \"sweep\" or \"events\"\n"
        "  -h, --help                this text\n");
}

/* Each file's figures as they come (sl_eval_options.on_file): the files no
 * frame of was scored counted, and with --per-file (keep) all kept. */
typedef struct {
    sl_metrics *v; /* own copies, v[i].audio strdup'ed */
    int n, cap;
    int failed;    /* out of memory */
    int keep;
    int unscored;
    char *first_unscored;
} file_list;

static void keep_file(void *user, const sl_metrics *file)
{
    file_list *l = user;
    if (file->frames == 0 && !l->unscored++)
        l->first_unscored = strdup(file->audio);
    if (l->failed || !l->keep)
        return;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        sl_metrics *v = realloc(l->v, sizeof *v * (size_t)cap);
        if (!v) {
            l->failed = 1;
            return;
        }
        l->v = v;
        l->cap = cap;
    }
    sl_metrics *m = &l->v[l->n];
    if (sl_metrics_init(m, file->n_classes)) {
        l->failed = 1;
        return;
    }
    memcpy(m->confusion, file->confusion,
           sizeof *m->confusion * (size_t)file->n_classes * (size_t)file->n_classes);
    m->loss_sum = file->loss_sum;
    m->frames = file->frames;
    m->no_loss = file->no_loss;
    sl_events *ev = file->events ? malloc(sizeof *ev) : NULL;
    if (ev)
        *ev = *file->events;
    m->events = ev;
    if (!(m->audio = strdup(file->audio)) || (file->events && !ev)) {
        free((char *)m->audio);
        free(ev);
        sl_metrics_free(m);
        l->failed = 1;
        return;
    }
    l->n++;
}

/* A file that no frame was scored of (an empty label file: a recording
 * missing from the figures) is said, as train says a clip too short. */
static void say_unscored(const file_list *l)
{
    if (l->unscored)
        fprintf(stderr, "seqlabel eval: files with no frame scored (an empty label file? a "
                "clip shorter than one analysis window? or the collar or --uem leaves none), "
                "left out of the figures: %d (the first: %s)\n",
                l->unscored, l->first_unscored ? l->first_unscored : "?");
}

static void file_list_free(file_list *l)
{
    free(l->first_unscored);
    for (int i = 0; i < l->n; i++) {
        free((char *)l->v[i].audio);
        free((sl_events *)l->v[i].events);
        sl_metrics_free(&l->v[i]);
    }
    free(l->v);
}

static int by_accuracy(const void *a, const void *b)
{
    const sl_metrics *x = *(const sl_metrics *const *)a, *y = *(const sl_metrics *const *)b;
    if ((x->frames > 0) != (y->frames > 0)) /* files with nothing scored last */
        return x->frames > 0 ? -1 : 1;
    double ax = sl_metrics_accuracy(x), ay = sl_metrics_accuracy(y);
    return ax < ay ? -1 : ax > ay ? 1 : (x > y) - (x < y); /* ties: the set's order */
}

/* What a snprintf-style formatter of the library makes of `what`, on standard
 * output. 0, or 1 (said). */
typedef int (*format_fn)(const void *what, const void *arg, char *buf, size_t len);

static int put_formatted(format_fn fn, const void *what, const void *arg)
{
    int n = fn(what, arg, NULL, 0);
    char *text = n > 0 ? malloc((size_t)n + 1) : NULL;
    if (!text)
        return cli_error("out of memory");
    fn(what, arg, text, (size_t)n + 1);
    fputs(text, stdout);
    free(text);
    return 0;
}

static int metrics_json(const void *mt, const void *names, char *buf, size_t len)
{
    return sl_metrics_format_json_names(mt, names, buf, len);
}

static int sweep_json(const void *sw, const void *name, char *buf, size_t len)
{
    return sl_sweep_format_json(sw, name, buf, len);
}

/* The figures on standard output: the table, or one JSON object; with
 * --per-file (files not NULL) each file's too. 0, or 1 (said). */
static int report(const sl_metrics *mt, const char *const *names, const char *what,
                  const char *source, const char *manifest, int json, const file_list *files)
{
    if (files && files->failed)
        return cli_error("out of memory");
    if (json) {
        for (int i = 0; files && i < files->n; i++)
            if (put_formatted(metrics_json, &files->v[i], names))
                return 1;
        return put_formatted(metrics_json, mt, names);
    }
    printf("%s %s  set %s\n", what, source, manifest);
    sl_metrics_print_names(mt, names, "", stdout);
    if (!files)
        return 0;
    int speech = -1;
    for (int k = 0; k < mt->n_classes; k++)
        if (!strcmp(names[k], "speech"))
            speech = k;
    const sl_metrics **order = malloc(sizeof *order * (size_t)(files->n ? files->n : 1));
    if (!order)
        return cli_error("out of memory");
    for (int i = 0; i < files->n; i++)
        order[i] = &files->v[i];
    qsort(order, (size_t)files->n, sizeof *order, by_accuracy);
    const int events = files->n > 0 && files->v[0].events;
    printf("files, the worst first:\n%9s %9s %9s ", "accuracy", "macro_f1",
           speech >= 0 ? "speech_f1" : "");
    if (events)
        printf("%9s ", "event_f1");
    printf("%10s  %s\n", "frames", "audio");
    for (int i = 0; i < files->n; i++) {
        const sl_metrics *f = order[i];
        if (f->frames > 0)
            printf("%9.4f %9.4f ", sl_metrics_accuracy(f), sl_metrics_macro_f1(f));
        else /* nothing scored in it (a UEM's regions leave it none): not the worst */
            printf("%9s %9s ", "-", "-");
        int64_t speech_frames = 0; /* as truth or prediction: without any, F1 means nothing */
        for (int k = 0; speech >= 0 && k < f->n_classes; k++)
            speech_frames += f->confusion[speech * f->n_classes + k] +
                             f->confusion[k * f->n_classes + speech];
        if (speech_frames > 0)
            printf("%9.4f ", sl_metrics_binary_f1(f, speech));
        else
            printf("%9s ", speech >= 0 ? "-" : "");
        if (events) {
            sl_event_figures ef;
            sl_events_summary(f->events, &ef);
            if (ef.event_ref + ef.event_sys > 0)
                printf("%9.4f ", ef.event_f1);
            else /* no event either way: F1 means nothing */
                printf("%9s ", "-");
        }
        /* the name as messages show it: a newline in it would make two rows,
         * an escape in it act on the terminal (the JSON lines keep it whole) */
        char shown[4 * 4096 + 16];
        cli_shown(shown, sizeof shown, f->audio);
        printf("%10lld  %s\n", (long long)f->frames, shown);
    }
    free(order);
    return 0;
}

/* --sweep: the table, or a JSON line after the set's. 0, or 1 (said). */
static int report_sweep(const sl_sweep *sw, const char *name, int json)
{
    if (json)
        return put_formatted(sweep_json, sw, name);
    sl_sweep_print(sw, name, "", stdout);
    return 0;
}

/* The index of `name` among the n names, or -1. */
/* --events: counts for these classes ("all", or a,b,c of names), the collar and
 * 1 s segments on frames of frame_s seconds, into *out. 0, 1 (out of memory) or
 * 2 (a list naming no class of these: a wrong command line), said. */
static int events_for(const char *list, const char *const *names, int n, double collar_s,
                      double frame_s, sl_events **out)
{
    sl_events *ev = malloc(sizeof *ev);
    char *copy = strcmp(list, "all") ? strdup(list) : NULL;
    if (!ev || (strcmp(list, "all") && !copy)) {
        free(ev);
        return cli_error("out of memory");
    }
    sl_events_init(ev, n, (int)(collar_s / frame_s + 1e-6), (int)(1.0 / frame_s + 0.5));
    int rc = 0;
    if (copy) {
        memset(ev->scored, 0, sizeof ev->scored);
        const char *want[SL_MAX_CLASSES];
        int k = 0;
        if (train_cli_split_classes(copy, want, &k))
            rc = cli_usage_error("--events: expected all or a,b,c (class names)");
        for (int i = 0; !rc && i < k; i++) {
            int c = sl_text_index(names, n, want[i]);
            if (c < 0)
                rc = cli_usage_error("--events: '%s' is not one of the classes", want[i]);
            else if (ev->scored[c]) /* (as --classes refuses a name twice) */
                rc = cli_usage_error("--events: '%s' is listed twice", want[i]);
            else
                ev->scored[c] = 1;
        }
        free(copy);
    }
    if (rc)
        free(ev);
    else
        *out = ev;
    return rc;
}

typedef struct {
    const char *const *names;
    double frame_s;
} events_arg;

static int events_json(const void *ev, const void *arg, char *buf, size_t len)
{
    const events_arg *a = arg;
    return sl_events_format_json(ev, a->names, a->frame_s, buf, len);
}

/* --events: the figures, or a JSON line after the set's. 0, or 1 (said). */
static int report_events(const sl_events *ev, const char *const *names, double frame_s, int json)
{
    events_arg a = {names, frame_s};
    if (json)
        return put_formatted(events_json, ev, &a);
    sl_events_print(ev, names, frame_s, "", stdout);
    return 0;
}

/* Seconds per frame of a feature config. */
static double frame_seconds(const sl_feature_config *fc)
{
    return (double)sl_feature_frame_shift(fc) / fc->sample_rate;
}

/* The classes of --hyp scoring into names (strdup'ed, *n of them): --classes,
 * else the model's (and its frames' settings into grid), else the references' names.
 * 0, or 1 (said). */
static int hypothesis_classes(const char *manifest, sl_split split, const char *model_path,
                              const char *classes, char **names, int *n, sl_feature_config *grid)
{
    char err[SL_ERR_LEN];
    if (model_path && classes)
        return cli_usage_error("--classes: --model's classes are used (give one or the other)");
    if (classes) { /* as train reads its --classes: each name as label files' are kept */
        char *list = sl_label_list_kept(classes);
        const char *split[SL_MAX_CLASSES];
        int k = 0;
        if (!list || train_cli_split_classes(list, split, &k)) {
            free(list);
            return cli_usage_error("--classes: expected a,b,c (1..%d names, %d bytes at most)",
                             SL_MAX_CLASSES, SL_MAX_CLASS_NAME);
        }
        /* a name twice would be a row and column no frame can reach; train refuses it too,
         * in two Unicode forms as well */
        for (int i = 0; i < k; i++)
            for (int j = 0; j < i; j++)
                if (sl_text_same(split[i], split[j])) {
                    char shown[SL_SHOWN_LEN];
                    sl_text_shown(shown, split[i]);
                    int rc = cli_usage_error("--classes: class '%s' is listed twice", shown);
                    free(list);
                    return rc;
                }
        for (; *n < k; (*n)++)
            if (!(names[*n] = strdup(split[*n]))) {
                free(list);
                return cli_error("out of memory");
            }
        free(list);
        return 0;
    }
    if (!model_path)
        return sl_manifest_classes(manifest, split, names, n, err, sizeof err) ? cli_error("%s", err)
                                                                               : 0;
    sl_model *m = sl_model_load(model_path, err, sizeof err);
    if (!m)
        return cli_error("%s", err);
    *grid = *sl_model_feature_config(m);
    int rc = 0;
    for (; *n < sl_model_get_config(m)->n_classes && !rc; (*n)++)
        if (!(names[*n] = strdup(sl_model_class_name(m, *n))))
            rc = cli_error("out of memory");
    sl_model_free(m);
    return rc;
}


/* --hyp: label files scored against the manifest's references. */
static int eval_hypotheses(const char *hyp, const char *manifest, const sl_eval_options *base,
                           const char *model_path, const char *classes, const char *gap,
                           const char *ref_gap, const char *sweep, const char *events, double event_collar, int json,
                           file_list *files)
{
    char err[SL_ERR_LEN];
    char *names[SL_MAX_CLASSES];
    int n = 0;
    sl_feature_config grid;
    sl_feature_config_default(&grid);
    sl_eval_options opt = *base;
    opt.features = &grid;
    sl_metrics mt = {0};
    int rc = hypothesis_classes(manifest, base->split, model_path, classes, names, &n, &grid);
    /* a gap's class must be one of the classes: a misspelt one would be a class
     * of its own that every gap frame is scored as; one the references lack
     * (speech-only references: the rest non-speech) is listed with --classes */
    const char *gaps[2] = {gap, ref_gap}, *opts[2] = {"--hyp-gap", "--ref-gap"};
    int *gap_classes[2] = {&opt.gap_class, &opt.ref_gap_class};
    for (int g = 0; g < 2 && !rc; g++) {
        if (!gaps[g])
            continue;
        *gap_classes[g] = sl_text_index((const char *const *)names, n, gaps[g]);
        if (*gap_classes[g] >= 0)
            continue;
        char list[SL_ERR_LEN / 2] = "";
        for (int k = 0, used = 0; k < n && used < (int)sizeof list; k++)
            used += snprintf(list + used, sizeof list - (size_t)used, "%s%s", k ? "," : "",
                             names[k]);
        rc = classes || model_path
                 ? cli_usage_error("%s: '%s' is not one of the classes", opts[g], gaps[g])
                 : cli_usage_error("%s: '%s' is not one of the classes the references name "
                                   "(%s); to score it as one of its own, list them all: "
                                   "--classes %s,%s", opts[g], gaps[g], list, list, gaps[g]);
    }
    sl_sweep *sw = NULL;
    if (!rc && sweep) { /* from the frames tables' probabilities */
        if (!(sw = calloc(1, sizeof *sw)))
            rc = cli_error("out of memory");
        else if ((sw->target = sl_text_index((const char *const *)names, n, sweep)) < 0)
            rc = cli_usage_error("--sweep: '%s' is not one of the classes", sweep);
        opt.sweep = sw;
    }
    if (!rc && n == 0)
        rc = cli_error("%s: its label files name no class", manifest);
    if (!rc && events)
        rc = events_for(events, (const char *const *)names, n, event_collar,
                        frame_seconds(&grid), &opt.events);
    if (!rc && sw && opt.events && sl_sweep_init_events(sw, opt.events))
        rc = cli_error("out of memory");
    if (!rc && sl_metrics_init(&mt, n))
        rc = cli_error("out of memory");
    if (!rc && sl_score_manifest(manifest, hyp, (const char *const *)names, n, &opt, &mt, err,
                                 sizeof err))
        /* a hypothesis's class the references never name: a typo, or one to list */
        rc = cli_error("%s%s", err, !classes && !model_path &&
                                        (strstr(err, "unknown class") ||
                                         strstr(err, "' is not one of the classes")) /* frames */
                                        ? "; a class the references lack: --classes names "
                                          "every class, the hypotheses' too"
                                        : "");
    if (!rc)
        rc = report(&mt, (const char *const *)names, "labels", hyp, manifest, json,
                    files->keep ? files : NULL);
    if (!rc)
        say_unscored(files);
    if (!rc && sw)
        rc = report_sweep(sw, sweep, json);
    if (!rc && opt.events)
        rc = report_events(opt.events, (const char *const *)names, frame_seconds(&grid), json);
    if (sw)
        sl_sweep_release(sw);
    free(sw);
    free(opt.events);
    sl_metrics_free(&mt);
    for (int k = 0; k < n; k++)
        free(names[k]);
    return rc;
}

int sl_cmd_eval(int argc, char **argv)
{
    enum { O_MODEL = 256, O_MANIFEST, O_SPLIT, O_CACHE, O_NOCACHE, O_THREADS, O_CLIP, O_JSON, O_HELP,
           O_HYP, O_GAP, O_CLASSES, O_COLLAR, O_PER_FILE, O_SWEEP, O_EVENTS, O_EVENT_COLLAR, O_UEM, O_REF_GAP,
           O_HYP_ROOT };
    static const struct option opts[] = {
        {"model", required_argument, 0, O_MODEL}, {"manifest", required_argument, 0, O_MANIFEST},
        {"split", required_argument, 0, O_SPLIT}, {"cache-dir", required_argument, 0, O_CACHE},
        {"no-cache", no_argument, 0, O_NOCACHE}, {"threads", required_argument, 0, O_THREADS},
        {"clip-edges", no_argument, 0, O_CLIP}, {"json", no_argument, 0, O_JSON},
        {"help", no_argument, 0, O_HELP}, {"hyp", required_argument, 0, O_HYP},
        {"hyp-gap", required_argument, 0, O_GAP}, {"classes", required_argument, 0, O_CLASSES},
        {"collar", required_argument, 0, O_COLLAR}, {"per-file", no_argument, 0, O_PER_FILE},
        {"sweep", required_argument, 0, O_SWEEP}, {"events", required_argument, 0, O_EVENTS},
        {"event-collar", required_argument, 0, O_EVENT_COLLAR}, {"uem", required_argument, 0, O_UEM},
        {"hyp-root", required_argument, 0, O_HYP_ROOT},
        {"ref-gap", required_argument, 0, O_REF_GAP},
        CLI_DECODER_LONG_OPTIONS,
        {0, 0, 0, 0}};
    const char *ref_gap = NULL;
    const char *model_path = NULL, *manifest = NULL, *cache_dir = NULL, *hyp = NULL, *gap = NULL,
               *classes = NULL, *sweep = NULL, *events = NULL;
    int no_cache = 0, json = 0, per_file = 0;
    cli_decoder decoder; /* with any of its options: label's defaults and those */
    cli_decoder_init(&decoder);
    double event_collar = 0.2;
    int event_collar_given = 0;
    long threads = 1;
    sl_eval_options opt;
    sl_eval_options_default(&opt);
    file_list files = {0};
    optind = 1;
    opterr = 0;
    int o;
    while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (o) {
        case O_MODEL: model_path = optarg; break;
        case O_MANIFEST: manifest = optarg; break;
        case O_SPLIT:
            if (sl_split_parse(optarg, &opt.split))
                return cli_usage_error("--split: '%s' is not train, valid or test (or "
                                       "validation, val or dev for valid)", optarg);
            break;
        case O_CACHE: cache_dir = optarg; break;
        case O_NOCACHE: no_cache = 1; break;
        case O_CLIP: opt.clip_edges = 1; break;
        case O_PER_FILE: per_file = 1; break;
        case O_SWEEP: sweep = optarg; break;
        case O_EVENTS: events = optarg; break;
        case O_EVENT_COLLAR:
            event_collar_given = 1;
            if (cli_parse_float("--event-collar", optarg, 0.0, 60.0, &event_collar))
                return 2;
            break;
        case O_JSON: json = 1; break;
        case O_HYP: hyp = optarg; break;
        case O_GAP: gap = optarg; break;
        case O_CLASSES: classes = optarg; break;
        case O_UEM: opt.uem = optarg; break;
        case O_HYP_ROOT: opt.hyp_root = optarg; break;
        case O_REF_GAP: ref_gap = optarg; break;
        case O_COLLAR:
            if (cli_parse_float("--collar", optarg, 0.0, 60.0, &opt.collar_s))
                return 2;
            break;
        case O_THREADS:
            if (cli_parse_int("--threads", optarg, 1, SL_MAX_THREADS, &threads))
                return 2;
            break;
        case O_HELP:
        case 'h':
            usage(stdout);
            return 0;
        default:
            if (cli_is_decoder_code(o)) {
                if (cli_parse_decoder((cli_decoder_option)(o - CLI_DECODER_CODE), optarg,
                                      CLI_OPTION_AS_GIVEN(argv), &decoder))
                    return 2;
                break;
            }
            return cli_usage_error("eval: %s (see seqlabel eval --help)", cli_refused_option(argv, opts));
        }
    }
    if (optind < argc)
        return cli_usage_error("eval: unexpected argument '%s' (options only; see --help)", argv[optind]);
    if (event_collar_given && !events)
        return cli_usage_error("eval: --event-collar goes with --events");
    if (no_cache && cache_dir)
        return cli_usage_error("eval: --cache-dir and --no-cache: one or the other");
    if (opt.hyp_root && !hyp)
        return cli_usage_error("eval: --hyp-root goes with --hyp");
    if (opt.uem && events) /* sed_eval's events have no scoring regions */
        return cli_usage_error("eval: --uem scores frames, not --events");
    opt.num_threads = (int)threads;
    opt.on_file = keep_file;
    opt.user = &files;
    files.keep = per_file;
    if (hyp && decoder.given)
        return cli_usage_error("eval: the decoder's options go with --model (label files are "
                         "decoded already)");
    if (cli_decoder_check(&decoder, sweep != NULL))
        return 2;
    if (cache_dir && !cache_dir[0])
        return cli_usage_error("eval: --cache-dir: an empty name (--no-cache keeps features in "
                               "memory only)");
    if (hyp && manifest) {
        int rc = eval_hypotheses(hyp, manifest, &opt, model_path, classes, gap, ref_gap, sweep,
                                 events, event_collar, json, &files);
        file_list_free(&files);
        return rc;
    }
    if (gap || classes)
        return cli_usage_error("eval: %s goes with --hyp", gap ? "--hyp-gap" : "--classes");
    if (!model_path || !manifest) {
        return cli_usage_error("eval: --model (or --hyp) and --manifest are required (see "
                               "seqlabel eval --help)");
    }
    char cache_buf[4096];
    if (!no_cache && !cache_dir)
        cache_dir = train_cli_default_cache(cache_buf, sizeof cache_buf);
    if (no_cache)
        cache_dir = NULL;
    opt.cache_dir = cache_dir;
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_load(model_path, err, sizeof err);
    if (!m)
        return cli_error("%s", err);
    sl_blas_set_threads(1); /* the encoder's own threads do the splitting */
    sl_metrics mt;
    if (sl_metrics_init(&mt, sl_model_get_config(m)->n_classes)) {
        sl_model_free(m);
        return cli_error("out of memory");
    }
    sl_sweep *sw = NULL;
    int rc = 0;
    if (sweep) {
        sw = calloc(1, sizeof *sw);
        if (!sw)
            rc = -1, snprintf(err, sizeof err, "out of memory");
        else if ((sw->target = sl_model_class_index(m, sweep)) < 0)
            rc = cli_usage_error("--sweep: %s has no class '%s'", model_path, sweep);
        opt.sweep = sw;
    }
    const char *names[SL_MAX_CLASSES];
    const int n_classes = sl_model_get_config(m)->n_classes;
    for (int k = 0; k < n_classes; k++)
        names[k] = sl_model_class_name(m, k);
    const double frame_s = frame_seconds(sl_model_feature_config(m));
    if (rc == 0 && events)
        rc = events_for(events, names, n_classes, event_collar, frame_s, &opt.events);
    if (rc == 0 && sw && opt.events && sl_sweep_init_events(sw, opt.events))
        rc = -1, snprintf(err, sizeof err, "out of memory");
    if (rc == 0 && ref_gap && (opt.ref_gap_class = sl_model_class_index(m, ref_gap)) < 0)
        rc = cli_usage_error("--ref-gap: %s has no class '%s'", model_path, ref_gap);
    if (rc == 0)
        rc = cli_decoder_classes(&decoder, m, model_path);
    /* with decoder options the sweep is the decoder's, its class the target */
    if (rc == 0 && sw && decoder.given && decoder.cfg.target_class >= 0 &&
        decoder.cfg.target_class != sw->target)
        rc = cli_usage_error("eval: --sweep %s decodes %s as the target class, not --target's %s",
                             sweep, sweep, names[decoder.cfg.target_class]);
    if (rc == 0 && sw && decoder.given &&
        sl_sweep_init_decoder(sw, &decoder.cfg, n_classes, 1.0 / frame_s, err, sizeof err))
        rc = -1;
    opt.decoder = decoder.given ? &decoder.cfg : NULL;
    if (rc == 0 && cache_dir) /* a cache entry being written goes with a signal's end */
        cli_catch_signals();
    int uncached = 0, why = 0;
    if (rc == 0)
        rc = sl_evaluate_manifest_cached(m, manifest, &opt, &mt, &uncached, &why, err, sizeof err);
    if (rc == 0 && uncached) /* as train says it: the next run computes them again */
        fprintf(stderr, "seqlabel eval: %d %s features could not be cached in %s (%s): "
                "computed again next run\n", uncached, uncached == 1 ? "file's" : "files'",
                cache_dir,
                strerror(why));
    if (rc == 0)
        rc = report(&mt, names, "model", model_path, manifest, json, per_file ? &files : NULL);
    if (rc == 0)
        say_unscored(&files);
    if (rc == 0 && sw)
        rc = report_sweep(sw, sweep, json);
    if (rc == 0 && opt.events)
        rc = report_events(opt.events, names, frame_s, json);
    if (sw)
        sl_sweep_release(sw);
    free(sw);
    free(opt.events);
    sl_metrics_free(&mt);
    file_list_free(&files);
    sl_model_free(m);
    return rc < 0 ? cli_error("%s", err) : rc;
}
