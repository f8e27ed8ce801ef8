/* Pieces of the trainer shared between model/trainer.c, model/train_data.c,
 * model/train_eval.c, model/train_checkpoint.c and model/feature_cache.c.
 * Internal to libseqlabel (not installed). */
#ifndef SL_MODEL_TRAINER_INTERNAL_H
#define SL_MODEL_TRAINER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "seqlabel.h"

/* ---- feature cache (model/feature_cache.c) ---------------------------------
 * The features of one audio file under one feature config. With a cache
 * folder they live in <cache>/<key>.feat, where the key hashes the audio's
 * resolved path, size, mtime (ns), inode and every feature setting: any change
 * of the audio or the settings gives another key, so a stale entry is never
 * read (old entries are simply left behind). Entries are written to a
 * temporary file and renamed, and are checked (magic, key, path, size, the
 * data's CRC-32) before use, so a damaged entry is recomputed, never trusted.
 * Only entries of the effective user (or root) that no one else may write are
 * read at all: in a shared cache folder another user's entry is taken as
 * absent (its key and CRC-32 are no proof against a forger). */
typedef struct {
    const float *feats;  /* n_frames x dim, not normalised */
    int64_t n_frames;
    int dim;
    int64_t n_samples;   /* samples at the feature sample rate */
    int from_cache;      /* 1 when read from the cache */
    int cache_error;     /* the errno that kept it out of the cache, else 0 */
    void *map;           /* mmap of the cache entry, or NULL */
    size_t map_len;
    float *owned;        /* malloc'ed features when not mapped */
} sl_feature_file;

int sl_feature_file_load(const char *audio, const sl_feature_config *fc, const char *cache_dir,
                         sl_feature_file *out, char *err, size_t errlen);
void sl_feature_file_free(sl_feature_file *f);
/* The audio's samples at `rate` (mono), cached the same way (<key>.pcm):
 * n_frames = n_samples samples, dim 1. For augmentation that needs PCM. */
int sl_pcm_file_load(const char *audio, int rate, const char *cache_dir, sl_feature_file *out,
                     char *err, size_t errlen);

/* ---- augmentation (model/augment.c) ------------------------------------------
 * Features of a training window recomputed from its samples, after mixing a
 * noise at a given SNR and applying a gain, with the model's own extractor:
 * with gain 1 and no noise they are bit-identical to the cached features. */
typedef struct sl_augmenter sl_augmenter;
/* An sl_frame_fn that copies frame `index` to out + index * dim while index < max
 * (it stops the extractor after that) and counts what it copied in got. */
typedef struct {
    float *out;
    int64_t max, got;
} sl_frame_sink;
int sl_frame_sink_take(void *user, int64_t index, const float *frame, int dim);
sl_augmenter *sl_augmenter_new(const sl_feature_config *fc, int max_T, char *err, size_t errlen);
void sl_augmenter_free(sl_augmenter *a);
/* Frames [start, start + L) of pcm (n samples; the frames must exist) into out
 * (L x dim, not normalised). noise (noise_n samples, looped from noise_off)
 * may be NULL; it is scaled so that signal power / noise power over the
 * window is 10^(snr_db / 10) (no noise when either power is 0); then the
 * mix is multiplied by gain. Returns 0, or -1 with a message. */
int sl_augment_frames(sl_augmenter *a, const float *pcm, int64_t n, int64_t start, int L,
                      float gain, const float *noise, int64_t noise_n, int64_t noise_off,
                      float snr_db, float *out, char *err, size_t errlen);

/* ---- band-limit augmentation (model/augment_band.c) -------------------------
 * Cached log-mel windows as if their audio had passed a recording channel:
 * coloured by bass and treble shelves, low-passed and rounded to 16 bits again,
 * or stored in 8 bits (the file says how). Log-mel features without energy or
 * dither only. */
