/* Labeled datasets for training and evaluation: manifest entries -> features
 * (feature cache) + one class index per frame from the Audacity labels, and
 * the random-crop sampling of training windows. */
#include <math.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "model/model_internal.h"
#include "model/label_files.h"
#include "model/trainer_internal.h"
#include "common/errors.h"
#include "common/text.h"

static int selected(const sl_manifest_entry *e, unsigned mask)
{
    return (mask & SL_SPLIT_BIT(e->split)) != 0;
}

int sl_blame_entry(const sl_manifest *man, const sl_manifest_entry *e, char *err, size_t errlen)
{
    if (err && errlen) {
        char msg[SL_ERR_LEN];
        snprintf(msg, sizeof msg, "%s", err);
        if (e->line > 0)
            snprintf(err, errlen, "%s:%d: %s", man->path, e->line, msg);
        else if (!strstr(msg, e->audio)) /* a folder's entry: its audio file names it */
            snprintf(err, errlen, "%s: %s", e->audio, msg);
    }
    return -1;
}

/* Where a label came from, for messages: "FILE:LINE: ", or "" for a whole-file
 * label (=NAME), which the manifest line that blame_entry adds names. */
static const char *label_where(const sl_manifest_entry *e, const sl_label_segment *s, char *buf,
                               size_t len)
{
    if (e->labels[0] == '=')
        return "";
    snprintf(buf, len, "%s:%d: ", e->labels, s->line);
    return buf;
}

int sl_dataset_class_where(const sl_manifest *man, unsigned split_mask, const char *name,
                           char *where, size_t len)
{
    int found = 0;
    for (int i = 0; i < man->n && !found; i++) {
        const sl_manifest_entry *e = &man->entries[i];
        sl_label_segment *segs;
        int ns;
        char err[SL_ERR_LEN];
        if (!selected(e, split_mask) || sl_manifest_entry_segments(e, &segs, &ns, err, sizeof err))
            continue;
        for (int k = 0; k < ns && !found; k++)
            if (segs[k].end != segs[k].start && sl_class_of(segs[k].name, &name, 1) == 0) {
                char at[SL_ERR_LEN / 2];
                snprintf(where, len, "%s", label_where(e, &segs[k], at, sizeof at));
                sl_blame_entry(man, e, where, len);
                const size_t n = strlen(where); /* the ": " before a message */
                if (n >= 2 && !strcmp(where + n - 2, ": "))
                    where[n - 2] = '\0';
                found = 1;
            }
        sl_label_segments_free(segs, ns);
    }
    return found;
}

int sl_dataset_collect_classes(const sl_manifest *man, unsigned split_mask, int new_model,
                               char **names, int *n, char *err, size_t errlen)
{
    for (int i = 0; i < man->n; i++) {
        const sl_manifest_entry *e = &man->entries[i];
        if (!selected(e, split_mask))
            continue;
        sl_label_segment *segs;
        int ns;
        if (sl_manifest_entry_segments(e, &segs, &ns, err, errlen))
            return sl_blame_entry(man, e, err, errlen);
        int rc = 0;
        for (int k = 0; k < ns && rc == 0; k++) {
            if (segs[k].end == segs[k].start)
                continue; /* a point label (an Audacity marker) labels nothing: no class */
            /* (label files' names come in NFC: one class for labels from
             * macOS, NFD, and from Linux) */
            if (sl_text_index((const char *const *)names, *n, segs[k].name) >= 0)
                continue;
            char where[SL_ERR_LEN / 2];
            /* a name no model can hold, said where it stands, not at the model */
            const char *flaw = sl_class_name_flaw(segs[k].name, new_model);
            if (flaw) {
                char shown[SL_SHOWN_LEN];
                int foreign = sl_text_shown(shown, segs[k].name);
                rc = sl_fail(err, errlen, "%sclass '%s': %s%s",
                             label_where(e, &segs[k], where, sizeof where), shown, flaw,
                             foreign ? " (text in another encoding, such as Windows-1252 or "
                                       "Shift JIS? save the labels as UTF-8)" : "");
            }
            else if (*n == SL_MAX_CLASSES)
                rc = sl_fail(err, errlen, "%smore than %d distinct label names",
                             label_where(e, &segs[k], where, sizeof where), SL_MAX_CLASSES);
            else if (!(names[*n] = strdup(segs[k].name)))
                rc = sl_fail(err, errlen, "out of memory");
            else
                (*n)++;
        }
        sl_label_segments_free(segs, ns);
        if (rc)
            return sl_blame_entry(man, e, err, errlen);
    }
    return 0;
}

