/* `seqlabel train`: trains a labeler from a manifest of audio files and
 * Audacity label tracks (the library's sl_train; docs/training.md). Options
 * map one to one onto sl_train_config; this file only parses them. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seqlabel.h"
#include "common/output_file.h"
#include "common/text.h"
#include "model/model_internal.h" /* sl_model_new_class_refused */
#include "model/label_files.h" /* sl_label_list_kept */
#include "model/trainer_internal.h" /* sl_train_init_check */
#include "tools/cli.h"
#include "tools/train_cli.h"

static void usage(FILE *fp)
{
    fprintf(fp,
        "usage: seqlabel train --manifest TRAIN.tsv --out MODEL [OPTIONS]\n"
        "\n"
        "Trains a frame labeler. TRAIN.tsv: one line per file,\n"
        "audio<TAB>labels[<TAB>split] (split: train, valid or test, validation, val or\n"
        "dev for valid; relative paths from the manifest's folder); labels are Audacity\n"
        "label tracks 'start<TAB>end<TAB>class', Praat TextGrids (x.TextGrid: its first\n"
        "interval tier; x.TextGrid#words: the tier 'words'; empty intervals label\n"
        "nothing), RTTM files (x.rttm: the audio's turns by speaker; x.rttm#speech:\n"
        "every turn of class speech), subtitles (x.vtt WebVTT, x.srt SubRip: each cue's\n"
        "text its class), JSON Lines segments (x.jsonl, as seqlabel label --format jsonl\n"
        "--segments writes them), CSV tables (x.csv: start,end,label columns, as\n"
        "--format csv writes them), or '=class' when the whole file is one class\n"
        "(clip-level labels). A folder serves as a manifest too: each audio file below\n"
        "it labelled by the label file of its name beside it (x.txt, x.TextGrid, x.rttm,\n"
        "x.vtt, x.srt, x.jsonl, x.csv), else by the folder it lies in (dog/001.wav:\n"
        "=dog), below a first folder train/, valid/ or test/ that gives its split.\n"
        "Per-epoch metrics go to standard output, progress to standard error.\n"
        "docs/training.md has the details.\n"
        "\n"
        "data:\n"
        "  --manifest FILE         training manifest or folder (its 'valid' lines or\n"
        "                          folder validate) [required]\n"
        "  --valid FILE            validation manifest or folder (all but 'test')\n"
        "  --valid-share P         hold out this share of the manifest's entries that\n"
        "                          have no split for validation, chosen by their path\n"
        "                          (the same ones every run; a folder without valid/)\n"
        "  --valid-group RE        with --valid-share: hold out by source, the files\n"
        "                          whose paths hold one key going one way; the key is\n"
        "                          what RE (POSIX extended) matches, its first (group)\n"
        "                          if it has one: 'spk[0-9]+' a speaker's files,\n"
        "                          '([0-9]+)-[^/]*$' the number a file name begins with\n"
        "  --out MODEL             the best model by validation macro F1 (written\n"
        "                          atomically)\n"
        "  --classes a,b,c         class names and order [the label names, first seen\n"
        "                          first; with --init, the model's]\n"
        "  --ref-gap CLASS         the class of time no label segment covers (labels\n"
        "                          that mark speech alone, as x.rttm#speech: the rest\n"
        "                          non-speech), as eval's; a class the labels do not\n"
        "                          name is added after theirs [such time is not\n"
        "                          trained on]\n"
        "  --cache-dir DIR         feature cache [$XDG_CACHE_HOME or ~/.cache,\n"
        "                          /seqlabel/features]\n"
        "  --no-cache              keep features in memory only\n"
        "  --init MODEL            fine-tune: start from MODEL's weights, shape, features\n"
        "                          and classes (a fresh optimiser and schedule; the model\n"
        "                          and feature options below then cannot be given, except\n"
        "                          --layers and --d-ff: larger ones grow MODEL, its new\n"
        "                          layers and units starting at zero output:\n"
        "                          docs/training.md); with --classes naming other\n"
        "                          classes, MODEL's encoder under a new output layer\n"
        "                          (your own classes from the default model's hearing;\n"
        "                          a class MODEL has keeps its weights)\n"
        "  --teacher MODEL         distil: MODEL (repeat for an ensemble, up to 8) labels\n"
        "                          every training window; its posteriors are mixed into\n"
        "                          the targets\n"
        "  --distill-weight W      target = (1 - W) label + W teachers' posteriors [0.5]\n"
        "  --teacher-clean         the teachers hear each window unaugmented (no gain,\n"
        "                          noise, channel or masks) while the student hears it\n"
        "                          augmented\n"
        "\n"
        "features (stored in the model, used as-is at inference):\n"
        "  --sample-rate HZ        [16000]\n"
        "  --mel-bins N            [80]\n"
        "  --mfcc N                cepstral coefficients instead of log-mel [0: log-mel]\n"
        "\n"
        "model:\n"
        "  --d-model N             [128]\n"
        "  --heads N               [4]\n"
        "  --layers N              [4]\n"
        "  --d-ff N                [512]\n"
        "  --activation relu|gelu  [relu]\n"
        "  --norm post|pre         [post]\n"
        "  --band L,R              attention reaches L frames back, R ahead (-1: no\n"
        "                          limit) [-1,-1]\n"
        "  --window T              training crop length in frames; also a new model's\n"
        "                          streaming window (left context T/4, lookahead T/8)\n"
        "                          [400; with --init, MODEL's streaming window]\n"
        "\n"
        "optimisation:\n"
        "  --epochs N              [20]\n"
        "  --steps N               total steps, overrides --epochs\n"
        "  --batch N               [16]\n"
        "  --lr X                  [1e-3]\n"
        "  --warmup N              steps [5%% of the steps, at most 500]\n"
        "  --schedule cosine|linear\n"
        "                          [cosine]\n"
        "  --min-lr-ratio X        [0.05]\n"
        "  --weight-decay X        [0.01]\n"
        "  --clip X                global gradient norm, 0: off [1]\n"
        "  --class-weights         weigh the loss by inverse class frequency\n"
        "  --augment-gain DB       random gain in [-DB, DB] per window (log-mel only)\n"
        "  --augment-freq-mask N   two bands of up to N feature bins per window set to\n"
        "                          the mean (SpecAugment) [0: off]\n"
        "  --augment-time-mask N   two spans of up to N frames per window set to the\n"
        "                          mean, labels kept [0: off]\n"
        "  --augment-lowpass P     share P of the windows low-passed at a cutoff uniform\n"
        "                          in 3-7.5 kHz (at 16 kHz) with a 16-bit noise floor\n"
        "                          above it, labels kept (log-mel only) [0: off]\n"
        "  --augment-8bit P        share P of the windows floored as 8-bit audio (48 dB\n"
        "                          below full scale; with --augment-lowpass, below the\n"
        "                          cutoff), labels kept (log-mel only) [0: off]\n"
        "  --augment-eq DB         every window coloured by a bass shelf (corner\n"
        "                          100-500 Hz) and a treble shelf (1.5-6 kHz at 16 kHz)\n"
        "                          of gains uniform in [-DB, DB], labels kept (log-mel\n"
        "                          only) [0: off]\n"
        "  --clip-edges            crops only inside files and validation windows cut\n"
        "                          short at file edges (as seqlabel trained before\n"
        "                          2026-11-30); default: crops also reach past file\n"
        "                          edges, filled with the model's silence frame, as the\n"
        "                          labeler's windows do\n"
        "  --noise-list FILE       noise audio files, one path a line: mixed into windows\n"
        "  --snr-range A,B         their SNR in dB, uniform in [A, B] [0,20]\n"
        "  --noise-prob P          share of windows that get noise [0.5]\n"
        "  --seed N                [1]\n"
        "  --threads N             the batch's windows split between threads; N files'\n"
        "                          features computed at once [1]\n"
        "  The same seed, settings and thread count give the same model.\n"
        "\n"
        "checkpoints:\n"
        "  --checkpoint PATH       weights, AdamW moments, generator state and step,\n"
        "                          written after each epoch (temp file + rename: never\n"
        "                          half-written); one already there needs --resume\n"
        "  --checkpoint-every N    also every N steps\n"
        "  --resume                continue from --checkpoint exactly (fresh start if\n"
        "                          absent)\n"
        "  --stop-after N          leave after step N with a checkpoint\n"
        "  -q, --quiet             no progress lines, nor notes of files left out (no\n"
        "                          labelled frame, shorter than a window) or not cached\n"
        "  -h, --help              this text\n"
        "  Ctrl-C, SIGTERM, a soft CPU-time limit (SIGXCPU) or a batch queue's warning\n"
        "  (SIGUSR1, SIGUSR2: SLURM's --signal): a checkpoint after the current step,\n"
        "  then the end, exit status 128 + the signal's number (in the last step, or\n"
        "  --stop-after's, the run ends as it would have; Ctrl-C or SIGTERM twice: the\n"
        "  end at once).\n");
}