typedef struct sl_band_limiter sl_band_limiter;
/* One window's channel. */
typedef struct {
    double cutoff_hz;  /* > 0: low-passed there */
    int bits8;         /* stored as 8-bit audio */
    double bass_db, bass_hz, treble_db, treble_hz; /* shelves' gains (0: none) and corners */
    int64_t floor_off; /* the noise floor's first frame (below) */
} sl_band_channel;
sl_band_limiter *sl_band_limiter_new(const sl_feature_config *fc, char *err, size_t errlen);
void sl_band_limiter_free(sl_band_limiter *b);
/* The cutoff for u in [0, 1): uniform from 0.375 to 0.9375 of the features'
 * high frequency (3 to 7.5 kHz at 16 kHz). */
double sl_band_limit_cutoff(const sl_band_limiter *b, double u);
/* The shelves for u[0..3] in [0, 1): gains uniform in [-max_db, max_db], the bass
 * corner log-uniform from 100 to 500 Hz, the treble corner from 0.1875 to 0.75 of
 * the Nyquist frequency (1.5 to 6 kHz at 16 kHz). */
void sl_band_eq_draw(const sl_band_limiter *b, double max_db, const double u[4], sl_band_channel *ch);
/* The shelves' power gain at f Hz. */
double sl_band_eq_power(const sl_band_channel *ch, double f);
/* Frames of rounding-noise features that floor_off picks from. */
int64_t sl_band_limit_floor_frames(void);
/* Passes x (L x dim, not normalised) through ch in place: the shelves, then
 * the low-pass at ch->cutoff_hz (<= 0: none), floored as 16-bit audio, or as
 * 8-bit audio when ch->bits8; frame t gets the noise floor's frame
 * (floor_off + t) mod the count above; values at or below log_floor (digital
 * silence) are kept. */
void sl_band_limit(sl_band_limiter *b, float *x, int L, const sl_band_channel *ch, float log_floor);

/* ---- datasets (model/train_data.c) ------------------------------------------ */
typedef struct {
    char *audio;
    sl_feature_file ff;
    sl_feature_file pcm; /* samples, only when loaded for augmentation */
    int32_t *labels; /* n_frames class indices, -1 = unlabeled */
    int borrowed;    /* ff, pcm and labels are entry `first`'s (the same audio and
                      * labels listed again earlier): held once, not freed here */
    int first;
} sl_data_file;

typedef struct {
    sl_data_file *files;
    int n_files;
    int64_t frames;            /* all frames */
    int64_t labeled;           /* frames with a label */
    int64_t *class_frames;     /* n_classes counts */
    int unlabelled;            /* files (repeats aside) with frames, none labelled */
    int first_unlabelled;      /* the first of them, or -1 */
    int n_classes;
    int64_t *crop_starts_cum;  /* n_files + 1: cumulative count of crop starts (window T) */
    int crop_window;
    int crop_left;             /* crops start up to this many frames before a file */
} sl_dataset;

/* Entries of `man` whose split bit (1 << split) is in split_mask. */
#define SL_SPLIT_BIT(s) (1u << (unsigned)(s))
/* How many of a manifest's entries are of the splits in mask (model/manifest.c). */
int sl_manifest_entries_in(const sl_manifest *man, unsigned mask);
/* The entries a split filter takes: SL_SPLIT_NONE, every entry. */
static inline unsigned sl_split_mask(sl_split split)
{
    if (split == SL_SPLIT_NONE)
        return SL_SPLIT_BIT(SL_SPLIT_NONE) | SL_SPLIT_BIT(SL_SPLIT_TRAIN) |
               SL_SPLIT_BIT(SL_SPLIT_VALID) | SL_SPLIT_BIT(SL_SPLIT_TEST);
    if (split == SL_SPLIT_TRAIN) /* what training trains on: lines without a split too */
        return SL_SPLIT_BIT(SL_SPLIT_NONE) | SL_SPLIT_BIT(SL_SPLIT_TRAIN);
    return SL_SPLIT_BIT(split);
}

/* Prefixes err with "manifest:line: " (a folder's entry, line 0: with its audio
 * file, unless the message names it already) so the user finds the entry; -1. */
int sl_blame_entry(const sl_manifest *man, const sl_manifest_entry *e, char *err, size_t errlen);
/* The index of the class a label names among classes[0..n): its own name, else
 * the one class it is the written form of (an older model's "dog bark" as
 * RTTM's dog_bark, "trail " as a TextGrid's trimmed trail); -1: none. */