/* Whether name is how an output wrote class cls of a model made before class
 * names were kept free of spaces: RTTM's field ("dog bark" as dog_bark) or a
 * TextGrid's text, which readers trim. */
static int written_as(const char *cls, const char *name)
{
    char field[SL_MAX_CLASS_NAME + 1];
    sl_rttm_field(field, sizeof field, cls);
    size_t a = strspn(cls, " \t\r\n"), b = strlen(cls);
    while (b > a && strchr(" \t\r\n", cls[b - 1]))
        b--;
    return !strcmp(field, name) || (strlen(name) == b - a && !strncmp(cls + a, name, b - a));
}

/* The class a label names: its own name, else the one class it is the written
 * form of (none when two could be). */
int sl_class_of(const char *name, const char *const *classes, int n)
{
    int found = sl_text_index(classes, n, name); /* (in another Unicode form too) */
    if (found >= 0)
        return found;
    for (int c = 0; c < n; c++)
        if (written_as(classes[c], name)) {
            if (found >= 0)
                return -1;
            found = c;
        }
    return found;
}

static void list_classes(char *buf, size_t len, const char *const *classes, int n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int c = 0; c < n && used + 1 < len; c++) {
        char shown[SL_SHOWN_LEN]; /* (a reference's names may be any: a U+202E shown as bytes) */
        sl_text_shown(shown, classes[c]);
        int w = snprintf(buf + used, len - used, "%s%s", c ? ", " : "", shown);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* Why name is no class: two classes it is the written form of (an older
 * model's "a b" and "a_b" both in RTTM), or none. */
static void unknown_class(char *buf, size_t len, const char *name, const char *const *classes,
                          int n)
{
    int first = -1, second = -1;
    for (int c = 0; c < n && second < 0; c++)
        if (written_as(classes[c], name)) {
            if (first < 0)
                first = c;
            else
                second = c;
        }
    char shown[SL_SHOWN_LEN];
    const int foreign = sl_text_shown(shown, name);
    if (second >= 0) {
        snprintf(buf, len, "'%s' is how two classes are written, '%s' and '%s' (RTTM makes spaces "
                 "'_', TextGrid text is trimmed): name one as it is", shown, classes[first],
                 classes[second]);
        return;
    }
    char list[SL_ERR_LEN / 2];
    list_classes(list, sizeof list, classes, n);
    snprintf(buf, len, "unknown class '%s' (classes: %s)%s", shown, list,
             foreign ? " (text in another encoding, such as Windows-1252 or Shift JIS? save the "
                       "labels as UTF-8)" : "");
}

int sl_segments_to_frames(const sl_label_segment *segs, int ns, const char *label_path,
                          const char *audio, double duration, int hop, int rate,
                          const char *const *classes, int n_classes, int32_t *labels,
                          int64_t n_frames, char *err, size_t errlen)
{
    /* Labels are usually written with 10 ms (or coarser) rounding: allow one hop. */
    const double slack = (double)hop / rate + 1e-6;
    int *idx = malloc((size_t)(ns > 0 ? ns : 1) * sizeof *idx);
    if (!idx)
        return sl_fail(err, errlen, "out of memory");
    for (int k = 0; k < ns; k++) {
        idx[k] = sl_class_of(segs[k].name, classes, n_classes);
        if (segs[k].end == segs[k].start)
            continue; /* a point label labels nothing, wherever it is, whatever its name */
        if (idx[k] < 0) {
            char why[SL_ERR_LEN / 2 + 256];
            unknown_class(why, sizeof why, segs[k].name, classes, n_classes);
            free(idx);
            return sl_fail(err, errlen, "%s:%d: %s", label_path, segs[k].line, why);
        }
        if (isfinite(segs[k].end) && segs[k].end > duration + slack) {
            free(idx);
            return sl_fail(err, errlen,
                        "%s:%d: segment %.12g-%.12g s ends after the audio (%s is %.3f s long)",
                        label_path, segs[k].line, segs[k].start, segs[k].end, audio, duration);
        }
    }
    int k = 0;
    for (int64_t i = 0; i < n_frames; i++) {
        double t = ((double)i + 0.5) * hop / rate;
        while (k < ns && (segs[k].end <= t || segs[k].end == segs[k].start))
            k++;
        labels[i] = (k < ns && segs[k].start <= t) ? idx[k] : -1;
    }
    free(idx);
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The shared state of sl_dataset_load_ex's workers: entry i goes to ds->files[i]. */
enum { LOAD_PENDING, LOAD_OK, LOAD_FAILED, LOAD_INTERRUPTED };
typedef struct {
    int state;
    char msg[SL_ERR_LEN];
} load_err;
typedef struct {
    sl_dataset *ds;
    const sl_manifest_entry **entries;
    const int *first;  /* per entry: the first entry with its audio and labels */
    load_err *errs;
    const sl_feature_config *fc;
    const char *cache_dir;
    const char *const *class_names;
    int n_classes;
    volatile int *interrupt;
    atomic_int next, done, cached, failed;
} load_job;

static void load_one(load_job *j, int i)
{
    const sl_manifest_entry *e = j->entries[i];
    sl_data_file *df = &j->ds->files[i];
    load_err *le = &j->errs[i];
    char *err = le->msg;
    size_t errlen = sizeof le->msg;
    le->state = LOAD_FAILED;
    if (j->first[i] != i) { /* a repeat: it borrows the first's arrays once all are done */
        le->state = LOAD_OK;
        atomic_fetch_add(&j->done, 1);
        return;
    }
    if (j->interrupt && *j->interrupt) {
        le->state = LOAD_INTERRUPTED;
        return;
    }
    if (!(df->audio = strdup(e->audio))) {
        sl_fail(err, errlen, "out of memory");
        return;
    }
    if (sl_feature_file_load(e->audio, j->fc, j->cache_dir, &df->ff, err, errlen))
        return;
    atomic_fetch_add(&j->cached, df->ff.from_cache);
    df->labels = malloc((size_t)(df->ff.n_frames ? df->ff.n_frames : 1) * sizeof *df->labels);
    if (!df->labels) {
        sl_fail(err, errlen, "out of memory");
        return;
    }
    sl_label_segment *segs;
    int ns;
    if (sl_manifest_entry_segments(e, &segs, &ns, err, errlen))
        return;
    int rc = sl_segments_to_frames(segs, ns, e->labels, e->audio,
                                   (double)df->ff.n_samples / j->fc->sample_rate,
                                   sl_feature_frame_shift(j->fc), j->fc->sample_rate,
                                   j->class_names, j->n_classes, df->labels, df->ff.n_frames,
                                   err, errlen);
    sl_label_segments_free(segs, ns);
    if (rc == 0)
        le->state = LOAD_OK;
    atomic_fetch_add(&j->done, 1);
}

/* Entry i is the next to do, or -1 once all are taken or one has failed: files are
 * taken in manifest order, so every entry before a failure is done, and the first
 * failure in that order is the same whatever the threads. */
static int load_next(load_job *j)
{
    if (atomic_load(&j->failed))
        return -1;
    int i = atomic_fetch_add(&j->next, 1);
    return i < j->ds->n_files ? i : -1;
}

static void load_take(load_job *j, int i)
{
    load_one(j, i);
    if (j->errs[i].state != LOAD_OK)
        atomic_store(&j->failed, 1);
}

static void *load_worker(void *arg)
{
    load_job *j = arg;
    for (int i; (i = load_next(j)) >= 0;)
        load_take(j, i);
    return NULL;
}

/* An entry's paths and index, sorted to find repeats. */
typedef struct {
    const char *audio, *labels;
    int index;
} entry_key;
static int by_paths(const void *a, const void *b)
{
    const entry_key *x = a, *y = b;
    int c = strcmp(x->audio, y->audio);
    if (!c)
        c = strcmp(x->labels, y->labels);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* first[i]: the lowest index with entry i's audio and labels (i itself if none).
 * Lists repeat files to weight them (the default model's lists hold 65,000
 * entries, a third of them repeats); each is held in memory, and mapped from
 * the cache, once. */
static int *first_of_each(const sl_manifest_entry **entries, int n)
{
    entry_key *keys = malloc((size_t)(n ? n : 1) * sizeof *keys);
    int *first = malloc((size_t)(n ? n : 1) * sizeof *first);
    if (!keys || !first) {
        free(keys);
        free(first);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        keys[i] = (entry_key){entries[i]->audio, entries[i]->labels, i};
    qsort(keys, (size_t)n, sizeof *keys, by_paths);
    for (int s = 0; s < n; s++) {
        const entry_key *k = &keys[s], *prev = s ? &keys[s - 1] : NULL;
        first[k->index] = prev && !strcmp(k->audio, prev->audio) && !strcmp(k->labels, prev->labels)
                              ? first[prev->index]
                              : k->index;
    }
    free(keys);
    return first;
}

int sl_dataset_load(sl_dataset *ds, const sl_manifest *man, unsigned split_mask,
                    const sl_feature_config *fc, const char *cache_dir,
                    const char *const *class_names, int n_classes, char *err, size_t errlen)
{
    return sl_dataset_load_ex(ds, man, split_mask, fc, cache_dir, class_names, n_classes, NULL,
                              NULL, 1, err, errlen);
}

/* The frames, labelled frames and frames of each class of ds's files. */
static void count_labels(sl_dataset *ds)
{
    ds->frames = ds->labeled = 0;
    ds->unlabelled = 0;
    ds->first_unlabelled = -1;
    memset(ds->class_frames, 0, (size_t)ds->n_classes * sizeof *ds->class_frames);
    for (int i = 0; i < ds->n_files; i++) {
        const sl_data_file *df = &ds->files[i];
        const int64_t before = ds->labeled;
        ds->frames += df->ff.n_frames;
        for (int64_t t = 0; t < df->ff.n_frames; t++)
            if (df->labels[t] >= 0) {
                ds->labeled++;
                ds->class_frames[df->labels[t]]++;
            }
        if (!df->borrowed && df->ff.n_frames > 0 && ds->labeled == before && !ds->unlabelled++)
            ds->first_unlabelled = i;
    }
}

int sl_dataset_load_ex(sl_dataset *ds, const sl_manifest *man, unsigned split_mask,
                       const sl_feature_config *fc, const char *cache_dir,
                       const char *const *class_names, int n_classes, const char *progress,
                       volatile int *interrupt, int n_threads, char *err, size_t errlen)
{
    memset(ds, 0, sizeof *ds);
    ds->n_classes = n_classes;
    int count = 0;
    for (int i = 0; i < man->n; i++)
        count += selected(&man->entries[i], split_mask);
    ds->files = calloc((size_t)(count ? count : 1), sizeof *ds->files);
    ds->class_frames = calloc((size_t)n_classes, sizeof *ds->class_frames);
    if (!ds->files || !ds->class_frames)
        return sl_fail(err, errlen, "out of memory");
    /* First the cheap checks for every entry (audio a readable file, labels valid), so
     * a typo in the last line fails at once, not after an hour of features. */
    for (int i = 0; i < man->n; i++) {
        const sl_manifest_entry *e = &man->entries[i];
        if (!selected(e, split_mask))
            continue;
        if (sl_audio_entry_check(e->audio, err, errlen)) /* a FIFO would wait for ever */
            return sl_blame_entry(man, e, err, errlen);
        sl_label_segment *segs;
        int ns;
        if (sl_manifest_entry_segments(e, &segs, &ns, err, errlen))
            return sl_blame_entry(man, e, err, errlen);
        int rc = 0;
        for (int k = 0; k < ns && rc == 0; k++)
            if (segs[k].end != segs[k].start &&
                sl_class_of(segs[k].name, class_names, n_classes) < 0) {
                char why[SL_ERR_LEN / 2 + 256];
                unknown_class(why, sizeof why, segs[k].name, class_names, n_classes);
                char where[SL_ERR_LEN / 4];
                rc = sl_fail(err, errlen, "%s%s", label_where(e, &segs[k], where, sizeof where),
                             why);
            }
        sl_label_segments_free(segs, ns);
        if (rc)
            return sl_blame_entry(man, e, err, errlen);
    }
    /* Features, then frame labels, of every selected entry: each file on its own,
     * so n_threads workers take the files in turn (results do not depend on them). */
    load_job job = {.ds = ds, .fc = fc, .cache_dir = cache_dir, .class_names = class_names,
                    .n_classes = n_classes, .interrupt = interrupt};
    job.entries = malloc((size_t)(count ? count : 1) * sizeof *job.entries);
    job.errs = calloc((size_t)(count ? count : 1), sizeof *job.errs);
    if (!job.entries || !job.errs) {
        free(job.entries);
        free(job.errs);
        return sl_fail(err, errlen, "out of memory");
    }
    for (int i = 0; i < man->n; i++)
        if (selected(&man->entries[i], split_mask))
            job.entries[ds->n_files++] = &man->entries[i];
    int *first = first_of_each(job.entries, count);
    if (!first) {
        free(job.entries);
        free(job.errs);
        return sl_fail(err, errlen, "out of memory");
    }
    job.first = first;
    if (n_threads < 1)
        n_threads = 1;
    if (n_threads > count)
        n_threads = count > 0 ? count : 1;
    pthread_t *tids = calloc((size_t)n_threads, sizeof *tids);
    int started = 0;
    for (int t = 1; tids && t < n_threads; t++, started++)
        if (pthread_create(&tids[t], NULL, load_worker, &job))
            break;
    /* This thread works too, and reports progress between its files. */
    double t_last = now_s();
    for (int i; (i = load_next(&job)) >= 0;) {
        load_take(&job, i);
        if (progress && now_s() - t_last >= 2.0) {
            fprintf(stderr, "%s: features of %d/%d files (%d from the cache)\n", progress,
                    atomic_load(&job.done), count, atomic_load(&job.cached));
            t_last = now_s();
        }
    }
    for (int t = 1; t <= started; t++)
        pthread_join(tids[t], NULL);
    free(tids);
    int cached = atomic_load(&job.cached);
    /* The first failure in manifest order is the one reported, whatever the threads. */
    int rc = 0;
    for (int i = 0; i < count && rc == 0; i++) {
        if (job.errs[i].state == LOAD_INTERRUPTED) {
            sl_fail(err, errlen, "interrupted while computing features (%d of %d files done%s)",
                    atomic_load(&job.done), count, cache_dir ? " and cached" : "");
            rc = SL_TRAIN_STOPPED;
        } else if (job.errs[i].state == LOAD_FAILED) {
            snprintf(err, errlen, "%s", job.errs[i].msg);
            rc = sl_blame_entry(man, job.entries[i], err, errlen);
        }
    }
    /* Repeats borrow their first entry's arrays (which come before them). */
    for (int i = 0; i < count && rc == 0; i++) {
        sl_data_file *df = &ds->files[i];
        if (first[i] == i)
            continue;
        const sl_data_file *src = &ds->files[first[i]];
        df->ff = src->ff;
        df->labels = src->labels;
        df->borrowed = 1;
        df->first = first[i];
        if (!(df->audio = strdup(src->audio)))
            rc = sl_fail(err, errlen, "out of memory");
    }
    free(first);
    free(job.entries);
    free(job.errs);
    if (rc)
        return rc;
    count_labels(ds);
    /* A cache that takes no entry (a full disk, a folder not ours) only costs
     * time, but the next run's: said, with the first reason in manifest order. */
    int why = 0;
    const int uncached = sl_dataset_uncached(ds, &why);
    if (progress && count)
        fprintf(stderr, "%s: features of %d file%s ready (%d from the cache)\n", progress, count,
                count == 1 ? "" : "s", cached);
    /* a clip shorter than one window (a 10 ms click of a sound-event set)
     * gives no frame to learn from: said, as label says it */
    const char *first_short = NULL;
    const int n_short = sl_dataset_frameless(ds, &first_short);
    if (progress && n_short)
        fprintf(stderr, "%s: %d file%s shorter than one analysis window (%.6g ms) give%s no "
                "frame (the first: %s)\n", progress, n_short, n_short == 1 ? "" : "s",
                (double)fc->frame_length_ms, n_short == 1 ? "s" : "", first_short);
    if (progress && uncached)
        fprintf(stderr, "%s: %d %s features could not be cached in %s (%s): held in memory, "
                "and computed again next run\n", progress, uncached,
                uncached == 1 ? "file's" : "files'",
                cache_dir, strerror(why));
    return 0;
}

int sl_dataset_uncached(const sl_dataset *ds, int *why)
{
    int n = 0;
    for (int i = 0; i < ds->n_files; i++)
        if (!ds->files[i].borrowed && ds->files[i].ff.cache_error && !n++)
            *why = ds->files[i].ff.cache_error;
    return n;
}

int sl_dataset_frameless(const sl_dataset *ds, const char **first)
{
    int n = 0;
    for (int i = 0; i < ds->n_files; i++)
        if (ds->files[i].ff.n_frames == 0 && !ds->files[i].borrowed && !n++ && first)
            *first = ds->files[i].audio;
    return n;
}

int sl_dataset_unlabelled(const sl_dataset *ds, const char **first)
{
    if (ds->unlabelled && first)
        *first = ds->files[ds->first_unlabelled].audio;
    return ds->unlabelled;
}

void sl_dataset_fill_gaps(sl_dataset *ds, int k)
{
    for (int i = 0; i < ds->n_files; i++) {
        sl_data_file *df = &ds->files[i];
        for (int64_t t = 0; !df->borrowed && t < df->ff.n_frames; t++)
            if (df->labels[t] < 0)
                df->labels[t] = k; /* a repeat borrows its first entry's array, filled here */
    }
    count_labels(ds);
}

void sl_dataset_free(sl_dataset *ds)
{
    if (!ds)
        return;
    for (int i = 0; i < ds->n_files; i++) {
        sl_data_file *df = &ds->files[i];
        free(df->audio);
        if (df->borrowed)
            continue;
        free(df->labels);
        sl_feature_file_free(&df->ff);
        sl_feature_file_free(&df->pcm);
    }
    free(ds->files);
    free(ds->class_frames);
    free(ds->crop_starts_cum);
    memset(ds, 0, sizeof *ds);
}

/* Every start frame of a full window is equally likely, so long files are
 * seen in proportion to their length; a file shorter than the window gives
 * at least one (padded) crop. Files without frames give none. With `left` and
 * `right` the starts reach that far past the file's edges: left = the model's
 * left context and right = T - left - 1 give every window the labeler runs at
 * a stream's start and end, and n crops to a file of n frames. */
int sl_dataset_prepare_crops(sl_dataset *ds, int T, int left, int right)
{
    free(ds->crop_starts_cum);
    ds->crop_starts_cum = malloc((size_t)(ds->n_files + 1) * sizeof *ds->crop_starts_cum);
    if (!ds->crop_starts_cum)
        return -1;
    ds->crop_window = T;
    ds->crop_left = left;
    int64_t acc = 0;
    ds->crop_starts_cum[0] = 0;
    for (int i = 0; i < ds->n_files; i++) {
        int64_t n = ds->files[i].ff.n_frames;
        int64_t starts = n - T + 1 + left + right;
        acc += n <= 0 ? 0 : (starts > 1 ? starts : 1);
        ds->crop_starts_cum[i + 1] = acc;
    }
    return 0;
}

void sl_dataset_crop(const sl_dataset *ds, int64_t u, int *file, int64_t *start)
{
    int lo = 0, hi = ds->n_files - 1; /* first i with cum[i+1] > u */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (ds->crop_starts_cum[mid + 1] > u)
            hi = mid;
        else
            lo = mid + 1;
    }
    *file = lo;
    *start = u - ds->crop_starts_cum[lo] - ds->crop_left;
}

int sl_dataset_load_pcm(sl_dataset *ds, int rate, const char *cache_dir, char *err, size_t errlen)
{
    for (int i = 0; i < ds->n_files; i++) {
        sl_data_file *df = &ds->files[i];
        if (df->borrowed) { /* its first entry, earlier, holds the samples */
            df->pcm = ds->files[df->first].pcm;
            continue;
        }
        if (sl_pcm_file_load(df->audio, rate, cache_dir, &df->pcm, err, errlen))
            return -1;
        if (df->pcm.n_samples != df->ff.n_samples)
            return sl_fail(err, errlen, "%s: %lld samples now, %lld when its features were made "
                                     "(file changed during training?)",
                        df->audio, (long long)df->pcm.n_samples, (long long)df->ff.n_samples);
    }
    return 0;
}

int sl_noise_list_next(char **text, const char *list, char *path, size_t size, int *line_no)
{
    const char *slash = strrchr(list, '/');
    int dir_len = slash ? (int)(slash - list) + 1 : 0;
    char *line;
    while ((line = sl_next_line(text)) != NULL) {
        ++*line_no;
        line[strcspn(line, "\r")] = '\0';
        if (!line[0] || line[0] == '#')
            continue;
        int w = line[0] == '/' ? snprintf(path, size, "%s", line)
                               : snprintf(path, size, "%.*s%s", dir_len, list, line);
        return w >= 0 && (size_t)w < size ? 1 : -1;
    }
    return 0;
}

int sl_noise_set_load(sl_noise_set *ns, const char *list, int rate, const char *cache_dir,
                      char *err, size_t errlen)
{
    memset(ns, 0, sizeof *ns);
    size_t len;
    char *text = sl_read_text(list, &len, err, errlen), *at = text;
    if (!text)
        return -1;
    char path[8300];
    int line_no = 0, cap = 0, rc = 0, got;
    while (rc == 0 && (got = sl_noise_list_next(&at, list, path, sizeof path, &line_no)) != 0) {
        if (got < 0) {
            rc = sl_fail(err, errlen, "%s:%d: the path is too long", list, line_no);
            break;
        }
        if (ns->n == cap) {
            int nc = cap ? 2 * cap : 16;
            sl_feature_file *nf = realloc(ns->files, (size_t)nc * sizeof *nf);
            if (!nf) {
                rc = sl_fail(err, errlen, "out of memory");
                break;
            }
            ns->files = nf;
            cap = nc;
        }
        if (sl_pcm_file_load(path, rate, cache_dir, &ns->files[ns->n], err, errlen)) {
            char msg[SL_ERR_LEN];
            snprintf(msg, sizeof msg, "%s", err ? err : "");
            rc = sl_fail(err, errlen, "%s:%d: %s", list, line_no, msg);
            break;
        }
        ns->n++;
        if (ns->files[ns->n - 1].n_samples == 0)
            rc = sl_fail(err, errlen, "%s:%d: %s has no samples", list, line_no, path);
    }
    free(text);
    if (rc == 0 && ns->n == 0)
        rc = sl_fail(err, errlen, "%s: the noise list names no file", list);
    if (rc)
        sl_noise_set_free(ns);
    return rc;
}

void sl_noise_set_free(sl_noise_set *ns)
{
    if (!ns)
        return;
    for (int i = 0; i < ns->n; i++)
        sl_feature_file_free(&ns->files[i]);
    free(ns->files);
    memset(ns, 0, sizeof *ns);
}
