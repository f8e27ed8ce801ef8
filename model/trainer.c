/* The training loop behind `seqlabel train`: data (train_data.c), random
 * crops with optional gain augmentation, the training step (train_step.h:
 * forward + backward + clipping + AdamW), the learning-rate schedule,
 * per-epoch validation in the labeler's windows (train_eval.c), the best model
 * and exact-resume checkpoints (train_checkpoint.c).
 *
 * Determinism: every random choice comes from one seeded generator whose
 * state is in the checkpoint, and the draws per step do not depend on timing;
 * so a seed and a thread count give one model, also across a stop + resume. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common/blas_threads.h"
#include "common/memory.h"
#include "model/layers_backward.h"
#include "model/train_step.h"
#include "model/model_internal.h"
#include "model/trainer_internal.h"
#include "model/label_files.h"
#include "common/errors.h"
#include "common/text.h"

/* ---- generator: xoshiro256** seeded through splitmix64 ---------------------- */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void sl_rng_seed(sl_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t sl_rng_next(sl_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

uint64_t sl_rng_below(sl_rng *r, uint64_t n)
{
    uint64_t threshold = (0 - n) % n; /* rejection keeps it exactly uniform */
    for (;;) {
        uint64_t x = sl_rng_next(r);
        if (x >= threshold)
            return x % n;
    }
}

double sl_rng_uniform(sl_rng *r) { return (double)(sl_rng_next(r) >> 11) * 0x1.0p-53; }

/* ---- configuration ---------------------------------------------------------- */

void sl_train_config_default(sl_train_config *c)
{
    memset(c, 0, sizeof *c);
    sl_model_config_default(&c->model);
    sl_feature_config_default(&c->features);
    c->window = 0; /* 400, or the streaming window of the model started from */
    c->batch = 16;
    c->epochs = 20;
    c->lr = 1e-3f;
    c->warmup = -1;
    c->schedule = SL_SCHEDULE_COSINE;
    c->min_lr_ratio = 0.05f;
    c->snr_min_db = 0.0f;
    c->snr_max_db = 20.0f;
    c->noise_prob = 0.5f;
    c->distill_weight = 0.5f;
    c->weight_decay = 0.01f;
    c->beta1 = 0.9f;
    c->beta2 = 0.999f;
    c->adam_eps = 1e-8f;
    c->clip = 1.0f;
    c->seed = 1;
    c->num_threads = 1;
    c->progress = 1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double lr_at(const sl_train_config *c, int64_t step, int64_t total, int64_t warmup)
{
    if (warmup > 0 && step <= warmup)
        return c->lr * (double)step / (double)warmup;
    double p = total > warmup ? (double)(step - warmup) / (double)(total - warmup) : 1.0;
    if (p > 1.0)
        p = 1.0;
    double lo = c->min_lr_ratio;
    double f = c->schedule == SL_SCHEDULE_LINEAR ? 1.0 - (1.0 - lo) * p
                                                 : lo + (1.0 - lo) * 0.5 * (1.0 + cos(M_PI * p));
    return c->lr * f;
}

/* Gain g multiplies every power spectrum value by g^2, so a log-mel energy
 * (and Kaldi's log energy) moves by exactly 2 ln g, except where the floor
 * (FLT_EPSILON before the log) applies: a floored value (digital silence)
 * stays floored. So for log-mel features without dither, gain augmentation
 * is exact in the feature domain and cached features can be reused. (Exact
 * for the samples as they are: it moves their 16-bit quantisation floor with
 * them, where gained samples rounded to 16 bits again, as the labeler feeds
 * a model, would keep the floor in place; the model so sees floors up to
 * the gain's range around the 16-bit one.) MFCCs
 * (DCT + lifter of the logs) and dither (noise that does not scale) break
 * this, and are refused with gain augmentation. */
static int gain_exact(const sl_feature_config *f)
{
    return f->num_ceps == 0 && f->dither == 0.0f && (!f->use_energy || f->energy_floor == 0.0f);
}

typedef struct {
    const sl_dataset *ds;
    const float *mean, *inv_std;
    int F, T, B;
    float gain_db;
    int freq_mask, time_mask;
    float log_floor; /* features at or below it were floored */
    const sl_noise_set *noise; /* NULL: no noise mixing */
    float snr_min, snr_max, noise_prob;
    sl_augmenter *aug;
    const float *silence; /* F: window frames outside the file, or NULL: zeros */
    float lowpass_prob, bits8_prob, eq_db;
    sl_band_limiter *band; /* NULL: none of band-limit, 8-bit and EQ augmentation */
    float *x_clean;        /* NULL, or B x T x F: each window as its file holds it */
} batch_maker;

/* Window frames outside the file: the silence frame (so the model learns the
 * windows the labeler runs at a stream's edges), unlabeled. */
static void fill_outside(const batch_maker *bm, float *xb, int32_t *yb, int from, int to)
{
    for (int t = from; t < to; t++) {
        if (bm->silence)
            memcpy(xb + (size_t)t * bm->F, bm->silence, (size_t)bm->F * sizeof *xb);
        else
            memset(xb + (size_t)t * bm->F, 0, (size_t)bm->F * sizeof *xb);
        yb[t] = -1;
    }
}

/* A window's first L frames of features (F values each) normalised in place. */
static void normalise(const batch_maker *bm, float *x, int L)
{
    for (int t = 0; t < L; t++)
        for (int j = 0; j < bm->F; j++)
            x[(size_t)t * bm->F + j] = (x[(size_t)t * bm->F + j] - bm->mean[j]) * bm->inv_std[j];
}

/* Draws ch's noise floor's first frame unless *drawn says it has been. */
static void draw_floor_once(sl_rng *rng, sl_band_channel *ch, int *drawn)
{
    if (*drawn)
        return;
    ch->floor_off = (int64_t)sl_rng_below(rng, (uint64_t)sl_band_limit_floor_frames());
    *drawn = 1;
}

/* Every window draws, in this order: its crop, its gain (with gain
 * augmentation), whether it is low-passed, its cutoff and its noise floor's
 * first frame (with band-limit augmentation), whether it is stored in 8 bits
 * (with 8-bit augmentation; also its floor's first frame without band-limit
 * augmentation), its shelves' gains and corners (with EQ augmentation; also
 * its floor's first frame without either before), whether it gets noise, which
 * noise, where in it and at which SNR (with a noise list), then its masks
 * (with masking). The count of draws never depends on data values,
 * so the generator state at a step is a function of the step alone. */
static int make_batch(const batch_maker *bm, sl_rng *rng, float *x, int32_t *y, char *err,
                      size_t errlen)
{
    const int F = bm->F, T = bm->T;
    const sl_dataset *ds = bm->ds;
    for (int b = 0; b < bm->B; b++) {
        int fi;
        int64_t start;
        sl_dataset_crop(ds, (int64_t)sl_rng_below(rng, (uint64_t)ds->crop_starts_cum[ds->n_files]),
                        &fi, &start);
        float shift = 0.0f;
        double db = 0.0;
        if (bm->gain_db > 0.0f) {
            db = (2.0 * sl_rng_uniform(rng) - 1.0) * bm->gain_db;
            shift = (float)(db * log(10.0) / 10.0); /* 2 ln(10^(db/20)) */
        }
        /* The window's channel; its noise floor's first frame is drawn once,
         * by the first of the channel augmentations in use. */
        sl_band_channel ch = {0};
        int floor_drawn = 0;
        if (bm->lowpass_prob > 0.0f) {
            const int lowpass = sl_rng_uniform(rng) < bm->lowpass_prob;
            const double cutoff = sl_band_limit_cutoff(bm->band, sl_rng_uniform(rng));
            ch.cutoff_hz = lowpass ? cutoff : 0.0;
            draw_floor_once(rng, &ch, &floor_drawn);
        }
        if (bm->bits8_prob > 0.0f) {
            ch.bits8 = sl_rng_uniform(rng) < bm->bits8_prob;
            draw_floor_once(rng, &ch, &floor_drawn);
        }
        if (bm->eq_db > 0.0f) {
            double u[4];
            for (int i = 0; i < 4; i++)
                u[i] = sl_rng_uniform(rng);
            sl_band_eq_draw(bm->band, bm->eq_db, u, &ch);
            draw_floor_once(rng, &ch, &floor_drawn);
        }
        const sl_data_file *df = &ds->files[fi];
        /* The file's frames [a, a + L) fill the window from frame o on. */
        const int64_t a = start > 0 ? start : 0;
        const int64_t end = start + T < df->ff.n_frames ? start + T : df->ff.n_frames;
        const int64_t L = end - a;
        const int o = (int)(a - start);
        float *xb = x + (size_t)b * T * F;
        int32_t *yb = y + (size_t)b * T;
        fill_outside(bm, xb, yb, 0, o);
        fill_outside(bm, xb, yb, o + (int)L, T);
        if (bm->x_clean) {
            /* The window unaugmented, for the teachers: the same frames outside
             * the file, the file's cached features inside. */
            float *xc = bm->x_clean + (size_t)b * T * F;
            memcpy(xc, xb, (size_t)T * F * sizeof *xc);
            memcpy(xc + (size_t)o * F, df->ff.feats + (size_t)a * F,
                   (size_t)L * F * sizeof *xc);
            normalise(bm, xc + (size_t)o * F, (int)L);
        }
        /* The file's features go to the window as they are, recomputed with noise
         * or gained; then band-limited, then normalised, all in place. */
        float *xf = xb + (size_t)o * F;
        int mixed = 0;
        if (bm->noise) {
            double u = sl_rng_uniform(rng);
            int k = (int)sl_rng_below(rng, (uint64_t)bm->noise->n);
            const sl_feature_file *nf = &bm->noise->files[k];
            int64_t off = (int64_t)sl_rng_below(rng, (uint64_t)nf->n_samples);
            float snr = bm->snr_min + (float)sl_rng_uniform(rng) * (bm->snr_max - bm->snr_min);
            if (u < bm->noise_prob) {
                if (sl_augment_frames(bm->aug, df->pcm.feats, df->pcm.n_samples, a, (int)L,
                                      (float)pow(10.0, db / 20.0), nf->feats, nf->n_samples, off,
                                      snr, xf, err, errlen))
                    return -1;
                mixed = 1;
            }
        }
        for (int t = 0; t < (int)L && !mixed; t++) {
            const float *f = df->ff.feats + (size_t)(a + t) * F;
            float *xo = xf + (size_t)t * F;
            for (int j = 0; j < F; j++) {
                float v = f[j];
                if (shift != 0.0f && v > bm->log_floor) {
                    v += shift;
                    if (v < bm->log_floor)
                        v = bm->log_floor;
                }
                xo[j] = v;
            }
        }
        for (int t = 0; t < (int)L; t++)
            yb[o + t] = df->labels[a + t];
        if (ch.cutoff_hz > 0.0 || ch.bits8 || bm->eq_db > 0.0f)
            sl_band_limit(bm->band, xf, (int)L, &ch, bm->log_floor);
        normalise(bm, xf, (int)L);
        if (bm->freq_mask > 0 || bm->time_mask > 0)
            sl_augment_masks(xf, (int)L, F, bm->freq_mask, bm->time_mask, rng);
    }
    return 0;
}

/* FNV-1a over n more bytes. */
static uint64_t fnv1a(uint64_t h, const void *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= ((const unsigned char *)bytes)[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* h with a file's resolved path (the name as given when it cannot be resolved). */
static uint64_t fnv1a_file_name(uint64_t h, const char *path)
{
    char *real = realpath(path, NULL);
    const char *name = real ? real : path;
    h = fnv1a(h, name, strlen(name));
    free(real);
    return h;
}

/* The training frames' labels, file by file in the split's order: a run
 * resumed on relabelled data would go on learning other targets from the
 * same steps. */
static uint64_t labels_hash(const sl_dataset *d)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < d->n_files; i++)
        h = fnv1a(h, d->files[i].labels, (size_t)d->files[i].ff.n_frames * sizeof(int32_t));
    return h;
}

/* The hash of the settings a run depends on, and of its training labels.
 * legacy 1: as checkpoints made before the labels counted have it; 2: as
 * those made before 2026-12-06 have it (the noise list's name as typed, no
 * teachers). So those still resume. */
static uint64_t settings_hash(const sl_train_config *c, int64_t total, int64_t train_frames,
                              uint64_t labels, int legacy)
{
    double v[] = {c->window, c->batch, (double)total, c->lr, c->warmup, c->schedule,
                  c->min_lr_ratio, c->weight_decay, c->beta1, c->beta2, c->adam_eps, c->clip,
                  c->class_weights, c->augment_gain_db, (double)c->seed, c->num_threads,
                  (double)train_frames, c->noise_list != NULL, c->snr_min_db, c->snr_max_db,
                  c->noise_prob, c->augment_freq_mask, c->augment_time_mask};
    uint64_t h = fnv1a(1469598103934665603ull, v, sizeof v);
    /* A fine-tuning run adds one more value, so the checkpoints of runs from
     * scratch made before --init existed still resume. */
    const double init = 1.0;
    if (c->init_path)
        h = fnv1a(h, &init, sizeof init);
    /* So does distillation: its teacher count and weight. */
    const double distill[2] = {c->n_teachers, c->distill_weight};
    if (c->n_teachers > 0)
        h = fnv1a(h, distill, sizeof distill);
    /* the noise list as the file it is, however it is named (./n.lst, a link) */
    if (c->noise_list)
        h = legacy == 2 ? fnv1a(h, c->noise_list, strlen(c->noise_list))
                        : fnv1a_file_name(h, c->noise_list);
    /* Crops past the files' edges (the default since 2026-11-30) add one more, so
     * runs made before resume with clip_edges. */
    const double edges = 1.0;
    if (!c->clip_edges)
        h = fnv1a(h, &edges, sizeof edges);
    /* So does band-limit augmentation (since 2026-12-02). */
    const double lowpass = c->augment_lowpass;
    if (c->augment_lowpass > 0.0f)
        h = fnv1a(h, &lowpass, sizeof lowpass);
    /* And 8-bit augmentation (since 2026-12-03), after it. */
    const double bits8 = c->augment_8bit;
    if (c->augment_8bit > 0.0f)
        h = fnv1a(h, &bits8, sizeof bits8);
    /* And EQ augmentation (since 2026-12-03, later), after them. */
    const double eq = c->augment_eq_db;
    if (c->augment_eq_db > 0.0f)
        h = fnv1a(h, &eq, sizeof eq);
    /* And teachers hearing the unaugmented windows. */
    const double clean = 1.0;
    if (c->teacher_clean)
        h = fnv1a(h, &clean, sizeof clean);
    /* And which teachers (since 2026-12-06): another teacher is another run. */
    for (int t = 0; t < c->n_teachers && legacy != 2; t++)
        h = fnv1a_file_name(h, c->teacher_paths[t]);
    /* And the labels (since 2026-12-06, later). */
    if (!legacy)
        h = fnv1a(h, &labels, sizeof labels);
    return h;
}

static void fmt_duration(char *buf, size_t len, double s)
{
    long t = s > 0 ? (long)(s + 0.5) : 0;
    if (t >= 3600)
        snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else
        snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
}

/* Everything sl_train owns, freed in one place. */
typedef struct {
    sl_manifest train_man, valid_man;
    int have_valid_man;
    char *names[SL_MAX_CLASSES];
    int n_names;
    sl_dataset train, valid;
    sl_model *m;
    sl_train_step *step;
    float *grads, *adam_m, *adam_v, *x, *x_clean, *weights;
    int32_t *y;
    uint8_t *decay;
    sl_metrics metrics;
    sl_noise_set noise;
    sl_augmenter *aug;
    sl_band_limiter *band;
    float *silence; /* the silence frame, or NULL with clip_edges */
    sl_teachers teachers;
} train_run;

static void run_free(train_run *r)
{
    sl_manifest_free(&r->train_man);
    if (r->have_valid_man)
        sl_manifest_free(&r->valid_man);
    for (int i = 0; i < r->n_names; i++)
        free(r->names[i]);
    sl_dataset_free(&r->train);
    sl_dataset_free(&r->valid);
    sl_train_step_free(r->step);
    sl_model_free(r->m);
    free(r->grads);
    free(r->adam_m);
    free(r->adam_v);
    free(r->x);
    free(r->x_clean);
    free(r->weights);
    free(r->y);
    free(r->decay);
    sl_metrics_free(&r->metrics);
    sl_noise_set_free(&r->noise);
    sl_augmenter_free(r->aug);
    sl_band_limiter_free(r->band);
    free(r->silence);
    sl_teachers_free(&r->teachers);
}

/* A fresh run's model: the config's shape, the data's feature size and
 * classes, a streaming window equal to the crop length (the labeler then sees
 * what training saw). */
/* The crop length: the one given, or before sl_train knows the model (config
 * checks), a new model's. */
static int crop_window(const sl_train_config *c)
{
    return c->window ? c->window : SL_TRAIN_WINDOW_NEW;
}

static void new_model_config(const sl_train_config *c, int n_classes, sl_model_config *mc)
{
    const int window = crop_window(c);
    *mc = c->model;
    mc->n_features = sl_feature_dim(&c->features);
    mc->n_classes = n_classes;
    if (mc->max_window < window)
        mc->max_window = window;
    mc->stream_window = window;
    mc->stream_left = window / 4;
    mc->stream_lookahead = window / 8;
}

/* SpecAugment's masks: at most half the feature bins and half the window. */
static int check_masks(const sl_train_config *c, char *err, size_t errlen)
{
    const int bins = sl_feature_dim(&c->features);
    const int window = crop_window(c);
    if (c->augment_freq_mask < 0 || c->augment_freq_mask > bins / 2 ||
        c->augment_time_mask < 0 || c->augment_time_mask > window / 2)
        return sl_fail(err, errlen, "masks: at most half the %d feature bins and half the "
                       "%d-frame window", bins, window);
    return 0;
}

/* Crops as long as the windows the model labels in: the options' window, else
 * the streaming window of the model started from; its features (options for
 * others are refused). */
static void resolve_from_model(sl_train_config *c, const sl_model *m)
{
    if (!c->window)
        c->window = sl_model_get_config(m)->stream_window;
    c->features = *sl_model_feature_config(m);
}

/* A window longer than model m (read from `name`) takes. */
static int model_refuses(const sl_train_config *c, const sl_model *m, const char *name, char *err,
                         size_t errlen)
{
    const int max_window = sl_model_get_config(m)->max_window;
    if (max_window < c->window)
        return sl_fail(err, errlen, "%s: the model takes windows of at most %d frames, not %d",
                       name, max_window, c->window);
    return 0;
}

int sl_train_init_check(const sl_train_config *c, const sl_model *init, char *err, size_t errlen)
{
    sl_train_config own = *c;
    resolve_from_model(&own, init);
    return model_refuses(&own, init, c->init_path, err, errlen) ||
           check_masks(&own, err, errlen) ? -1 : 0;
}

int sl_train_config_check(const sl_train_config *c, char *err, size_t errlen)
{
    if (!c->train_manifest || !c->out_path)
        return sl_fail(err, errlen, "training needs a manifest and an output model path");
    if (c->window < 0 || c->window > SL_MAX_WINDOW || c->batch < 1 || c->batch > 65536)
        return sl_fail(err, errlen, "window must be 0 (the default) to %d frames and batch "
                       "1..65536", SL_MAX_WINDOW);
    if (c->num_threads < 1 || c->num_threads > SL_MAX_THREADS)
        return sl_fail(err, errlen, "training threads %d is outside 1..%d", c->num_threads,
                       SL_MAX_THREADS);
    if (c->epochs < 1 && c->max_steps <= 0)
        return sl_fail(err, errlen, "epochs must be at least 1");
    if (!(c->lr > 0.0f) || !(c->min_lr_ratio >= 0.0f && c->min_lr_ratio <= 1.0f) ||
        !(c->weight_decay >= 0.0f) || !(c->clip >= 0.0f) || !(c->beta1 >= 0.0f && c->beta1 < 1.0f) ||
        !(c->beta2 >= 0.0f && c->beta2 < 1.0f) || !(c->adam_eps > 0.0f))
        return sl_fail(err, errlen, "optimiser settings out of range (lr > 0, 0 <= betas < 1, ...)");
    if ((c->grow_layers > 0 || c->grow_d_ff > 0) && !c->init_path)
        return sl_fail(err, errlen, "growing a model needs the model to start from (init)");
    if (c->resume && !c->checkpoint_path)
        return sl_fail(err, errlen, "resuming needs a checkpoint path");
    if (c->stop_after > 0 && !c->checkpoint_path) /* it would leave with nothing saved */
        return sl_fail(err, errlen, "--stop-after leaves with a checkpoint: give --checkpoint PATH");
    if (c->checkpoint_every > 0 && !c->checkpoint_path)
        return sl_fail(err, errlen, "checkpoints every %d steps need a checkpoint path",
                       c->checkpoint_every);
    if (c->augment_gain_db < 0.0f || c->augment_gain_db > 60.0f)
        return sl_fail(err, errlen, "gain augmentation must be 0..60 dB");
    if (c->augment_gain_db > 0.0f && !gain_exact(&c->features))
        return sl_fail(err, errlen, "gain augmentation needs log-mel features without dither "
                                 "(it is applied to cached features; docs/training.md)");
    if (!(c->augment_lowpass >= 0.0f && c->augment_lowpass <= 1.0f))
        return sl_fail(err, errlen, "band-limit augmentation: a share of windows in [0, 1] expected");
    /* sl_band_limiter_new's own rule, said before any data is read */
    if ((c->augment_lowpass > 0.0f || c->augment_8bit > 0.0f || c->augment_eq_db > 0.0f) &&
        (c->features.num_ceps != 0 || c->features.use_energy || c->features.dither != 0.0f))
        return sl_fail(err, errlen, "band-limit, 8-bit and EQ augmentation need log-mel features "
                                    "without energy or dither (they are applied to cached "
                                    "features; docs/training.md)");
    if (!(c->valid_share >= 0.0f && c->valid_share < 1.0f))
        return sl_fail(err, errlen, "valid share: a share of entries in [0, 1) expected");
    if (c->valid_group && c->valid_share <= 0.0f)
        return sl_fail(err, errlen, "valid group: it chooses what a valid share holds out "
                                    "(give a share too)");
    if (c->valid_group) { /* a pattern regcomp refuses: said before any data is read */
        sl_manifest none = {0};
        char why[SL_ERR_LEN];
        if (sl_manifest_hold_out_groups(&none, c->valid_share, c->valid_group, why, sizeof why) < 0)
            return sl_fail(err, errlen, "valid group: %s", why);
    }
    if (c->valid_share > 0.0f && c->valid_manifest)
        return sl_fail(err, errlen, "valid share: the validation set is the valid manifest's "
                                    "(give one or the other)");
    if (!(c->augment_8bit >= 0.0f && c->augment_8bit <= 1.0f))
        return sl_fail(err, errlen, "8-bit augmentation: a share of windows in [0, 1] expected");
    if (!(c->augment_eq_db >= 0.0f && c->augment_eq_db <= 20.0f))
        return sl_fail(err, errlen, "EQ augmentation: shelf gains of 0..20 dB expected");
    if (c->teacher_clean && c->n_teachers == 0)
        return sl_fail(err, errlen, "teachers on unaugmented windows (teacher_clean) need a teacher");
    /* (an init model's features and window are known once it is read: sl_train
     * checks them then) */
    if (!c->init_path && check_masks(c, err, errlen))
        return -1;
    if (c->noise_list && !(c->snr_min_db <= c->snr_max_db && c->snr_min_db >= -60.0f &&
                           c->snr_max_db <= 100.0f && c->noise_prob >= 0.0f && c->noise_prob <= 1.0f))
        return sl_fail(err, errlen, "noise mixing: SNR range A,B with -60 <= A <= B <= 100 dB and a "
                                 "probability in [0, 1] expected");
    if (c->n_teachers < 0 || c->n_teachers > SL_MAX_TEACHERS ||
        !(c->distill_weight >= 0.0f && c->distill_weight <= 1.0f))
        return sl_fail(err, errlen, "distillation: 0..%d teachers and a weight in [0, 1] expected",
                       SL_MAX_TEACHERS);
    if (c->n_classes < 0 || c->n_classes > SL_MAX_CLASSES)
        return sl_fail(err, errlen, "too many classes");
    for (int i = 0; i < c->n_classes; i++) {
        if (!c->class_names[i])
            return sl_fail(err, errlen, "class %d: no name", i + 1);
        /* a new model's names; with --init, the model's own may be any it
         * holds, and new ones are checked where its output layer is made */
        const char *flaw = sl_class_name_flaw(c->class_names[i], !c->init_path);
        char shown[SL_SHOWN_LEN];
        if (flaw) {
            sl_text_shown(shown, c->class_names[i]);
            return sl_fail(err, errlen, "class %d ('%s'): %s", i + 1, shown, flaw);
        }
    }
    for (int t = 0; t < c->n_teachers && t < SL_MAX_TEACHERS; t++)
        if (!c->teacher_paths[t] || !c->teacher_paths[t][0])
            return sl_fail(err, errlen, "teacher %d: no model file named", t + 1);
    if (c->warmup < -1 || c->checkpoint_every < 0 || c->max_steps < 0 ||
        (c->schedule != SL_SCHEDULE_COSINE && c->schedule != SL_SCHEDULE_LINEAR))
        return sl_fail(err, errlen, "warm-up (-1: 5%% of the steps), checkpoint interval, step "
                       "count and schedule: -1 or more, 0 or more, 0 or more, cosine or linear");
    for (int i = 0; i < c->n_classes; i++)
        for (int j = 0; j < i; j++)
            if (sl_text_same(c->class_names[i], c->class_names[j])) {
                char shown[SL_SHOWN_LEN];
                sl_text_shown(shown, c->class_names[i]);
                return sl_fail(err, errlen, strcmp(c->class_names[i], c->class_names[j])
                                   ? "class '%s' is listed twice (in two Unicode forms, NFC "
                                     "and NFD)" : "class '%s' is listed twice", shown);
            }
    /* a new model's classes are those asked for (an init model's, its own) */
    if (c->gap_class && c->n_classes > 0 && !c->init_path &&
        sl_class_of(c->gap_class, (const char *const *)c->class_names, c->n_classes) < 0)
        return sl_fail(err, errlen, "gap class '%s' is not one of the classes asked for",
                       c->gap_class);
    if (sl_feature_config_validate(&c->features, err, errlen))
        return -1;
    if (c->init_path) /* the shape is the init model's, checked when it is read */
        return 0;
    /* a new model's shape, checked before hours of features rather than after */
    sl_model_config mc;
    new_model_config(c, c->n_classes > 0 ? c->n_classes : 1, &mc);
    char why[SL_ERR_LEN];
    if (sl_model_config_validate(&mc, why, sizeof why))
        return sl_fail(err, errlen, "model shape: %s", why);
    return 0;
}

/* The model for a fresh run (new_model_config), normalised by the training
 * frames. */
static sl_model *new_model(const sl_train_config *c, const sl_dataset *train,
                           const char *const *names, int n_classes, char *err, size_t errlen)
{
    sl_model_config mc;
    new_model_config(c, n_classes, &mc);
    if (sl_model_config_validate(&mc, err, errlen))
        return NULL;
    sl_stats st;
    if (sl_stats_init(&st, mc.n_features)) {
        sl_fail(err, errlen, "out of memory");
        return NULL;
    }
    for (int i = 0; i < train->n_files; i++)
        for (int64_t t = 0; t < train->files[i].ff.n_frames; t++)
            sl_stats_add(&st, train->files[i].ff.feats + (size_t)t * mc.n_features);
    float *mean = malloc((size_t)mc.n_features * sizeof *mean);
    float *istd = malloc((size_t)mc.n_features * sizeof *istd);
    sl_model *m = NULL;
    if (mean && istd) {
        sl_stats_finish(&st, mean, istd);
        m = sl_model_create(&mc, &c->features, mean, istd, names, err, errlen);
        if (m)
            sl_model_init_params(m, c->seed);
    } else {
        sl_fail(err, errlen, "out of memory");
    }
    free(mean);
    free(istd);
    sl_stats_free(&st);
    return m;
}

/* --classes with --init, when they are not the model's own in its order: the
 * model's encoder under an output layer for these classes (model/with_classes.c),
 * each class it has keeping its weights. */
static int init_classes(const sl_train_config *c, sl_model **m, unsigned char *fresh,
                        char *err, size_t errlen)
{
    int same = c->n_classes == 0 || c->n_classes == sl_model_get_config(*m)->n_classes;
    for (int k = 0; same && k < c->n_classes; k++)
        same = sl_text_same(c->class_names[k], sl_model_class_name(*m, k));
    if (same)
        return 0;
    for (int k = 0; k < c->n_classes; k++)
        fresh[k] = sl_model_class_index(*m, c->class_names[k]) < 0;
    char why[SL_ERR_LEN];
    sl_model *g = sl_model_with_classes(*m, c->class_names, c->n_classes, c->seed, why,
                                        sizeof why);
    if (!g)
        return sl_fail(err, errlen, "%s: --classes: %s", c->init_path, why);
    if (c->progress) {
        fprintf(stderr, "seqlabel train: %s: a new output layer for", c->init_path);
        for (int k = 0; k < c->n_classes; k++)
            fprintf(stderr, "%s %s (%s)", k ? "," : "", c->class_names[k],
                    sl_model_class_index(*m, c->class_names[k]) >= 0 ? "kept" : "new");
        fputc('\n', stderr);
    }
    sl_model_free(*m);
    *m = g;
    return 0;
}

/* --init without --classes keeps the model's classes; labels naming another
 * most likely mean classes of one's own, which --classes gives. */
static int check_init_labels(const sl_train_config *c, train_run *r, const sl_manifest *vman,
                             unsigned train_mask, unsigned valid_mask, char *err, size_t errlen)
{
    if (c->n_classes > 0)
        return 0;
    /* the model's own classes: any name it holds */
    if (sl_dataset_collect_classes(&r->train_man, train_mask, 0, r->names, &r->n_names, err,
                                   errlen) ||
        sl_dataset_collect_classes(vman, valid_mask, 0, r->names, &r->n_names, err, errlen))
        return -1;
    const int n = sl_model_get_config(r->m)->n_classes;
    const char *own[SL_MAX_CLASSES];
    for (int j = 0; j < n; j++)
        own[j] = sl_model_class_name(r->m, j);
    for (int k = 0; k < r->n_names; k++) {
        if (sl_class_of(r->names[k], own, n) >= 0)
            continue;
        char have[SL_MAX_CLASSES * (SL_MAX_CLASS_NAME + 1) + 1] = "";
        for (int j = 0; j < n; j++) {
            if (j)
                strcat(have, ",");
            strcat(have, sl_model_class_name(r->m, j));
        }
        return sl_fail(err, errlen, "%s: the labels name class '%s', which %s lacks (its classes: "
                                    "%s); --classes naming every class to train gives the "
                                    "model a new output layer for them",
                       c->train_manifest, r->names[k], c->init_path, have);
    }
    return 0;
}

/* --layers / --d-ff with --init: the starting model grows (model/grow.c). */
static int grow_init(const sl_train_config *c, sl_model **m, char *err, size_t errlen)
{
    if (c->grow_layers <= 0 && c->grow_d_ff <= 0)
        return 0;
    const sl_model_config *mc = sl_model_get_config(*m);
    const int layers = c->grow_layers > 0 ? c->grow_layers : mc->n_layers;
    const int d_ff = c->grow_d_ff > 0 ? c->grow_d_ff : mc->d_ff;
    if (layers == mc->n_layers && d_ff == mc->d_ff) /* the model's own sizes: nothing grows */
        return 0;
    char why[SL_ERR_LEN];
    sl_model *g = sl_model_grow(*m, layers, d_ff, c->seed, why, sizeof why);
    if (!g)
        return sl_fail(err, errlen, "%s: %s", c->init_path, why);
    sl_model_free(*m);
    *m = g;
    return 0;
}

/* A resumed run's model is the checkpoint's, so the options that make a model
 * must be those it was made with, or the run would quietly be that other one's:
 * --classes (in order), and for a run from scratch the shape and the features
 * (with --init those are the init model's; --layers and --d-ff grow it). */
static int check_resumed_model(const sl_train_config *c, const sl_model *m, char *err,
                               size_t errlen)
{
    const sl_model_config *mc = sl_model_get_config(m);
    int same = c->n_classes <= 0 || c->n_classes == mc->n_classes;
    for (int k = 0; same && c->n_classes > 0 && k < c->n_classes; k++)
        same = sl_text_same(c->class_names[k], sl_model_class_name(m, k));
    if (!same)
        return sl_fail(err, errlen, "%s: the checkpoint's model has other classes than --classes "
                       "(resume with the original run's options)", c->checkpoint_path);
    const sl_model_config *w = &c->model;
    if (c->init_path)
        same = (c->grow_layers <= 0 || mc->n_layers == c->grow_layers) &&
               (c->grow_d_ff <= 0 || mc->d_ff == c->grow_d_ff);
    else
        same = mc->d_model == w->d_model && mc->n_heads == w->n_heads &&
               mc->n_layers == w->n_layers && mc->d_ff == w->d_ff &&
               mc->activation == w->activation && mc->norm_first == w->norm_first &&
               mc->qkv_bias == w->qkv_bias && mc->scale_input == w->scale_input &&
               mc->band_left == w->band_left && mc->band_right == w->band_right &&
               /* 4-byte fields, no padding: memcmp compares values (as average.c) */
               !memcmp(sl_model_feature_config(m), &c->features, sizeof c->features);
    if (!same)
        return sl_fail(err, errlen, "%s: the checkpoint's model has another shape or other "
                       "features than these options (d-model, heads, layers, d-ff, activation, "
                       "norm, band, feature options; resume with the original run's)",
                       c->checkpoint_path);
    return 0;
}

static int file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

/* The best model is in out_path: this run saved it, or the run a checkpoint
 * resumed did (to the out_path it had: the same, when the file is there). */
static int best_written(const sl_train_config *c, const sl_train_state *st, int saved)
{
    return saved || (st->best_step > 0 && file_exists(c->out_path));
}
/* What training takes beyond the step's activations (which sl_train_step_new
 * weighs, and has taken by now): each thread's gradient block and score
 * scratch, the gradients, the optimiser's two moments (unless a checkpoint
 * brought them) and the decay mask, the batch's features and labels, and the
 * buffer a model is saved through; weighed before any is made, as pages
 * touched beyond the memory there is bring the OOM killer, not an error. The
 * dataset's features (held or cached) and noise are not weighed. */
static int rest_fits(const sl_train_config *c, size_t np, int F, int have_moments, char *err,
                     size_t errlen)
{
    const double batch = (double)c->batch * c->window;
    /* gradients, decay mask, the moments unless a checkpoint brought them,
     * and a saved model's bytes (sl_model_serialize's buffer) */
    const double need = (double)np * ((have_moments ? 2 : 4) * sizeof(float) + 1) +
                        (double)(c->num_threads - 1) * np * sizeof(float) +
                        (double)c->num_threads * sl_attention_backward_scratch(c->window) *
                            sizeof(float) +
                        batch * F * sizeof(float) * (c->teacher_clean ? 2 : 1) +
                        batch * sizeof(int32_t);
    const double have = sl_memory_available();
    if (have < 0 || need <= have)
        return 0;
    char a[SL_MEMORY_SHOWN], b[SL_MEMORY_SHOWN];
    return sl_fail(err, errlen, "training on %d thread%s needs %s more for gradients, optimiser "
                   "moments and the batch, more than the %s of memory it may "
                   "take (fewer --threads, a smaller --batch or --window, or a smaller model)",
                   c->num_threads, c->num_threads == 1 ? "" : "s",
                   sl_memory_shown_against(a, need, have), sl_memory_shown_against(b, have, need));
}


int sl_train(const sl_train_config *given, char *err, size_t errlen)
{
    if (sl_train_config_check(given, err, errlen))
        return -1;
    sl_train_config own = *given; /* with the window resolved, once the model is known */
    const sl_train_config *c = &own;
    FILE *rep = c->report;
    train_run r;
    memset(&r, 0, sizeof r);
    int rc = -1, lock_fd = -1;
    char *lock_name = NULL; /* the checkpoint's lock, held while the run trains */
    /* Threads are the step's own (whole windows per thread, a fixed summation
     * order: deterministic per thread count) with OpenBLAS on one thread, as
     * two kinds of threads at once oversubscribe the cores. */
    const int blas_threads = sl_blas_threads(); /* the caller's, given back */
    sl_blas_set_threads(1);

    /* Data. */
    const unsigned train_mask = SL_SPLIT_BIT(SL_SPLIT_NONE) | SL_SPLIT_BIT(SL_SPLIT_TRAIN);
    unsigned valid_mask = SL_SPLIT_BIT(SL_SPLIT_VALID);
    const sl_manifest *vman = &r.train_man;
    if (sl_manifest_load(c->train_manifest, &r.train_man, err, errlen))
        goto out;
    if (c->valid_share > 0.0f && !c->valid_manifest) {
        int held = sl_manifest_hold_out_groups(&r.train_man, c->valid_share, c->valid_group,
                                               err, errlen);
        if (held < 0)
            goto out;
        if (held == 0 && sl_manifest_entries_in(&r.train_man, SL_SPLIT_BIT(SL_SPLIT_NONE)) == 0) {
            sl_fail(err, errlen, "%s: --valid-share holds out lines without a split column, and "
                    "every line has one (%d marked valid): leave --valid-share out",
                    c->train_manifest,
                    sl_manifest_entries_in(&r.train_man, SL_SPLIT_BIT(SL_SPLIT_VALID)));
            goto out;
        }
        if (held == 0) {
            sl_fail(err, errlen, "%s: a share of %g held out no entry for validation (%s)",
                    c->train_manifest, (double)c->valid_share,
                    "entries with a split column keep theirs; give a larger share or more entries");
            goto out;
        }
        /* each file (group) is drawn alone, so with few of them the share held
         * out strays from the one asked: said, as the figures rest on it */
        const int drawn = held + sl_manifest_entries_in(&r.train_man, SL_SPLIT_BIT(SL_SPLIT_NONE));
        if (c->progress)
            fprintf(stderr, "seqlabel train: --valid-share %g held out %d of %d entries (%.0f%%)"
                    "%s\n", (double)c->valid_share, held, drawn, 100.0 * held / drawn,
                    c->valid_group ? ", drawn by group" : "");
    }
    if (c->valid_manifest) {
        if (sl_manifest_load(c->valid_manifest, &r.valid_man, err, errlen))
            goto out;
        r.have_valid_man = 1;
        vman = &r.valid_man;
        valid_mask |= SL_SPLIT_BIT(SL_SPLIT_NONE) | SL_SPLIT_BIT(SL_SPLIT_TRAIN);
        /* a validation set asked for and empty would quietly keep the last
         * model instead of the best */
        if (sl_manifest_entries_in(&r.valid_man, valid_mask) == 0) {
            sl_fail(err, errlen, "%s: the validation set is empty (no line without a split "
                    "column or marked 'train' or 'valid')", c->valid_manifest);
            goto out;
        }
    }
    const int n_train_entries = sl_manifest_entries_in(&r.train_man, train_mask);
    if (n_train_entries == 0) {
        sl_fail(err, errlen, "%s: the training split is empty (no line without a split column "
                          "or marked 'train'%s)", c->train_manifest,
                c->valid_share > 0.0f ? ", once --valid-share held its share out: a smaller "
                                        "share, or more files" : "");
        goto out;
    }
    if (sl_train_check_outputs(c, &r.train_man, r.have_valid_man ? &r.valid_man : NULL, err,
                               errlen))
        goto out;
    if (c->checkpoint_path &&
        (lock_fd = sl_checkpoint_lock(c->checkpoint_path, &lock_name, err, errlen)) < 0)
        goto out;

    sl_model *resumed = NULL;
    /* the classes whose outputs start untrained: all of a new model's, the
     * rows --classes adds to an init model's; none of a resumed run's */
    unsigned char fresh[SL_MAX_CLASSES];
    memset(fresh, !c->init_path && !(c->resume && file_exists(c->checkpoint_path)), sizeof fresh);
    sl_train_state st;
    memset(&st, 0, sizeof st);
    int saved = 0; /* this process wrote out_path */
    if (c->resume && file_exists(c->checkpoint_path)) {
        if (sl_checkpoint_load(c->checkpoint_path, &resumed, &r.adam_m, &r.adam_v, &st, err,
                               errlen))
            goto out;
        r.m = resumed;
        if (check_resumed_model(c, r.m, err, errlen))
            goto out;
        if (c->stop_after > 0 && c->stop_after <= st.step) {
            sl_fail(err, errlen, "%s: the checkpoint is at step %lld already, past stop-after "
                    "%lld", c->checkpoint_path, (long long)st.step, (long long)c->stop_after);
            goto out;
        }
    } else if (c->init_path) {
        if (!(r.m = sl_model_load(c->init_path, err, errlen)))
            goto out;
        if (init_classes(c, &r.m, fresh, err, errlen) ||
            check_init_labels(c, &r, vman, train_mask, valid_mask, err, errlen) ||
            grow_init(c, &r.m, err, errlen))
            goto out;
    }
    if (r.m) {
        resolve_from_model(&own, r.m);
        if (model_refuses(c, r.m, resumed ? c->checkpoint_path : c->init_path, err, errlen))
            goto out;
    } else {
        own.window = crop_window(c);
    }
    if (sl_train_config_check(c, err, errlen) || check_masks(c, err, errlen))
        goto out;
    const char *names[SL_MAX_CLASSES];
    int n_classes = 0;
    if (r.m) {
        n_classes = sl_model_get_config(r.m)->n_classes;
        for (int k = 0; k < n_classes; k++)
            names[k] = sl_model_class_name(r.m, k);
    } else if (c->n_classes > 0) {
        n_classes = c->n_classes;
        for (int k = 0; k < n_classes; k++)
            names[k] = c->class_names[k];
    } else {
        if (sl_dataset_collect_classes(&r.train_man, train_mask, 1, r.names, &r.n_names, err,
                                       errlen) ||
            sl_dataset_collect_classes(vman, valid_mask, 1, r.names, &r.n_names, err, errlen))
            goto out;
        /* a gap class the labels never name (a speech-only RTTM's non-speech) */
        if (c->gap_class && sl_class_of(c->gap_class, (const char *const *)r.names, r.n_names) < 0) {
            /* as a label's name is kept (NFC) */
            char *gap = sl_label_name_kept(c->gap_class), shown[SL_SHOWN_LEN];
            const char *flaw = gap ? sl_class_name_flaw(gap, 1) : NULL;
            if (!gap || flaw || r.n_names == SL_MAX_CLASSES) {
                sl_text_shown(shown, c->gap_class);
                sl_fail(err, errlen, "gap class '%s': %s", shown,
                        !gap ? "out of memory" : flaw ? flaw : "one class more than a model holds");
                free(gap);
                goto out;
            }
            r.names[r.n_names++] = gap;
        }
        n_classes = r.n_names;
        for (int k = 0; k < n_classes; k++)
            names[k] = r.names[k];
        if (n_classes < 2) {
            sl_fail(err, errlen, "%s: the labels name %d class%s; training needs at least 2 "
                    "(where the time they leave is a class of its own: --ref-gap CLASS)",
                    c->train_manifest, n_classes, n_classes == 1 ? "" : "es");
            goto out;
        }
    }
    const int gap = c->gap_class ? sl_class_of(c->gap_class, names, n_classes) : -1;
    if (c->gap_class && gap < 0) {
        sl_fail(err, errlen, "gap class '%s' is not one of the %s", c->gap_class,
                r.m ? "model's classes" : "classes asked for");
        goto out;
    }
    const sl_feature_config *fc = r.m ? sl_model_feature_config(r.m) : &c->features;
    if (c->progress)
        fprintf(stderr, "seqlabel train: reading %d training file%s (features cached in %s)\n",
                n_train_entries, n_train_entries == 1 ? "" : "s",
                c->cache_dir ? c->cache_dir : "memory only");
    int loaded = sl_dataset_load_ex(&r.train, &r.train_man, train_mask, fc, c->cache_dir, names,
                                    n_classes, c->progress ? "seqlabel train: training set" : NULL,
                                    c->interrupt, c->num_threads, err, errlen);
    if (loaded == 0)
        loaded = sl_dataset_load_ex(&r.valid, vman, valid_mask, fc, c->cache_dir, names, n_classes,
                                    c->progress ? "seqlabel train: validation set" : NULL,
                                    c->interrupt, c->num_threads, err, errlen);
    if (loaded) {
        rc = loaded == SL_TRAIN_STOPPED ? SL_TRAIN_STOPPED : -1;
        goto out;
    }
    if (gap >= 0) {
        sl_dataset_fill_gaps(&r.train, gap);
        sl_dataset_fill_gaps(&r.valid, gap);
    }
    if (r.train.labeled == 0) {
        sl_fail(err, errlen, "%s: the training files have no labeled frames", c->train_manifest);
        goto out;
    }
    /* A class no training frame holds is one the model cannot learn (a typo's
     * twin, a class of the validation labels alone, or the rest of labels that
     * mark one class), unless teachers give it soft targets; an init model's
     * class has learnt already (a fine-tune on speech alone keeps music). */
    const int soft_targets = c->n_teachers > 0 && c->distill_weight > 0.0f;
    for (int k = 0; k < n_classes && !soft_targets; k++)
        if (r.train.class_frames[k] == 0 && fresh[k]) {
            const char *first_short = NULL;
            const int n_short = sl_dataset_frameless(&r.train, &first_short);
            char shorts[SL_ERR_LEN / 2] = "";
            if (n_short)
                snprintf(shorts, sizeof shorts, " (%d training file%s shorter than one analysis "
                         "window, %.6g ms, give%s no frame: %s%s)", n_short,
                         n_short == 1 ? "" : "s", (double)fc->frame_length_ms,
                         n_short == 1 ? "s" : "", first_short, n_short > 1 ? ", ..." : "");
            /* a class of the validation labels alone (a typo there): said where */
            char where[SL_ERR_LEN / 2], in_valid[SL_ERR_LEN / 2 + 64] = "";
            if (!sl_dataset_class_where(&r.train_man, train_mask, names[k], where, sizeof where) &&
                sl_dataset_class_where(vman, valid_mask, names[k], where, sizeof where))
                snprintf(in_valid, sizeof in_valid, " (only the validation labels name it: %s)",
                         where);
            sl_fail(err, errlen, "%s: no training frame is of class '%s'%s%s, so the model could "
                    "not learn it: give it labelled time, leave it out of the classes, or, "
                    "where the labels mark some classes and the rest is '%s', give that rest "
                    "its class (--ref-gap %s)", c->train_manifest, names[k], shorts, in_valid,
                    names[k], names[k]);
            goto out;
        }
    /* validation on no frame would score 0 at every step and keep the first */
    if (r.valid.n_files > 0 && r.valid.labeled == 0) {
        sl_fail(err, errlen, "%s: the validation files have no labeled frames",
                c->valid_manifest ? c->valid_manifest : c->train_manifest);
        goto out;
    }

    if (c->noise_list) {
        if (c->progress)
            fprintf(stderr, "seqlabel train: reading samples for noise mixing\n");
        if (sl_noise_set_load(&r.noise, c->noise_list, fc->sample_rate, c->cache_dir, err, errlen) ||
            sl_dataset_load_pcm(&r.train, fc->sample_rate, c->cache_dir, err, errlen) ||
            !(r.aug = sl_augmenter_new(fc, c->window, err, errlen)))
            goto out;
    }
    if ((c->augment_lowpass > 0.0f || c->augment_8bit > 0.0f || c->augment_eq_db > 0.0f) &&
        !(r.band = sl_band_limiter_new(fc, err, errlen)))
        goto out;

    /* Model and optimiser. */
    if (!r.m && !(r.m = new_model(c, &r.train, names, n_classes, err, errlen)))
        goto out;
    const sl_model_config *mc = sl_model_get_config(r.m);
    const size_t np = sl_model_num_params(r.m);
    const int F = mc->n_features, T = c->window, B = c->batch;
    /* Crops inside the files (clip_edges), or also past their edges, where they
     * hold the silence frame: the windows the labeler runs at a stream's edges. */
    const int left = c->clip_edges ? 0 : mc->stream_left < T - 1 ? mc->stream_left : T - 1;
    if (sl_dataset_prepare_crops(&r.train, T, left, c->clip_edges ? 0 : T - 1 - left) ||
        (!c->clip_edges && !(r.silence = malloc((size_t)F * sizeof *r.silence)))) {
        sl_fail(err, errlen, "out of memory");
        goto out;
    }
    if (r.silence && sl_model_silence_frame(r.m, r.silence, err, errlen))
        goto out;
    r.step = sl_train_step_new(r.m, B, T, err, errlen);
    if (!r.step || rest_fits(c, np, F, r.adam_m != NULL, err, errlen) ||
        sl_train_step_set_threads(r.step, c->num_threads, err, errlen))
        goto out;
    if (c->n_teachers > 0) {
        if (sl_teachers_load(&r.teachers, c->teacher_paths, c->n_teachers, r.m, B, T,
                             c->num_threads, err, errlen))
            goto out;
        sl_train_step_set_soft_targets(r.step, r.teachers.soft, c->distill_weight);
    }
    r.grads = malloc(np * sizeof *r.grads);
    if (!r.adam_m)
        r.adam_m = calloc(np, sizeof *r.adam_m);
    if (!r.adam_v)
        r.adam_v = calloc(np, sizeof *r.adam_v);
    r.x = malloc((size_t)B * T * F * sizeof *r.x);
    if (c->teacher_clean)
        r.x_clean = malloc((size_t)B * T * F * sizeof *r.x_clean);
    r.y = malloc((size_t)B * T * sizeof *r.y);
    r.decay = malloc(np);
    if (!r.grads || !r.adam_m || !r.adam_v || !r.x || (c->teacher_clean && !r.x_clean) || !r.y ||
        !r.decay ||
        sl_metrics_init(&r.metrics, n_classes)) {
        sl_fail(err, errlen, "out of memory");
        goto out;
    }
    sl_model_decay_mask(r.m, r.decay);
    if (c->class_weights) {
        /* Inverse frequency, normalised so a balanced set gets weights of 1. */
        r.weights = malloc((size_t)n_classes * sizeof *r.weights);
        if (!r.weights) {
            sl_fail(err, errlen, "out of memory");
            goto out;
        }
        int present = 0;
        for (int k = 0; k < n_classes; k++)
            present += r.train.class_frames[k] > 0;
        for (int k = 0; k < n_classes; k++)
            r.weights[k] = r.train.class_frames[k] > 0
                               ? (float)((double)r.train.labeled /
                                         ((double)present * (double)r.train.class_frames[k]))
                               : 1.0f;
    }

    const int64_t per_step = (int64_t)B * T;
    const int64_t spe = (r.train.frames + per_step - 1) / per_step > 0
                            ? (r.train.frames + per_step - 1) / per_step
                            : 1;
    const int64_t total = c->max_steps > 0 ? c->max_steps : (int64_t)c->epochs * spe;
    const int64_t n_epochs = (total + spe - 1) / spe;
    const int64_t warmup = c->warmup >= 0 ? c->warmup : (total / 20 < 500 ? total / 20 : 500);
    const uint64_t labels = labels_hash(&r.train);
    const uint64_t hash = settings_hash(c, total, r.train.frames, labels, 0);
    if (resumed) {
        if (st.settings_hash != hash &&
            st.settings_hash != settings_hash(c, total, r.train.frames, labels, 1) &&
            st.settings_hash != settings_hash(c, total, r.train.frames, labels, 2)) {
            sl_fail(err, errlen, "%s: the checkpoint was made with other training settings or data "
                              "(batch, window, steps, optimiser, seed, threads, augmentation, noise list, "
                              "teachers, training frames, their labels): resume with the options "
                              "and manifests it was started with%s; to train a finished run on "
                              "(more steps, another rate), start a new run from its model with "
                              "--init",
                 c->checkpoint_path, c->init_path && !given->window
                                         ? " (a fine-tune begun before 2026-12-06 without "
                                           "--window: add --window 400, its crops then)"
                                         : "");
            goto out;
        }
        /* the settings (its total of steps among them) are this run's, so a
         * step past that total is no checkpoint this run wrote */
        if (st.step > total) {
            sl_fail(err, errlen, "%s: damaged checkpoint: at step %lld, past the run's %lld "
                    "steps", c->checkpoint_path, (long long)st.step, (long long)total);
            goto out;
        }
    } else {
        sl_rng_seed(&st.rng, c->seed);
        st.best_score = -1.0;
        st.best_step = 0;
        st.settings_hash = hash;
    }
    if (c->progress)
        fprintf(stderr,
                "seqlabel train: %d train file%s (%.1f min, %lld labeled frames), %d valid "
                "file%s; %zu parameters; %lld step%s (%lld epoch%s of %lld) of %d x %d frames%s\n",
                r.train.n_files, r.train.n_files == 1 ? "" : "s", (double)r.train.frames / 6000.0,
                (long long)r.train.labeled, r.valid.n_files, r.valid.n_files == 1 ? "" : "s", np,
                (long long)total, total == 1 ? "" : "s", (long long)n_epochs,
                n_epochs == 1 ? "" : "s", (long long)spe, B, T, resumed ? "; resumed" : "");
    /* an empty label file leaves its recording out of the loss or the scores:
     * said, as a clip too short to give a frame is */
    const sl_dataset *sets[2] = {&r.train, &r.valid};
    for (int v = 0; v < 2 && c->progress; v++) {
        const char *first = NULL;
        const int n = sl_dataset_unlabelled(sets[v], &first);
        if (n)
            fprintf(stderr, "seqlabel train: %s files with no labelled frame (an empty label "
                    "file?), left out of the %s: %d (the first: %s)\n",
                    v ? "validation" : "training", v ? "scores" : "loss", n, first);
    }
    if (c->progress) {
        fprintf(stderr, "seqlabel train: training frames by class:");
        for (int k = 0; k < n_classes; k++)
            fprintf(stderr, "%s %s %lld (%.1f%%)", k ? "," : "", names[k],
                    (long long)r.train.class_frames[k],
                    100.0 * (double)r.train.class_frames[k] / (double)r.train.labeled);
        fprintf(stderr, "\n");
    }
    if (resumed && c->progress)
        fprintf(stderr, "seqlabel train: resuming at step %lld from %s\n", (long long)st.step,
                c->checkpoint_path);

    batch_maker bm = {&r.train, sl_model_norm_mean(r.m), sl_model_norm_inv_std(r.m), F, T, B,
                      c->augment_gain_db, c->augment_freq_mask, c->augment_time_mask,
                      logf(FLT_EPSILON) + 1e-3f,
                      c->noise_list ? &r.noise : NULL, c->snr_min_db, c->snr_max_db,
                      c->noise_prob, r.aug, r.silence, c->augment_lowpass, c->augment_8bit,
                      c->augment_eq_db, r.band, r.x_clean};
    sl_adamw_config ac = {c->lr, c->beta1, c->beta2, c->adam_eps, c->weight_decay};
    float *params = sl_model_params(r.m);
    double t_start = now_s(), t_last = t_start;
    const int64_t first = st.step;
    if (c->interrupt && *c->interrupt) {
        sl_fail(err, errlen, "interrupted before the first step");
        rc = SL_TRAIN_STOPPED;
        goto out;
    }
    for (int64_t step = st.step + 1; step <= total; step++) {
        if (make_batch(&bm, &st.rng, r.x, r.y, err, errlen))
            goto out;
        if (c->n_teachers > 0 &&
            sl_teachers_run(&r.teachers, r.m, c->teacher_clean ? r.x_clean : r.x, B, T, err, errlen))
            goto out;
        int64_t counted = 0;
        float loss = sl_train_step_run(r.step, r.m, r.x, r.y, r.weights, B, T, r.grads, NULL,
                                       &counted);
        if (!isfinite(loss)) {
            sl_fail(err, errlen, "training diverged at step %lld (loss %g): try a lower --lr",
                 (long long)step, loss);
            goto out;
        }
        if (c->clip > 0.0f)
            sl_grad_clip(r.grads, np, c->clip);
        ac.lr = (float)lr_at(c, step, total, warmup);
        sl_adamw_update(params, r.grads, r.adam_m, r.adam_v, np, step, &ac, r.decay);
        st.step = step;
        if (counted > 0) {
            st.epoch_loss_sum += loss;
            st.epoch_loss_steps++;
        }

        double now = now_s();
        if (c->progress && (now - t_last >= 2.0 || step == total)) {
            double per = (now - t_start) / (double)(step - first);
            char eta[32];
            fmt_duration(eta, sizeof eta, per * (double)(total - step));
            fprintf(stderr, "step %lld/%lld  epoch %lld/%lld  loss %.4f  lr %.2e  %.0f frames/s  ETA %s\n",
                    (long long)step, (long long)total, (long long)((step - 1) / spe + 1),
                    (long long)n_epochs, loss, ac.lr, (double)per_step / per, eta);
            t_last = now;
        }

        if (step % spe == 0 || step == total) {
            int64_t epoch = (step - 1) / spe + 1;
            double train_loss = st.epoch_loss_steps ? st.epoch_loss_sum / st.epoch_loss_steps : 0.0;
            st.epoch_loss_sum = 0.0;
            st.epoch_loss_steps = 0;
            if (r.valid.n_files > 0) {
                sl_metrics_reset(&r.metrics);
                if (sl_eval_dataset(r.m, &r.valid, c->num_threads, c->clip_edges, NULL, NULL, &r.metrics,
                                    err, errlen))
                    goto out;
                double score = sl_metrics_macro_f1(&r.metrics);
                int best = score > st.best_score;
                if (best) {
                    if (sl_model_save(r.m, c->out_path, err, errlen))
                        goto out;
                    saved = 1;
                    st.best_score = score;
                    st.best_step = step;
                }
                if (rep) {
                    fprintf(rep, "epoch %lld/%lld step %lld train_loss %.4f valid_loss %.4f "
                                 "valid_accuracy %.4f valid_macro_f1 %.4f%s\n",
                            (long long)epoch, (long long)n_epochs, (long long)step, train_loss,
                            sl_metrics_loss(&r.metrics), sl_metrics_accuracy(&r.metrics), score,
                            best ? "  (best, saved)" : "");
                    sl_metrics_print(&r.metrics, r.m, "  ", rep);
                    fflush(rep);
                }
            } else {
                if (sl_model_save(r.m, c->out_path, err, errlen))
                    goto out;
                saved = 1;
                st.best_step = step;
                if (rep) {
                    fprintf(rep, "epoch %lld/%lld step %lld train_loss %.4f  (no validation data: "
                                 "saved)\n",
                            (long long)epoch, (long long)n_epochs, (long long)step, train_loss);
                    fflush(rep);
                }
            }
            if (c->checkpoint_path &&
                sl_checkpoint_save(c->checkpoint_path, r.m, r.adam_m, r.adam_v, &st, err, errlen))
                goto out;
        } else if (c->checkpoint_path && c->checkpoint_every > 0 && step % c->checkpoint_every == 0) {
            if (sl_checkpoint_save(c->checkpoint_path, r.m, r.adam_m, r.adam_v, &st, err, errlen))
                goto out;
        }
        /* (after the last step, or the --stop-after one, the run ends as it
         * would have) */
        if (c->interrupt && *c->interrupt && step < total &&
            !(c->stop_after > 0 && step >= c->stop_after)) {
            if (c->checkpoint_path &&
                sl_checkpoint_save(c->checkpoint_path, r.m, r.adam_m, r.adam_v, &st, err, errlen))
                goto out;
            if (c->checkpoint_path)
                sl_fail(err, errlen, "interrupted after step %lld; checkpoint %s written: the same "
                                  "command with --resume continues", (long long)step,
                     c->checkpoint_path);
            else if (best_written(c, &st, saved))
                sl_fail(err, errlen, "interrupted after step %lld (no --checkpoint: nothing to resume "
                                  "from; the best model so far is %s)", (long long)step, c->out_path);
            else
                sl_fail(err, errlen, "interrupted after step %lld (no --checkpoint: nothing to resume "
                                  "from; no model saved yet: the first is at the end of epoch 1)",
                        (long long)step);
            rc = SL_TRAIN_STOPPED;
            goto out;
        }
        if (c->stop_after > 0 && step >= c->stop_after) {
            if (c->checkpoint_path && step % spe != 0 && step != total &&
                sl_checkpoint_save(c->checkpoint_path, r.m, r.adam_m, r.adam_v, &st, err, errlen))
                goto out;
            if (c->progress)
                fprintf(stderr, "seqlabel train: stopped after step %lld as asked\n",
                        (long long)step);
            break;
        }
    }
    if (rep && st.step == total) {
        if (r.valid.n_files > 0 && !best_written(c, &st, saved))
            fprintf(rep, "best valid_macro_f1 %.4f at step %lld, saved before the resume to that "
                    "run's --out: no step since did better, so %s was not written\n",
                    st.best_score, (long long)st.best_step, c->out_path);
        else if (r.valid.n_files > 0)
            fprintf(rep, "best valid_macro_f1 %.4f at step %lld: %s\n", st.best_score,
                    (long long)st.best_step, c->out_path);
        else
            fprintf(rep, "model after step %lld: %s\n", (long long)st.best_step, c->out_path);
    }
    rc = 0;
out:
    run_free(&r);
    sl_checkpoint_unlock(lock_fd, lock_name);
    sl_blas_set_threads(blas_threads);
    return rc;
}