int sl_class_of(const char *name, const char *const *classes, int n);
/* Appends the label names of the selected entries that are not yet in
 * names[0..*n) (order of first appearance). Errors name the file and line.
 * new_model: the names become a new model's classes, so they must also be free
 * of what lists and RTTM cannot carry (sl_class_name_flaw); else (eval, a
 * model's own classes) any name a model can hold. */
int sl_dataset_collect_classes(const sl_manifest *man, unsigned split_mask, int new_model,
                               char **names, int *n, char *err, size_t errlen);
/* Where the selected entries first label time with class `name` (any of its
 * written forms), as errors name a label ("MANIFEST:LINE: LABELS:LINE"): 1, or
 * 0 where none does. */
int sl_dataset_class_where(const sl_manifest *man, unsigned split_mask, const char *name,
                           char *where, size_t len);
/* Frame labels of one audio file of `duration` seconds: frame i (of n_frames,
 * hop samples apart at rate) takes the class of the segment containing its
 * centre (i + 0.5) * hop / rate, -1 where none does (the manifests' rule).
 * Segments are sorted and do not overlap; a name not among classes, or a
 * segment ending more than a hop after the audio, is an error naming
 * label_path and the line. */
int sl_segments_to_frames(const sl_label_segment *segs, int ns, const char *label_path,
                          const char *audio, double duration, int hop, int rate,
                          const char *const *classes, int n_classes, int32_t *labels,
                          int64_t n_frames, char *err, size_t errlen);
/* Leaves out of scoring (-1) the frames whose centre lies within collar_s
 * seconds of a change of the labels (from one class to another, or to or from
 * unlabelled), decided on the labels as given. */
int sl_labels_collar(int32_t *labels, int64_t n_frames, int hop, int rate, double collar_s);
/* Loads features (via the cache) and frame labels of the selected entries.
 * Labels must be among class_names (errors name the label file and line);
 * segments may not end after the audio (one hop of rounding allowed). */
int sl_dataset_load(sl_dataset *ds, const sl_manifest *man, unsigned split_mask,
                    const sl_feature_config *fc, const char *cache_dir,
                    const char *const *class_names, int n_classes, char *err, size_t errlen);
/* How many files (repeats aside) give no frame, shorter than one analysis
 * window; *first (may be NULL): the first such file's audio. */
int sl_dataset_frameless(const sl_dataset *ds, const char **first);
/* How many files' features the cache did not take, and the first's errno. */
int sl_dataset_uncached(const sl_dataset *ds, int *why);
/* How many files (repeats aside) have frames but no labelled one (an empty
 * label file), and the first of them. */
int sl_dataset_unlabelled(const sl_dataset *ds, const char **first);
/* Gives every unlabelled frame of ds class k, and counts them. */
void sl_dataset_fill_gaps(sl_dataset *ds, int k);

/* sl_dataset_load, printing "<progress>: features of k/n files" on stderr
 * every 2 s when progress is not NULL, giving up between files once
 * *interrupt (may be NULL) is non-zero (SL_TRAIN_STOPPED), and computing
 * n_threads files at a time (the dataset does not depend on it; an error
 * names the first failing entry in manifest order). */
int sl_dataset_load_ex(sl_dataset *ds, const sl_manifest *man, unsigned split_mask,
                       const sl_feature_config *fc, const char *cache_dir,
                       const char *const *class_names, int n_classes, const char *progress,
                       volatile int *interrupt, int n_threads, char *err, size_t errlen);
void sl_dataset_free(sl_dataset *ds);
/* Loads every file's samples (for noise mixing) at the feature rate. */
int sl_dataset_load_pcm(sl_dataset *ds, int rate, const char *cache_dir, char *err, size_t errlen);
/* A noise list: one audio path per line (relative to the list's folder; '#'
 * comments and empty lines skipped), each loaded at `rate`. Errors name the
 * list and the line. */
typedef struct {
    sl_feature_file *files;
    int n;
} sl_noise_set;
/* The next file a noise list names into path: a line that is not empty nor a
 * '#' comment, relative to the list's folder unless absolute. *text: the
 * list's text (sl_read_text) not yet read, moved on. 1 when there is one, 0 at
 * the end, -1 when its path does not fit in size; *line_no counts the lines
 * read. */