/* Ctrl-C (or SIGTERM) asks the trainer to checkpoint after the current step
 * and stop; a second one ends the process at once (the last checkpoint stays
 * intact either way: it is only ever replaced by rename). Holds the first
 * signal's number: the exit status is 128 + it, as a shell reports an end by
 * that signal, so that a batch script tells "stopped as asked" from a failure. */
static volatile int interrupted;

/* The second signal may come in the middle of a save: the model's and the
 * checkpoint's temporary files go with it (cli_end_by_signal). */
static void on_signal(int sig)
{
    /* a soft CPU-time limit (ulimit -t, a batch queue's) sends SIGXCPU again
     * each second until the hard one kills: only the first counts; and a
     * warning (SLURM's --signal=USR1@60) asks for the end, never the end at once */
    if ((sig == SIGXCPU || sig == SIGUSR1 || sig == SIGUSR2) && interrupted)
        return;
    if (interrupted)
        cli_end_by_signal(sig);
    interrupted = sig;
}

enum {
    O_MANIFEST = 256, O_VALID, O_OUT, O_CLASSES, O_CACHE, O_NOCACHE, O_RATE, O_MEL, O_MFCC,
    O_DMODEL, O_HEADS, O_LAYERS, O_DFF, O_ACT, O_NORM, O_BAND, O_WINDOW, O_EPOCHS, O_STEPS,
    O_BATCH, O_LR, O_WARMUP, O_SCHEDULE, O_MINLR, O_WD, O_CLIP, O_CW, O_GAIN, O_SEED, O_THREADS,
    O_CKPT, O_CKPT_EVERY, O_RESUME, O_STOP, O_QUIET, O_HELP, O_NOISE, O_SNR, O_NOISE_PROB,
    O_FMASK, O_TMASK, O_LOWPASS, O_BITS8, O_EQ, O_TEACHER_CLEAN, O_INIT, O_TEACHER, O_DISTILL, O_EDGES,
    O_VALID_SHARE, O_VALID_GROUP, O_REF_GAP
};