int sl_noise_list_next(char **text, const char *list, char *path, size_t size, int *line_no);
int sl_noise_set_load(sl_noise_set *ns, const char *list, int rate, const char *cache_dir,
                      char *err, size_t errlen);
void sl_noise_set_free(sl_noise_set *ns);
/* Prepares crop sampling for windows of T frames that may start up to `left`
 * frames before a file and end up to `right` frames past it (0, 0: inside). */
int sl_dataset_prepare_crops(sl_dataset *ds, int T, int left, int right);
/* Maps u in [0, crop_starts_cum[n_files]) to a file and start frame (negative:
 * that many frames before the file). */
void sl_dataset_crop(const sl_dataset *ds, int64_t u, int *file, int64_t *start);

/* ---- evaluation (model/train_eval.c) ---------------------------------------- */
/* The run's outputs before any audio is read (model/train_outputs.c): the model's
 * and the checkpoint's folders take files, neither is a file the run reads (its
 * manifests' entries included) nor the other, and the feature cache is no file.
 * -1 with a message. */
int sl_train_check_outputs(const sl_train_config *c, const sl_manifest *train,
                           const sl_manifest *valid, char *err, size_t errlen);

/* The decoder's label of each of a file's n frames from their probabilities
 * (n x K), the decoder reset first; -1 if it stopped. */
int sl_decode_all(sl_decoder *dec, const float *probs, int64_t n, int K, int32_t *labels);

/* Runs the model over one file's (unnormalised) features in the labeler's
 * windows (silence: the model's silence frame for window frames outside the
 * file, or NULL: windows clipped to the file) and adds the labeled frames to
 * mt. x: window x n_features scratch, logits and probs: window x n_classes
 * scratch (window = the model's stream_window); sweep: NULL, or the frames'
 * probabilities of its class counted into it; pred: NULL, or each frame's argmax
 * class where the model ran (the frames of windows whose core holds a frame of
 * wanted's, or of labels' with wanted NULL; the caller sets the rest): wanted,
 * the references before a collar took frames from labels, whose predictions
 * the events still count; frame_probs: NULL, or each frame's probabilities
 * (n x n_classes), the model then run on every window. */
int sl_eval_frames(sl_encoder *e, const sl_model *m, const float *silence, const float *feats,
                   const int32_t *labels, const int32_t *wanted, int64_t n, float *x,
                   float *logits, float *probs, sl_sweep *sweep, sl_metrics *mt, int32_t *pred,
                   float *frame_probs);
struct sl_uem; /* model/label_files.h */
/* num_threads: the encoder's own threads (results do not depend on them).
 * clip_edges: as sl_labeler_config's. per_file: NULL, or the options whose
 * collar, events and on_file (called with each file's own figures) apply; uem:
 * NULL, or the regions scored (sl_uem_crop, after the collar). */
int sl_eval_dataset(const sl_model *m, const sl_dataset *ds, int num_threads, int clip_edges,
                    const sl_eval_options *per_file, const struct sl_uem *uem, sl_metrics *mt,
                    char *err, size_t errlen);
/* sl_evaluate_manifest, saying in *uncached (not NULL) how many files'
 * features the cache did not take, and in *why the first's errno (the
 * command says it, as train does). */
int sl_evaluate_manifest_cached(const sl_model *m, const char *manifest,
                                const sl_eval_options *opt, sl_metrics *mt, int *uncached,
                                int *why, char *err, size_t errlen);
/* The UEM file at path (NULL: none, *out NULL) read, for scoring man's entries
 * of mask: -1 naming the file when it lacks an entry's regions, or with events
 * (with_events), which it cannot crop. */
int sl_uem_for_manifest(const char *path, const sl_manifest *man, unsigned mask, int with_events,
                        struct sl_uem **out, char *err, size_t errlen);
/* Adds from's counts to to's (the same classes: else -1). */
int sl_metrics_add(sl_metrics *to, const sl_metrics *from);