int sl_cmd_train(int argc, char **argv)
{
    static const struct option opts[] = {
        {"manifest", required_argument, 0, O_MANIFEST}, {"valid", required_argument, 0, O_VALID},
        {"valid-share", required_argument, 0, O_VALID_SHARE},
        {"valid-group", required_argument, 0, O_VALID_GROUP}, {"out", required_argument, 0, O_OUT}, {"classes", required_argument, 0, O_CLASSES},
        {"ref-gap", required_argument, 0, O_REF_GAP},
        {"cache-dir", required_argument, 0, O_CACHE}, {"no-cache", no_argument, 0, O_NOCACHE},
        {"sample-rate", required_argument, 0, O_RATE}, {"mel-bins", required_argument, 0, O_MEL},
        {"mfcc", required_argument, 0, O_MFCC}, {"d-model", required_argument, 0, O_DMODEL},
        {"heads", required_argument, 0, O_HEADS}, {"layers", required_argument, 0, O_LAYERS},
        {"d-ff", required_argument, 0, O_DFF}, {"activation", required_argument, 0, O_ACT},
        {"norm", required_argument, 0, O_NORM}, {"band", required_argument, 0, O_BAND},
        {"window", required_argument, 0, O_WINDOW}, {"epochs", required_argument, 0, O_EPOCHS},
        {"steps", required_argument, 0, O_STEPS}, {"batch", required_argument, 0, O_BATCH},
        {"lr", required_argument, 0, O_LR}, {"warmup", required_argument, 0, O_WARMUP},
        {"schedule", required_argument, 0, O_SCHEDULE},
        {"min-lr-ratio", required_argument, 0, O_MINLR},
        {"weight-decay", required_argument, 0, O_WD}, {"clip", required_argument, 0, O_CLIP},
        {"class-weights", no_argument, 0, O_CW}, {"augment-gain", required_argument, 0, O_GAIN},
        {"augment-freq-mask", required_argument, 0, O_FMASK},
        {"augment-time-mask", required_argument, 0, O_TMASK},
        {"augment-lowpass", required_argument, 0, O_LOWPASS},
        {"augment-8bit", required_argument, 0, O_BITS8},
        {"augment-eq", required_argument, 0, O_EQ},
        {"clip-edges", no_argument, 0, O_EDGES},
        {"seed", required_argument, 0, O_SEED}, {"threads", required_argument, 0, O_THREADS},
        {"checkpoint", required_argument, 0, O_CKPT},
        {"checkpoint-every", required_argument, 0, O_CKPT_EVERY},
        {"resume", no_argument, 0, O_RESUME}, {"stop-after", required_argument, 0, O_STOP},
        {"quiet", no_argument, 0, O_QUIET}, {"help", no_argument, 0, O_HELP},
        {"noise-list", required_argument, 0, O_NOISE}, {"snr-range", required_argument, 0, O_SNR},
        {"noise-prob", required_argument, 0, O_NOISE_PROB}, {"init", required_argument, 0, O_INIT},
        {"teacher", required_argument, 0, O_TEACHER},
        {"teacher-clean", no_argument, 0, O_TEACHER_CLEAN},
        {"distill-weight", required_argument, 0, O_DISTILL},
        {0, 0, 0, 0}};
    sl_train_config c;
    sl_train_config_default(&c);
    c.report = stdout;
    char *class_buf = NULL;
    int no_cache = 0;
    const char *cache_dir = NULL;
    const char *shape_option = NULL; /* the first model or feature option given */
    int distill_set = 0;
    const char *noise_option = NULL; /* the last noise mixing option given */
    long v;
    double d;
    optind = 1;
    opterr = 0;
    int o;
    int li = 0;
    while ((o = getopt_long(argc, argv, "hq", opts, &li)) != -1) {
        const char *a = optarg;
        int bad = 0;
        if (!shape_option && o != O_LAYERS && o != O_DFF &&
            ((o >= O_RATE && o <= O_MFCC) || (o >= O_DMODEL && o <= O_BAND)))
            shape_option = opts[li].name;
        switch (o) {
        case O_INIT: c.init_path = a; break;
        case O_TEACHER:
            if (c.n_teachers == SL_MAX_TEACHERS)
                bad = cli_error("--teacher: at most %d teachers", SL_MAX_TEACHERS);
            else
                c.teacher_paths[c.n_teachers++] = a;
            break;
        case O_TEACHER_CLEAN: c.teacher_clean = 1; break;
        case O_DISTILL: bad = cli_parse_float("--distill-weight", a, 0.0, 1.0, &d); c.distill_weight = (float)d; distill_set = 1; break;
        case O_MANIFEST: c.train_manifest = a; break;
        case O_VALID: c.valid_manifest = a; break;
        case O_VALID_SHARE:
            bad = cli_parse_float("--valid-share", a, 0.0, 0.9, &d);
            c.valid_share = (float)d;
            break;
        case O_VALID_GROUP: c.valid_group = a; break;
        case O_REF_GAP: c.gap_class = a; break;
        case O_OUT: c.out_path = a; break;
        case O_CLASSES:
            free(class_buf);
            class_buf = sl_label_list_kept(a); /* (as label files' names are kept) */
            if (!class_buf || train_cli_split_classes(class_buf, c.class_names, &c.n_classes)) {
                free(class_buf);
                return cli_usage_error("--classes: expected a,b,c (1..%d names, %d bytes at most)",
                                 SL_MAX_CLASSES, SL_MAX_CLASS_NAME);
            }
            break;
        case O_CACHE: cache_dir = a; break;
        case O_NOCACHE: no_cache = 1; break;
        case O_RATE: bad = cli_parse_int("--sample-rate", a, SL_MIN_SAMPLE_RATE, SL_MAX_SAMPLE_RATE, &v); c.features.sample_rate = (int)v; break;
        case O_MEL: bad = cli_parse_int("--mel-bins", a, SL_MIN_MEL_BINS, SL_MAX_MEL_BINS, &v); c.features.num_mel_bins = (int)v; break;
        case O_MFCC: bad = cli_parse_int("--mfcc", a, 0, 1024, &v); c.features.num_ceps = (int)v; break;
        case O_DMODEL: bad = cli_parse_int("--d-model", a, 2, SL_MAX_DIM, &v); c.model.d_model = (int)v; break;
        case O_HEADS: bad = cli_parse_int("--heads", a, 1, SL_MAX_HEADS, &v); c.model.n_heads = (int)v; break;
        case O_LAYERS: bad = cli_parse_int("--layers", a, 1, SL_MAX_LAYERS, &v); c.model.n_layers = c.grow_layers = (int)v; break;
        case O_DFF: bad = cli_parse_int("--d-ff", a, 1, SL_MAX_DIM, &v); c.model.d_ff = c.grow_d_ff = (int)v; break;
        case O_ACT:
            if (!strcmp(a, "relu")) c.model.activation = SL_ACT_RELU;
            else if (!strcmp(a, "gelu")) c.model.activation = SL_ACT_GELU;
            else bad = cli_error("--activation: '%s' is not relu or gelu", a);
            break;
        case O_NORM:
            if (!strcmp(a, "post")) c.model.norm_first = 0;
            else if (!strcmp(a, "pre")) c.model.norm_first = 1;
            else bad = cli_error("--norm: '%s' is not post or pre", a);
            break;
        case O_BAND:
            if (train_cli_parse_pair(a, &c.model.band_left, &c.model.band_right))
                bad = cli_error("--band: expected L,R (frames, -1 = no limit), got '%s'", a);
            break;
        case O_WINDOW: bad = cli_parse_int("--window", a, 1, SL_MAX_WINDOW, &v); c.window = (int)v; break;
        case O_EPOCHS: bad = cli_parse_int("--epochs", a, 1, 1000000, &v); c.epochs = (int)v; break;
        case O_STEPS: bad = cli_parse_int("--steps", a, 1, 1000000000, &v); c.max_steps = v; break;
        case O_BATCH: bad = cli_parse_int("--batch", a, 1, 65536, &v); c.batch = (int)v; break;
        case O_LR: bad = cli_parse_float("--lr", a, 1e-9, 10.0, &d); c.lr = (float)d; break;
        case O_WARMUP: bad = cli_parse_int("--warmup", a, 0, 1000000000, &v); c.warmup = (int)v; break;
        case O_SCHEDULE:
            if (!strcmp(a, "cosine")) c.schedule = SL_SCHEDULE_COSINE;
            else if (!strcmp(a, "linear")) c.schedule = SL_SCHEDULE_LINEAR;
            else bad = cli_error("--schedule: '%s' is not cosine or linear", a);
            break;
        case O_MINLR: bad = cli_parse_float("--min-lr-ratio", a, 0.0, 1.0, &d); c.min_lr_ratio = (float)d; break;
        case O_WD: bad = cli_parse_float("--weight-decay", a, 0.0, 10.0, &d); c.weight_decay = (float)d; break;
        case O_CLIP: bad = cli_parse_float("--clip", a, 0.0, 1e9, &d); c.clip = (float)d; break;
        case O_CW: c.class_weights = 1; break;
        case O_FMASK: bad = cli_parse_int("--augment-freq-mask", a, 0, 512, &v); c.augment_freq_mask = (int)v; break;
        case O_TMASK: bad = cli_parse_int("--augment-time-mask", a, 0, 4096, &v); c.augment_time_mask = (int)v; break;
        case O_EDGES: c.clip_edges = 1; break;
        case O_LOWPASS: bad = cli_parse_float("--augment-lowpass", a, 0.0, 1.0, &d); c.augment_lowpass = (float)d; break;
        case O_BITS8: bad = cli_parse_float("--augment-8bit", a, 0.0, 1.0, &d); c.augment_8bit = (float)d; break;
        case O_EQ: bad = cli_parse_float("--augment-eq", a, 0.0, 20.0, &d); c.augment_eq_db = (float)d; break;
        case O_GAIN: bad = cli_parse_float("--augment-gain", a, 0.0, 60.0, &d); c.augment_gain_db = (float)d; break;
        case O_SEED: bad = cli_parse_int("--seed", a, 0, 0x7fffffffL, &v); c.seed = (uint64_t)v; break;
        case O_THREADS: bad = cli_parse_int("--threads", a, 1, SL_MAX_THREADS, &v); c.num_threads = (int)v; break;
        case O_CKPT: c.checkpoint_path = a; break;
        case O_CKPT_EVERY: bad = cli_parse_int("--checkpoint-every", a, 0, 1000000000, &v); c.checkpoint_every = (int)v; break;
        case O_RESUME: c.resume = 1; break;
        case O_STOP: bad = cli_parse_int("--stop-after", a, 1, 1000000000, &v); c.stop_after = v; break;
        case O_QUIET:
        case 'q': c.progress = 0; break;
        case O_NOISE: c.noise_list = a; break;
        case O_SNR: {
            char *end;
            double lo = strtod(a, &end), hi = 0.0;
            int ok = end != a && *end == ',';
            if (ok) {
                const char *b = end + 1;
                hi = strtod(b, &end);
                ok = end != b && *end == '\0' && lo >= -60.0 && lo <= hi && hi <= 100.0;
            }
            if (!ok)
                bad = cli_error("--snr-range: expected A,B dB with -60 <= A <= B <= 100, got '%s'", a);
            c.snr_min_db = (float)lo;
            c.snr_max_db = (float)hi;
            noise_option = "snr-range";
            break;
        }
        case O_NOISE_PROB:
            bad = cli_parse_float("--noise-prob", a, 0.0, 1.0, &d);
            c.noise_prob = (float)d;
            noise_option = "noise-prob";
            break;
        case O_HELP:
        case 'h':
            usage(stdout);
            free(class_buf);
            return 0;
        default:
            free(class_buf);
            return cli_usage_error("train: %s (see seqlabel train --help)", cli_refused_option(argv, opts));
        }
        if (bad) {
            free(class_buf);
            return 2;
        }
    }
    if (optind < argc) {
        free(class_buf);
        return cli_usage_error("train: unexpected argument '%s' (options only; see --help)", argv[optind]);
    }
    if (!c.train_manifest || !c.out_path) {
        free(class_buf);
        return cli_usage_error("train: --manifest and --out are required (see seqlabel train "
                               "--help)");
    }
    if (!strcmp(c.out_path, "-")) { /* not a file named "-" either */
        free(class_buf);
        return cli_usage_error("train: --out -: a model is written to a file, not to standard "
                               "output; name one");
    }
    if (no_cache && cache_dir) {
        free(class_buf);
        return cli_usage_error("train: --cache-dir and --no-cache: one or the other");
    }
    const char *const named[3][2] = {{"--out", c.out_path}, {"--checkpoint", c.checkpoint_path},
                                     {"--cache-dir", cache_dir}};
    for (int k = 0; k < 3; k++)
        if (named[k][1] && !named[k][1][0]) {
            free(class_buf);
            return cli_usage_error("train: %s: an empty name%s", named[k][0],
                                   k == 2 ? " (--no-cache keeps features in memory only)" : "");
        }
    /* the model and the checkpoint are saved again and again as training goes
     * (each better model, every --checkpoint-every steps): through a descriptor
     * (/dev/stdout, /dev/fd/N) they would follow one another, a file no reader
     * takes */
    for (int k = 0; k < 2; k++) {
        sl_output o;
        if (!named[k][1] || sl_output_plan(&o, named[k][1], NULL, 0))
            continue; /* (a name it refuses: said where it is written) */
        const int through = o.through >= 0;
        sl_output_free(&o);
        if (through) {
            free(class_buf);
            return cli_usage_error("train: %s %s: %s is saved more than once as training goes, "
                                   "and through a descriptor the saves would follow one another: "
                                   "name a file", named[k][0], named[k][1],
                                   k ? "the checkpoint" : "the model");
        }
    }
    if (noise_option && !c.noise_list) {
        free(class_buf);
        return cli_usage_error("train: --%s goes with --noise-list (the noise it mixes in)", noise_option);
    }
    if ((distill_set || c.teacher_clean) && c.n_teachers == 0) {
        free(class_buf);
        return cli_usage_error("train: --%s needs at least one --teacher",
                         distill_set ? "distill-weight" : "teacher-clean");
    }
    if (c.init_path && shape_option) {
        free(class_buf);
        return cli_usage_error("train: --%s cannot be given with --init: fine-tuning keeps the shape and "
                         "features of %s", shape_option, c.init_path);
    }
    if (!c.init_path) /* without --init, --layers and --d-ff shape a new model */
        c.grow_layers = c.grow_d_ff = 0;
    char err[SL_ERR_LEN];
    if (sl_train_config_check(&c, err, sizeof err)) { /* options that do not go together */
        free(class_buf);
        return cli_usage_error("train: %s", err);
    }
    /* --init: a class the model lacks is a new model's, named by the rule for
     * those, and the window and masks must fit the model; a wrong command line,
     * said before any data is read */
    if (c.init_path) {
        sl_model *init = sl_model_load(c.init_path, err, sizeof err);
        int bad = init ? sl_model_new_class_refused(init, c.class_names, c.n_classes) : -1;
        int rc = 0;
        char shown[SL_SHOWN_LEN];
        if (bad >= 0) {
            sl_text_shown(shown, c.class_names[bad]);
            rc = cli_usage_error("train: --classes: new class '%s': %s", shown,
                                 sl_class_name_flaw(c.class_names[bad], 1));
        }
        else if (init && sl_train_init_check(&c, init, err, sizeof err))
            rc = cli_usage_error("train: %s", err);
        sl_model_free(init); /* unreadable: said where the run reads it */
        if (rc) {
            free(class_buf);
            return rc;
        }
    }
    char cache_buf[4096];
    if (!no_cache)
        c.cache_dir = cache_dir ? cache_dir : train_cli_default_cache(cache_buf, sizeof cache_buf);
    /* the command's own handlers first (an output opened later would install
     * them over these), replaced here */
    cli_catch_signals();
    /* SIGINT, SIGTERM, a hang-up (the terminal closed), a soft CPU-time limit
     * (SIGXCPU) and a batch queue's warning before its time limit (SIGUSR1 or
     * SIGUSR2, whichever SLURM's --signal names; by default either ends a
     * process at once) checkpoint and stop; a hang-up the command was started
     * to ignore (nohup) stays ignored */
    enum { N_SIGS = 6 };
    const int sigs[N_SIGS] = {SIGINT, SIGTERM, SIGHUP, SIGXCPU, SIGUSR1, SIGUSR2};
    struct sigaction sa, old[N_SIGS];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < N_SIGS; i++) {
        sigaction(sigs[i], NULL, &old[i]);
        if (sigs[i] != SIGHUP || old[i].sa_handler != SIG_IGN)
            sigaction(sigs[i], &sa, NULL);
    }
    interrupted = 0;
    c.interrupt = &interrupted;
    int rc = sl_train(&c, err, sizeof err);
    for (int i = 0; i < N_SIGS; i++)
        sigaction(sigs[i], &old[i], NULL);
    free(class_buf);
    if (rc == SL_TRAIN_STOPPED && interrupted) {
        cli_error("%s", err);
        return 128 + interrupted;
    }
    if (rc)
        return cli_error("%s", err);
    return 0;
}