/* ---- random numbers (model/trainer.c) --------------------------------------- */
typedef struct {
    uint64_t s[4];
} sl_rng;
void sl_rng_seed(sl_rng *r, uint64_t seed);
uint64_t sl_rng_next(sl_rng *r);
uint64_t sl_rng_below(sl_rng *r, uint64_t n); /* uniform in [0, n), n > 0 */
double sl_rng_uniform(sl_rng *r);             /* [0, 1) */

/* SpecAugment-style masks on one normalised window x (T x F, its first L
 * frames real): two frequency bands of width uniform in [0, freq_max] bins
 * and two time spans of width uniform in [0, time_max] frames, each at a
 * uniform position, are set to 0 (the feature mean after normalisation).
 * Labels are kept, so the model learns to label from context and from the
 * bands that remain (a telephone or codec channel loses its upper bands).
 * Always 8 draws from rng, in the order: per band width then first bin, per
 * span width then first frame; so the generator state never depends on data. */
void sl_augment_masks(float *x, int L, int F, int freq_max, int time_max, sl_rng *rng);

/* ---- checkpoints (model/train_checkpoint.c) ---------------------------------- */
typedef struct {
    int64_t step;
    sl_rng rng;
    double best_score;   /* -1 before the first validation */
    int64_t best_step;
    double epoch_loss_sum; /* training loss of the epoch in progress */
    int64_t epoch_loss_steps;
    uint64_t settings_hash; /* training settings the run depends on */
} sl_train_state;

/* Writes model + AdamW moments (n_params floats each) + state atomically. */
int sl_checkpoint_save(const char *path, const sl_model *m, const float *adam_m,
                       const float *adam_v, const sl_train_state *st, char *err, size_t errlen);
/* Loads them; *m is a new model, *adam_m / *adam_v new blocks of its size. */
/* Two runs of one checkpoint (a timer fired twice) would write over each
 * other's, and neither could resume: while a run trains it holds an advisory
 * lock (flock) on .NAME.lock beside the file PATH leads to (through links,
 * to one not made yet too), an empty file it removes at its end (one that a
 * killed run left locks nothing). The descriptor and in *held_lock its name,
 * or -1 saying that another run holds it (or why the lock cannot be taken: a
 * file of that name that is no lock). */
int sl_checkpoint_lock(const char *path, char **held_lock, char *err, size_t errlen);
/* Removes and frees held_lock (sl_checkpoint_lock's), closes fd. */
void sl_checkpoint_unlock(int fd, char *held_lock);
int sl_checkpoint_load(const char *path, sl_model **m, float **adam_m, float **adam_v,
                       sl_train_state *st, char *err, size_t errlen);

/* Teachers for knowledge distillation (train_teachers.c). */
typedef struct {
    int n;
    sl_model *models[SL_MAX_TEACHERS];
    sl_encoder *enc[SL_MAX_TEACHERS];
    int class_map[SL_MAX_TEACHERS][SL_MAX_CLASSES]; /* teacher class -> student class */
    float *scale[SL_MAX_TEACHERS], *shift[SL_MAX_TEACHERS]; /* normalisation map */
    float *xt, *logits; /* one window */
    double *acc;        /* B x T x C summed log-probabilities */
    float *soft;        /* B x T x C soft targets */
} sl_teachers;

/* Loads n teachers for batches of B windows of T frames of `student`; on
 * failure (message naming the teacher file) the caller still frees. */
int sl_teachers_load(sl_teachers *t, const char *const *paths, int n, const sl_model *student,
                     int B, int T, int threads, char *err, size_t errlen);
/* Fills t->soft for the batch x (B x T x n_features, normalised for the student). */
int sl_teachers_run(sl_teachers *t, const sl_model *student, const float *x, int B, int T,
                    char *err, size_t errlen);
void sl_teachers_free(sl_teachers *t);

/* ---- checks once the model of --init is read (model/trainer.c) -------------
 * What the options ask of init (read from c->init_path), as sl_train checks it
 * before any data is read: a window it takes, and masks within half its
 * features and window. For a command that says so as a wrong command line. */
int sl_train_init_check(const sl_train_config *c, const sl_model *init, char *err, size_t errlen);

#endif
