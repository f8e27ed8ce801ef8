/* seqlabel — audio sequence labeling: the one public header of libseqlabel.
 *
 * Data flows one way: PCM -> features (sl_features) -> encoder (sl_model) ->
 * streaming labeler + decoder (sl_labeler) -> labels and segments. The GStreamer
 * element and the `seqlabel` command are thin front-ends over these calls.
 *
 * Conventions: functions that can fail return 0 on success and a negative
 * value on failure, writing a one-line message (naming the file and the
 * problem where there is one) into `err` (at most `errlen` bytes, may be NULL).
 * An object's _free and _reset take NULL and do nothing, as free(NULL) does.
 * No global state: objects are independent and may be used from different
 * threads as long as one object is not used by two threads at once. Two
 * process-wide libraries are shared with the program: FFTW, whose planner the
 * library runs (under a lock of its own) when a feature extractor is made or
 * freed (sl_features_new and _free, sl_labeler_new and _free, ...), so a program that plans FFTW
 * transforms itself on another thread meanwhile must make FFTW's planner
 * thread-safe (fftwf_make_planner_thread_safe); and OpenBLAS, whose thread
 * count only sl_train changes, and gives back when it returns.
 */
#ifndef SEQLABEL_H
#define SEQLABEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Building libseqlabel, whose other functions are hidden (-fvisibility=hidden):
 * what this header declares is what the shared library exports. */
#if defined(SL_BUILDING_LIBRARY) && defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

#define SL_VERSION_STRING "0.2.0"
#define SL_ERR_LEN 4608 /* error buffers: a path as long as PATH_MAX (4096) and the reason */

/* ======================================================================
 * Features (features/): Kaldi-compatible framing, FFT, log-mel, MFCC.
 * ====================================================================== */

typedef enum {
    SL_WINDOW_POVEY = 0, /* Kaldi's default: hann^0.85 */
    SL_WINDOW_HANN,
    SL_WINDOW_HAMMING,
    SL_WINDOW_RECTANGULAR
} sl_window_type;

/* The rates and mel bin counts sl_features_new takes. */
#define SL_MIN_SAMPLE_RATE 1000
#define SL_MAX_SAMPLE_RATE 384000
#define SL_MIN_MEL_BINS 3
#define SL_MAX_MEL_BINS 1024

typedef struct {
    int sample_rate;          /* Hz; default 16000 */
    float frame_length_ms;    /* window length; default 25 */
    float frame_shift_ms;     /* hop; default 10 */
    int num_mel_bins;         /* default 80 */
    float low_freq;           /* Hz; default 20 */
    float high_freq;          /* Hz; <= 0 means Nyquist + high_freq (Kaldi); default 0 */
    sl_window_type window;    /* default SL_WINDOW_POVEY */
    float preemph;            /* pre-emphasis coefficient; default 0.97 */
    int remove_dc;            /* subtract each frame's mean; default 1 */
    float dither;             /* Gaussian dither stddev in int16 units; default 0 (off) */
    uint32_t dither_seed;     /* seed of the dither generator; default 0 */
    int use_energy;           /* log-energy as dimension 0, as Kaldi does; default 0 */
    float energy_floor;       /* Kaldi's energy floor (linear); default 0 */
    int raw_energy;           /* energy before pre-emphasis and window; default 1 */
    int num_ceps;             /* 0: log-mel fbank; > 0: that many MFCCs; default 0 */
    float cepstral_lifter;    /* MFCC liftering coefficient; default 22 */
    float input_scale;        /* samples are multiplied by this first: Kaldi works on
                                 int16-scaled values, so float PCM in [-1, 1] is scaled
                                 by 32768 by default */
} sl_feature_config;

void sl_feature_config_default(sl_feature_config *cfg);
/* Checks ranges and that the settings fit together (mel bins vs FFT size, ...). */
int sl_feature_config_validate(const sl_feature_config *cfg, char *err, size_t errlen);
/* Derived sizes (valid config required). */
int sl_feature_dim(const sl_feature_config *cfg);          /* mel bins (+1 with energy) or num_ceps
                                                            (Kaldi: energy replaces C0, no extra dim) */
int sl_feature_frame_length(const sl_feature_config *cfg); /* window in samples */
int sl_feature_frame_shift(const sl_feature_config *cfg);  /* hop in samples */
int sl_feature_fft_size(const sl_feature_config *cfg);     /* window rounded up to a power of two */
/* Frames that snip_edges framing yields for n samples: 0 if n < window. */
int64_t sl_feature_num_frames(const sl_feature_config *cfg, int64_t n_samples);

/* Streaming extractor. Frames come out as soon as their window is complete and
 * are bit-identical to extracting the whole signal at once, whatever the push
 * sizes. FFT plans are made once per extractor. */
typedef struct sl_features sl_features;

/* Called for each finished frame; `index` counts frames from 0 since creation or
 * the last reset. Return non-zero to stop the push (it then returns that value;
 * samples of that chunk not yet taken are dropped: sl_features_samples_seen
 * says how many were; frames whose samples were taken come first on the next
 * push, one of 0 samples too). */
typedef int (*sl_frame_fn)(void *user, int64_t index, const float *frame, int dim);

sl_features *sl_features_new(const sl_feature_config *cfg, char *err, size_t errlen);
void sl_features_free(sl_features *f);
void sl_features_reset(sl_features *f); /* forget buffered samples; next frame is index 0 */
const sl_feature_config *sl_features_config(const sl_features *f);
/* Pushes n samples. Non-finite samples, and samples so large that a frame's
 * power would overflow float (beyond about 1.1e10 at the default input scale
 * and window: docs/features.md), are refused: returns -1 with a message giving
 * the value and the absolute sample position, and nothing of the chunk is
 * taken (the caller may repair or skip it and push on); so is a pcm of NULL
 * with n > 0. */
int sl_features_push(sl_features *f, const float *pcm, size_t n, sl_frame_fn fn, void *user,
                     char *err, size_t errlen);
/* Samples received since creation/reset. */
int64_t sl_features_samples_seen(const sl_features *f);

/* Per-dimension mean/variance normalisation: x = (x - mean) * inv_std. */
void sl_normalize(float *frame, const float *mean, const float *inv_std, int dim);

/* Accumulates mean and variance (in double) over frames, for the trainer. */
typedef struct {
    int dim;
    int64_t count;
    double *sum, *sum_sq;
} sl_stats;
int sl_stats_init(sl_stats *s, int dim);
void sl_stats_add(sl_stats *s, const float *frame);
/* Writes mean and 1/stddev (stddev floored so constant dims do not blow up). */
void sl_stats_finish(const sl_stats *s, float *mean, float *inv_std);
void sl_stats_free(sl_stats *s); /* NULL: nothing */

/* ======================================================================
 * Audio files (io/): any format libsndfile reads and Asterisk's headerless
 * telephony files, downmixed to mono and resampled (libsoxr) to a
 * target rate, read in bounded blocks.
 * ====================================================================== */

typedef struct sl_audio_reader sl_audio_reader;

/* Headerless input: when `raw_encoding` is not SL_RAW_NONE the file (or stdin)
 * is read as interleaved samples of that encoding at raw_rate / raw_channels.
 * The telephony codecs are mono only. */
typedef enum {
    SL_RAW_NONE = 0, /* self-describing file (WAV, FLAC, OGG, AIFF, ...) */
    SL_RAW_S16LE,    /* signed 16-bit little-endian */
    SL_RAW_F32LE,    /* 32-bit float little-endian */
    SL_RAW_ULAW,     /* G.711 mu-law, a byte per sample */
    SL_RAW_ALAW,     /* G.711 A-law, a byte per sample */
    SL_RAW_GSM,      /* GSM 06.10 full rate: 33-byte frames of 160 samples */
    SL_RAW_G722      /* G.722 at 64 kbit/s (spandsp decodes it): 16 kHz only, files only */
} sl_raw_encoding;

/* The command-line name of an encoding ("s16le", "f32le", "ulaw", "alaw", "gsm",
 * "g722") to its value; -1 when the name is none of them. */
int sl_raw_encoding_from_name(const char *name, sl_raw_encoding *enc);
/* The headerless telephony files Asterisk names by extension: .ulaw .ul .mu
 * (mu-law), .alaw .al (A-law), .gsm and .sln at 8 kHz, .g722 at 16 kHz, and
 * .sln12 .sln16 .sln24 .sln32 .sln44 (44.1 kHz) .sln48 .sln96 .sln192 (16-bit
 * linear). Returns 1 and sets *enc and *rate when the path's extension is one
 * of them (any case), else 0. sl_audio_open and sl_audio_open_ex read such a
 * file this way unless the caller set a raw_encoding of its own. */
int sl_raw_format_from_path(const char *path, sl_raw_encoding *enc, int *rate);
/* 1 when a file of this name is audio that sl_audio_open reads by its name: the
 * extensions libsndfile's formats go by (.wav .flac .ogg .opus .mp3 .aiff .au
 * .caf ...) and the telephony names above (any case); 2 for the containers
 * GStreamer decodes for it (.m4a .mp4 .aac .mkv .mka .webm .wma .mov .avi .3gp
 * .amr .ac3 .mpg ...); else 0. What a folder stands for, as input to `seqlabel
 * label` or as a manifest. */
int sl_audio_name_known(const char *path);
/* 1 when path is a URI ("scheme://...": http, https, rtsp, file, ...), which
 * sl_audio_open reads through GStreamer (a network stream arrives live, its
 * length unknown), else 0. */
int sl_audio_is_uri(const char *path);
/* Calls fn for every file below the folder dir that `take` accepts by its name
 * (NULL: sl_audio_name_known), depth first in name order, hidden files and
 * folders left out, links to files followed and links to folders not (as
 * find(1) does; a link that leads nowhere, named as `take` accepts, is passed
 * on, so that opening it fails naming it): path is dir joined with rel, the
 * file's path below dir. fn
 * returns 0 to go on. 0; -1 with a message (a folder that cannot be read, a
 * path too long); or fn's non-zero value. */
int sl_audio_files_below(const char *dir, int (*take)(const char *name),
                         int (*fn)(void *user, const char *path, const char *rel), void *user,
                         char *err, size_t errlen);
/* The same, going on past the parts of the tree that cannot be taken (a
 * folder that cannot be read, a path too long, folders nested too deep):
 * each is handed to lost with the message that names it, and the walk goes
 * on where lost returns 0 (a batch labels what it can and says what it could
 * not), or ends with its non-zero value. */
int sl_audio_files_below_ex(const char *dir, int (*take)(const char *name),
                            int (*fn)(void *user, const char *path, const char *rel),
                            int (*lost)(void *user, const char *why), void *user, char *err,
                            size_t errlen);

/* How libsoxr converts rates (linear phase; docs/io.md has the figures). */
typedef enum {
    SL_RESAMPLE_BEST = 0,   /* SOXR_VHQ | SOXR_STEEP_FILTER: flat to 97.5% of Nyquist (tested) */
    SL_RESAMPLE_MEDIUM = 1, /* SOXR_HQ */
    SL_RESAMPLE_FAST = 2    /* SOXR_LQ */
} sl_resample_quality;

typedef struct {
    int target_rate;                 /* output rate; 0 keeps the file's rate (default 0) */
    sl_resample_quality quality;     /* default SL_RESAMPLE_BEST (see io/audio_reader.c) */
    sl_raw_encoding raw_encoding;    /* default SL_RAW_NONE */
    int raw_rate;                    /* Hz, raw input only */
    int raw_channels;                /* raw input only */
    /* Called with every block of the input's own samples as they are read, before
     * downmixing and resampling: n_frames interleaved frames of `channels`
     * doubles at the file's rate, on libsndfile's normalised scale, so every
     * sample of every encoding is exact, 32-bit integers and doubles too (what
     * `seqlabel label --cut` writes out). NULL (default): none. */
    void (*tap)(void *user, const double *frames, long n_frames, int channels);
    void *tap_user;
    int no_gstreamer;                /* 0 (default): a file libsndfile does not read (MP4,
                                        M4A, Matroska, WebM, WMA, a video's sound) is
                                        decoded by GStreamer, unless its name is one of
                                        libsndfile's (a .wav it cannot read is damaged,
                                        and said so); 1: refused */
    volatile int *interrupt;         /* NULL (default), or a flag (set by a signal
                                        handler): a read waiting on GStreamer's decoding
                                        (a network stream that stalls) ends, as at the
                                        end of the input, once it is non-zero */
    int channel;                     /* 0 (default): the mean of the channels; k: channel
                                        k alone (1-based; more than the file has is an
                                        error naming it), as a stereo call's two sides */
    int stream;                      /* 0 (default) or 1: the first audio stream; k: the
                                        k-th of a file GStreamer decodes with several (a
                                        film's other language, a podcast's tracks); a
                                        file libsndfile reads holds one, so k > 1 there,
                                        or more than a file holds, is an error naming it */
    double stall_seconds;            /* input GStreamer decodes that gives no audio, no
                                        error and no end for this long is an error naming
                                        it (a demuxer's error that decodebin lost, a
                                        source that hangs); 0 (default): 30 s for a
                                        regular file, no limit for a URI, a pipe or a
                                        device (live input waits); < 0: no limit */
} sl_audio_options;

void sl_audio_options_default(sl_audio_options *opt);

/* path "-" reads standard input (WAV or other self-describing format that
 * libsndfile can read from a pipe, or raw samples via sl_audio_open_ex).
 * target_rate 0 keeps the file's own rate. Output is mono (mean of channels, or
 * one of them: sl_audio_options.channel).
 * A file with no samples at all is refused ("contains no audio"); a file
 * shorter than a feature window is not an error. */
sl_audio_reader *sl_audio_open(const char *path, int target_rate, char *err, size_t errlen);
sl_audio_reader *sl_audio_open_ex(const char *path, const sl_audio_options *opt, char *err,
                                  size_t errlen);
int sl_audio_rate(const sl_audio_reader *r);        /* output rate */
int sl_audio_file_rate(const sl_audio_reader *r);   /* the file's own rate */
int sl_audio_channels(const sl_audio_reader *r);    /* the file's channel count */
int64_t sl_audio_file_frames(const sl_audio_reader *r); /* -1 when unknown (pipes,
                                                           GStreamer's input) */
/* The input's libsndfile format (SF_FORMAT_* container | encoding; headerless
 * input: SF_FORMAT_RAW with its encoding, G.722 as the 16-bit samples it decodes
 * to); 0 for a file GStreamer decoded (no format libsndfile writes), but for an
 * MP3 read by name, which GStreamer decodes when it states no length. */
int sl_audio_file_format(const sl_audio_reader *r);
/* Reads up to max mono samples at the output rate. Returns the count (0 at end),
 * or -1 with a message naming the file (corrupt data, a file cut short, NaN/Inf
 * at a position counted in the file's own sample frames from 0). The samples
 * before a failure come first, whatever max is (the block that holds a
 * NaN/Inf aside), then -1, and every read after it is -1 with the same
 * message. Memory is bounded: the file is read in fixed blocks whatever its
 * length. */
long sl_audio_read(sl_audio_reader *r, float *out, long max, char *err, size_t errlen);
/* Sample frames taken from the file so far (at the file's rate). */
int64_t sl_audio_file_position(const sl_audio_reader *r);
/* When the input's recording began, as the file says, in microseconds since the
 * Unix epoch (sl_label_writer.utc_origin_us): a Broadcast WAVE file's 'bext'
 * chunk (WAV, RF64; what field recorders and broadcast loggers write), its
 * origination date and time, which name no zone and so are read as local time
 * (TZ), to the second. 0; -1 when the input says nothing of it (no such chunk,
 * a date that is none, any input GStreamer decodes). */
int sl_audio_recording_start(const sl_audio_reader *r, int64_t *us);
void sl_audio_close(sl_audio_reader *r);

/* Streaming conversion to a labeler's input (the element's, for streams at
 * another rate or channel count): interleaved frames of `channels` channels at
 * in_rate become mono samples at out_rate, the channels' mean resampled by
 * libsoxr at SL_RESAMPLE_BEST, with the very functions sl_audio_read converts a
 * file with, so a stream gives the same samples whatever the push sizes, and
 * those of its file read from a pipe to within float rounding at some rates
 * (where the two feed soxr differently; far under the 16-bit step the labeler
 * rounds to); from a regular file (whose resampler uses soxr's
 * larger default DFTs) the same at 48 kHz, within 1e-6 at 44.1 kHz.
 * Bounded memory: fixed buffers of its own; libsoxr grows its buffers in the
 * first pushes and sets itself up again after a reset or flush (some
 * allocations there), then allocates nothing. */
typedef struct sl_converter sl_converter;
/* Receives converted samples (valid during the call); non-zero stops the push,
 * which returns that value (the callback owns the message then). */
typedef int (*sl_samples_fn)(void *user, const float *mono, size_t n);

/* NULL with a message when the channel count (1..1024) or the rate ratio (up to
 * 1:256) cannot be converted. */
sl_converter *sl_converter_new(int in_rate, int channels, int out_rate, char *err, size_t errlen);
void sl_converter_free(sl_converter *c);
/* `frames` interleaved frames; float (NaN/Inf refused with the frame's position)
 * or 16-bit (scaled by 1/32768, as libsndfile reads 16-bit files). */
int sl_converter_push(sl_converter *c, const float *pcm, size_t frames, sl_samples_fn fn,
                      void *user, char *err, size_t errlen);
int sl_converter_push_s16(sl_converter *c, const int16_t *pcm, size_t frames, sl_samples_fn fn,
                          void *user, char *err, size_t errlen);
/* End of stream: the resampler's tail, then a reset. */
int sl_converter_flush(sl_converter *c, sl_samples_fn fn, void *user, char *err, size_t errlen);
/* Forget the stream (its tail is dropped). */
void sl_converter_reset(sl_converter *c);
/* Which channel to label: 0 (the default) the mean of all, k (1-based) channel k
 * alone. -1 with a message when the stream has fewer channels. */
int sl_converter_set_channel(sl_converter *c, int channel, char *err, size_t errlen);
/* Output samples the resampler holds back: how much later than its input a
 * converted sample comes out (0 at equal rates). */
int sl_converter_delay(const sl_converter *c);

/* ======================================================================
 * Model (model/): the model file, the encoder forward pass.
 * ====================================================================== */

typedef enum { SL_ACT_RELU = 0, SL_ACT_GELU = 1 } sl_activation;

typedef struct {
    int n_features;   /* input dimension (= sl_feature_dim of the feature config) */
    int d_model;      /* even (sinusoidal positions come in sin/cos pairs) */
    int n_heads;      /* d_model % n_heads == 0 */
    int n_layers;
    int d_ff;
    int n_classes;
    int max_window;   /* longest window T the model accepts */
    sl_activation activation;
    int norm_first;   /* 0: post-norm (the paper's), 1: pre-norm + final LayerNorm */
    int qkv_bias;     /* biases on the Q/K/V projections (the output projection always
                         has a bias; see docs/encoder.md for the PyTorch mapping) */
    int scale_input;  /* multiply the input projection by sqrt(d_model) */
    int band_left;    /* attention reaches this many frames back; -1 = whole window */
    int band_right;   /* ... and this many frames ahead; -1 = whole window */
    float ln_eps;     /* LayerNorm epsilon; default 1e-5 */
    /* Streaming window the model was trained with (defaults of the labeler). */
    int stream_window;    /* frames per encoder window */
    int stream_left;      /* left context frames whose outputs are discarded */
    int stream_lookahead; /* right context frames whose outputs are discarded */
} sl_model_config;

#define SL_MAX_CLASSES 256
#define SL_MAX_CLASS_NAME 64   /* bytes of UTF-8 per class name, without the NUL */
/* Limits the loader enforces before allocating anything. */
#define SL_MAX_LAYERS 64
#define SL_MAX_DIM 8192        /* n_features, d_model, d_ff */
#define SL_MAX_HEADS 64
#define SL_MAX_WINDOW 65536
#define SL_MAX_TENSOR_NAME 64
/* Threads an encoder, a labeler, an evaluation or a training takes at most. */
#define SL_MAX_THREADS 64

/* A new model's training crops and streaming window when none is given (frames). */
#define SL_TRAIN_WINDOW_NEW 400

/* A small default: d_model 128, 4 heads, 4 layers, d_ff 512, post-norm, ReLU,
 * qkv_bias 1, whole-window attention, max_window 1024, stream window 400 with
 * 100 frames of left context and 50 of lookahead. n_features and n_classes are 0:
 * the caller sets them. */
void sl_model_config_default(sl_model_config *cfg);
/* Checks ranges and that the dimensions fit together. */
int sl_model_config_validate(const sl_model_config *cfg, char *err, size_t errlen);

typedef struct sl_model sl_model;

/* Loads a model file; NULL with a message naming the file and the problem.
 * path NULL (what sl_default_model_path gives when there is no model): NULL,
 * the message saying how to give one. */
sl_model *sl_model_load(const char *path, char *err, size_t errlen);
/* `name` is used in error messages. */
sl_model *sl_model_load_memory(const void *data, size_t size, const char *name, char *err, size_t errlen);
/* A new model with every parameter zero (see sl_model_init_params). norm_mean /
 * norm_inv_std (n_features values) may be NULL: mean 0, inv_std 1. class_names:
 * n_classes UTF-8 strings, distinct, 1..SL_MAX_CLASS_NAME bytes. The feature config
 * must give sl_feature_dim(fcfg) == cfg->n_features. */
sl_model *sl_model_create(const sl_model_config *cfg, const sl_feature_config *fcfg,
                          const float *norm_mean, const float *norm_inv_std,
                          const char *const *class_names, char *err, size_t errlen);
void sl_model_free(sl_model *m);
/* Atomic: PATH.tmp.<pid>.XXXXXX (X's random, mode 0600; beside the file a
 * symbolic link at PATH leads to), renamed over it when complete, with the mode
 * of the file it replaces; a device or FIFO at PATH is written as it is (a
 * rename would replace it), and a file this user may not write is refused, as
 * are, in a folder anyone may write whose files only their owners may remove
 * (sticky, world-writable: /tmp), a link another user owns and a file or FIFO
 * another user owns, unless that user owns the folder (the kernel's
 * protected_symlinks and protected_regular). */
int sl_model_save(const sl_model *m, const char *path, char *err, size_t errlen);
/* PyTorch's default initialisation of the reference module (Linear: uniform
 * +-1/sqrt(fan_in); in_proj: Xavier uniform, its bias and out_proj's bias 0;
 * LayerNorm 1/0), from a deterministic generator seeded with `seed`. */
void sl_model_init_params(sl_model *m, uint64_t seed);

const sl_model_config *sl_model_get_config(const sl_model *m);
const sl_feature_config *sl_model_feature_config(const sl_model *m);
const float *sl_model_norm_mean(const sl_model *m);    /* n_features values */
const float *sl_model_norm_inv_std(const sl_model *m); /* n_features values */
/* The normalised feature frame of digital silence: a window of zeros through the
 * model's own front-end and normalisation. The labeler (unless clip_edges) and the
 * trainer's crops give it to the encoder wherever a window reaches before the
 * start or past the end of the stream or file. out: n_features floats. */
int sl_model_silence_frame(const sl_model *m, float *out, char *err, size_t errlen);
/* Replaces the normalisation statistics (the trainer computes them). */
void sl_model_set_norm(sl_model *m, const float *mean, const float *inv_std);
/* Replaces the streaming window (validated against max_window). */
int sl_model_set_stream(sl_model *m, int window, int left, int lookahead, char *err, size_t errlen);
/* Class k's name (UTF-8), the model's own string: valid until sl_model_free. */
const char *sl_model_class_name(const sl_model *m, int k);
int sl_model_class_index(const sl_model *m, const char *name); /* -1 if absent */
size_t sl_model_num_params(const sl_model *m);

/* All parameters live in ONE contiguous float block, as named tensors in
 * PyTorch's layouts (nn.Linear weight: out x in, row-major) named after the
 * reference module's state_dict keys (tools/reference_model.py), in a fixed
 * order (docs/model-format.md). A trainer allocates gradients and optimiser
 * moments as blocks of sl_model_num_params floats with the same offsets. */
typedef struct {
    char name[SL_MAX_TENSOR_NAME]; /* e.g. "encoder.layers.0.self_attn.in_proj_weight" */
    int ndim;                      /* 1 or 2 */
    int shape[2];                  /* shape[1] is 1 when ndim == 1 */
    size_t offset;                 /* in floats from the start of the block */
    size_t count;                  /* shape[0] * shape[1] */
} sl_tensor_info;

float *sl_model_params(sl_model *m);
const float *sl_model_params_const(const sl_model *m);
int sl_model_num_tensors(const sl_model *m);
const sl_tensor_info *sl_model_tensor(const sl_model *m, int i); /* NULL if out of range */
/* Index of the tensor called `name`, or -1. */
int sl_model_find_tensor(const sl_model *m, const char *name);

/* The mean of every parameter of n models (weight averaging of checkpoints or
 * fine-tunings of one model: model/average.c says when that makes sense).
 * Shape, features, normalisation, classes and streaming window must be
 * identical; otherwise NULL with a message naming names[i] (used only in
 * messages). A new model the caller frees. */
sl_model *sl_model_average(const sl_model *const *models, const char *const *names, int n,
                           char *err, size_t errlen);

/* A bigger model that computes what `m` computes (model/grow.c): n_layers >= m's
 * (the new layers come last and start as the identity) and d_ff >= m's (the new
 * feed-forward units start adding nothing); what is new but feeds those zeros
 * is initialised at random from `seed`. Pre-norm models only. Everything else
 * is m's. A new model the caller frees; NULL with a message on error. */
sl_model *sl_model_grow(const sl_model *m, int n_layers, int d_ff, uint64_t seed, char *err,
                        size_t errlen);

/* `m` with the classes `names` (model/with_classes.c): its encoder, features and
 * normalisation, and an output layer over these classes, where each class m has
 * keeps its weights (by name) and a new one is initialised at random from
 * `seed`; m's classes not named are dropped. For training a labeler of one's own
 * classes from a trained model. A new model the caller frees; NULL with a message
 * on error (fewer than 2 classes, a name twice or not valid; a new class's name
 * holding a space, ',' or '=', which lists and RTTM could not carry). */
sl_model *sl_model_with_classes(const sl_model *m, const char *const *names, int n,
                                uint64_t seed, char *err, size_t errlen);

/* The model a front-end uses when none is named: $SEQLABEL_MODEL when set, else
 * the installed default model (<datadir>/seqlabel/default.slm) when readable, else,
 * for a library run from its build tree (an uninstalled build: the library, or
 * the program linked with it, lies where meson's layout puts it in seqlabel's
 * build folder, found by the seqlabel-source-root file meson writes there; no
 * folder further up counts, nor an install staged inside it) alone, the source tree's
 * model/default.slm when readable, else NULL (the variable's own string, valid
 * while the environment is unchanged; the others static). The two fixed
 * places, for help texts (the source tree's NULL for an installed library,
 * which never uses it): */
const char *sl_default_model_path(void);
const char *sl_installed_model_path(void);
const char *sl_source_model_path(void);

/* Scratch memory for one thread running the encoder on windows of up to max_T
 * frames (max_T <= config max_window). Allocated once; forward allocates nothing;
 * refused, saying so, where it is more than this process may still take (as
 * sl_labeler_memory_bytes says), and so are the threads' scratch.
 * Several encoders may share one model from different threads. On CPUs with
 * AVX-512 the encoder keeps its own copy of the weight matrices, packed for its
 * kernels: parameters changed after sl_encoder_new need a new encoder. */
typedef struct sl_encoder sl_encoder;
sl_encoder *sl_encoder_new(const sl_model *m, int max_T, char *err, size_t errlen);
void sl_encoder_free(sl_encoder *e);
int sl_encoder_max_T(const sl_encoder *e);
/* Bytes sl_encoder_new(m, max_T) allocates (on one thread; the packed weights
 * included), without allocating them: 0 if max_T is not in 1..max_window. The
 * window's square costs little (attention runs in blocks of queries); most of
 * it grows with max_T x (10 d_model + d_ff + n_classes) floats, and on the
 * AVX-512 path with the keys and values packed per head. */
size_t sl_encoder_memory_bytes(const sl_model *m, int max_T);
/* Splits each window's frames between n_threads threads that the encoder owns
 * (started here, never in forward; 1 = the caller's thread only, the default).
 * Results are bit-identical for any thread count. Meant for OpenBLAS running
 * single-threaded (OPENBLAS_NUM_THREADS=1 or openblas_set_num_threads(1)):
 * both kinds of threads at once oversubscribe the cores, and on CPUs without
 * AVX2, where the products are OpenBLAS's, its own threads change the
 * results' last bits (about 1e-6 in a probability): `seqlabel label` runs it
 * on one thread, and a program gets the command's bits by doing the same. */
int sl_encoder_set_threads(sl_encoder *e, int n_threads, char *err, size_t errlen);
int sl_encoder_threads(const sl_encoder *e);
/* feats: T x n_features, already normalised. probs: T x n_classes softmax
 * probabilities (may be NULL when logits is given). logits (optional, may be
 * NULL): T x n_classes. Returns -1 if T is not in 1..max_T. */
int sl_encoder_forward(sl_encoder *e, const float *feats, int T, float *logits, float *probs);
/* Floating-point operations of one forward pass over T frames (for benchmarks). */
double sl_encoder_flops(const sl_model_config *cfg, int T);

/* ======================================================================
 * Streaming labeler and decoder (model/labeler.c, model/decoder.c) and the
 * label output formats (io/label_format.c). One implementation for every
 * front-end: the `seqlabel label` command and the GStreamer element call these.
 *
 * Frames: frame i stands for the samples [i*hop, (i+1)*hop) of the stream
 * (hop = sl_feature_frame_shift of the model's feature config); its time is
 * i*hop / sample_rate seconds. A segment [start, end) covers frames
 * start..end-1, i.e. the time span [start*hop, end*hop) / sample_rate.
 * ====================================================================== */

/* How frame labels are smoothed before minimum durations apply. */
typedef enum {
    SL_SMOOTH_NONE = 0,    /* per-frame argmax */
    SL_SMOOTH_VITERBI = 1  /* most probable label path where every label change costs
                              `switch_penalty` nats, decided with a fixed lag of
                              `smoothing_lag` frames (docs/labeling.md says why) */
} sl_smoothing;

/* Viterbi's lag when none is given: 5 frames (50 ms at a 10 ms hop), the best
 * frames of the lags tried and segments within a point of lags of 20 or 100
 * (docs/labeling.md, "Decoder"). */
#define SL_SMOOTHING_LAG_DEFAULT 5

/* The decoder: probabilities -> labels -> segments, in five stages, each with a
 * bounded delay (their sum is sl_decoder_delay_frames):
 *  1. fixed-lag Viterbi with a switch penalty (the default; delay: the lag):
 *     frame t - lag takes its label from the best path over frames 0..t among
 *     those through the first frame of the run of labels given out so far, so
 *     the labels given out are one path and each change is paid for; or argmax
 *     (delay 0);
 *  2. target class hysteresis (VAD use): when target_class >= 0, a frame is the
 *     target class while p[target] stays >= off_threshold after having reached
 *     on_threshold; other frames take the best non-target label of stage 1
 *     (delay 0);
 *  3. minimum durations: a run of label c shorter than min_duration_s[c] becomes
 *     the label before it (a new label is accepted once it has lasted its minimum;
 *     the first run of a stream and a run that equals the current label are
 *     accepted at once) (delay: longest minimum - 1 frame);
 *  4. padding: target-class segments grow by pad_before_s earlier and pad_after_s
 *     later, over other labels (delay: pad_before);
 *  5. segments: runs of equal labels with their mean confidence.
 * Durations in seconds count whole frames: the fewest that last as long (a
 * minimum of 0.015 s is 2 frames of 10 ms, so no run of 1 frame is kept). */
typedef struct {
    sl_smoothing smoothing;               /* default SL_SMOOTH_VITERBI */
    float switch_penalty;                 /* nats per label change; default 5 */
    int smoothing_lag;                    /* frames, at most 1,000,000 (its traceback
                                             keeps a column of each); -1 (default):
                                             SL_SMOOTHING_LAG_DEFAULT, or as many of those
                                             as a labeler's latency limit leaves
                                             (docs/labeling.md) */
    float min_duration_s[SL_MAX_CLASSES]; /* per class; 0 = none (default) */
    int target_class;                     /* class index; -1 = none (default) */
    float on_threshold;                   /* default 0.5 */
    float off_threshold;                  /* <= on_threshold; default 0.35 */
    float pad_before_s;                   /* default 0 */
    float pad_after_s;                    /* default 0 */
} sl_decoder_config;

void sl_decoder_config_default(sl_decoder_config *cfg);

/* Parses per-class minimum durations such as "speech=0.2,music=0.5" (seconds)
 * into cfg->min_duration_s, resolving class names with the model; classes not
 * named keep their value, or take that of "*=SECONDS" (every class the string
 * does not name: "speech=0.25,*=0.3", a VAD's minimum speech and minimum gap;
 * a model's class named '*' is that class). Unknown class or bad number: -1
 * with a message. The command and the element share it so that both accept
 * the same strings. */
int sl_decoder_parse_min_durations(sl_decoder_config *cfg, const sl_model *m, const char *spec,
                                   char *err, size_t errlen);

/* Where labels go. Either callback may be NULL. A callback that returns
 * non-zero stops the current push/finish, which returns that value (err says
 * a sink stopped it); the labeler (or decoder) must then be reset before it is
 * used again: a labeler's push or finish returns -1 until then. A callback may
 * not call its labeler's functions (a push or finish there returns -1 and
 * sl_labeler_reset does nothing): to stop, return non-zero, then reset.
 * Frames arrive in index order, each exactly once, each after every frame
 * before it; a segment arrives as soon as its last frame has been emitted and
 * the label changes (or at finish). */
typedef struct {
    void *user;
    /* probs: n_classes probabilities of the encoder for this frame (valid only
     * during the call); confidence = probs[label]. */
    int (*on_frame)(void *user, int64_t index, int label, float confidence,
                    const float *probs, int n_classes);
    /* frames [start, end); mean_confidence = mean of the frames' confidences. */
    int (*on_segment)(void *user, int64_t start, int64_t end, int label,
                      float mean_confidence);
} sl_label_sink;

/* The decoder alone, for probabilities computed elsewhere (the labeler owns one;
 * sl_evaluate_manifest and tests use it directly). Frames are pushed in order from index 0.
 * Constant memory; allocates nothing after creation. */
typedef struct sl_decoder sl_decoder;
/* frames_per_second converts the config's seconds to frames (100 at 10 ms hop;
 * in (0, 1e6)). */
sl_decoder *sl_decoder_new(const sl_decoder_config *cfg, int n_classes, double frames_per_second,
                           char *err, size_t errlen);
void sl_decoder_free(sl_decoder *d);
void sl_decoder_reset(sl_decoder *d);
/* probs: the frame's n_classes probabilities; a NaN counts as 0. */
int sl_decoder_push(sl_decoder *d, const float *probs, const sl_label_sink *sink);
/* End of stream: emits every frame still held and closes the last segment, then
 * resets (the next push is frame 0 of a new stream). */
int sl_decoder_finish(sl_decoder *d, const sl_label_sink *sink);
/* The most frames by which emission lags the pushed frames. */
int sl_decoder_delay_frames(const sl_decoder *d);
/* The settings that change no stage's delay, changed as a live stream runs: the
 * switch penalty (how readily labels change) and the target class's hysteresis
 * thresholds (a VAD's sensitivity). The penalty prices the label changes of the
 * Viterbi steps from the next pushed frame on, so it also moves the frames still
 * held in the lag; the thresholds decide every frame not yet past the hysteresis
 * stage, those in the lag too. State (the paths, inside a target segment or not)
 * and the delay stay as they are. A penalty outside [0, 1e6], or with a target
 * class thresholds other than 0 <= off <= on <= 1 (without one they are unused,
 * as sl_decoder_new takes them): -1 with a message, and nothing changed. */
int sl_decoder_retune(sl_decoder *d, float switch_penalty, float on_threshold,
                      float off_threshold, char *err, size_t errlen);

typedef struct {
    /* Encoder windows, in frames; -1 takes the model's stream_* value. With window
     * -1, changing left_context or lookahead keeps the model's core (window - left
     * - lookahead) and changes the window, so a smaller lookahead means a smaller
     * latency. Requires core >= 1 and window <= the model's max_window. */
    int left_context;
    int lookahead;
    int window;
    /* > 0: labels final at most this many seconds after their audio (the latency
     * below, the decoder's delay included; a default Viterbi lag, -1, takes as
     * many of its SL_SMOOTHING_LAG_DEFAULT frames as the limit leaves after the
     * analysis window and the decoder's other stages, before the lookahead), for
     * live input: the model's window
     * is kept whole and as much of its lookahead as fits, its core shrunk to the
     * rest (the left context grows by as much), so more encoder work per frame
     * (a core of one frame: a window per frame); a limit at or above the
     * model's own latency changes nothing. Window, left_context and lookahead
     * must then be -1; a limit below the analysis window's reach and the
     * decoder's delay is an error. 0 (default): none. */
    double max_latency_s;
    /* 0 (default): frames before the stream and past its end are the model's
     * silence frame (sl_model_silence_frame), so every window is whole, as in
     * training (the trainer's crops reach past file edges the same way; on short
     * files this labels many more frames right, docs/labeling.md). 1: windows are
     * clipped at the stream's ends instead (shorter first and last windows), as
     * labelers before it did. */
    int clip_edges;
    int num_threads;          /* encoder threads (pthreads, created once); default 1.
                                 Labels are identical for every thread count. */
    sl_decoder_config decoder;
} sl_labeler_config;

void sl_labeler_config_default(sl_labeler_config *cfg);

/* The streaming labeler: PCM in any push sizes -> features (the model's own
 * feature config and normalisation) -> encoder windows anchored to frame
 * indices -> decoder -> sink. Core block k is frames [k*core, (k+1)*core); the
 * encoder sees the window [k*core - left, (k+1)*core + lookahead), with the
 * model's silence frame before the stream and past its end (or, with
 * clip_edges, clipped to the frames that exist), with positions from 0, and
 * emits the core's probabilities. So labels depend only on the samples, never on push
 * sizes or thread count. Constant memory and work per frame for endless input.
 * The model must outlive the labeler. */
typedef struct sl_labeler sl_labeler;

/* cfg NULL: the defaults. m NULL: NULL with a message (so a failed
 * sl_model_load may be passed straight in). */
sl_labeler *sl_labeler_new(const sl_model *m, const sl_labeler_config *cfg, char *err,
                           size_t errlen);
void sl_labeler_free(sl_labeler *l);
/* Forget the stream: the next sample is sample 0, the next frame frame 0. */
void sl_labeler_reset(sl_labeler *l);
/* Pushes n mono samples at the model's sample rate (float, nominally [-1, 1]).
 * Every frame whose label is decided by these samples reaches the sink before
 * the call returns (sink NULL: the labels are dropped, the frames counted).
 * Non-finite samples (NaN, +-Inf): -1 with a message giving the first one's
 * position, and none of the n samples taken; so too pcm NULL with n > 0. */
int sl_labeler_push(sl_labeler *l, const float *pcm, size_t n, const sl_label_sink *sink,
                    char *err, size_t errlen);
/* The same for signed 16-bit samples (scaled by 1/32768), converted in bounded
 * blocks without allocating. */
int sl_labeler_push_s16(sl_labeler *l, const int16_t *pcm, size_t n, const sl_label_sink *sink,
                        char *err, size_t errlen);
/* End of stream: labels the tail (its window filled out with silence frames, or
 * shorter with clip_edges), emits every remaining frame and the last segment,
 * then resets. After finish, exactly
 * sl_feature_num_frames(samples pushed) frames have been emitted. */
int sl_labeler_finish(sl_labeler *l, const sl_label_sink *sink, char *err, size_t errlen);

/* Latency: frame i has been emitted once sample (i+1)*hop + latency - 1 has been
 * pushed, and this is the smallest such number for the worst frame:
 *   latency = frame_length - hop + (core - 1 + lookahead + decoder delay) * hop
 * (window length beyond the hop, waiting for a whole core block and its
 * lookahead, then the decoder's smoothing/min-duration/padding delay). */
int64_t sl_labeler_latency_samples(const sl_labeler *l);
int sl_labeler_sample_rate(const sl_labeler *l);
/* Bytes of the labeler's buffers: per thread an encoder (sl_encoder_memory_bytes
 * of its window) and the window's probabilities, the frames waiting, the
 * feature extractor (FFTW's plan aside) and the decoder; the model's own
 * weights aside. Fixed at sl_labeler_new, which refuses a labeler needing more
 * than this process may still take before allocating its buffers: the
 * kernel's MemAvailable, or a control group's room under its limit (a
 * container's), or $SEQLABEL_MEMORY_LIMIT (bytes, or 4G, 512M) where lower
 * (docs/labeling.md, "Memory and work"). */
size_t sl_labeler_memory_bytes(const sl_labeler *l);
int sl_labeler_frame_shift(const sl_labeler *l);  /* hop in samples */
/* The first sample, at `rate`, of frame f when frames are `hop` samples apart
 * at `model_rate`: where the frame's time span starts, floor(f * hop * rate /
 * model_rate). Frame f's label covers samples [start(f), start(f + 1)) of the
 * audio at its own rate (the element's gate and `seqlabel label --cut`). */
int64_t sl_frame_start_sample(int64_t f, int hop, int rate, int model_rate);
int sl_labeler_frame_length(const sl_labeler *l); /* feature window in samples */
int sl_labeler_num_classes(const sl_labeler *l);
/* The window settings in force (defaults resolved). Any pointer may be NULL. */
void sl_labeler_window(const sl_labeler *l, int *window, int *left_context, int *lookahead,
                       int *core);
int64_t sl_labeler_samples_pushed(const sl_labeler *l); /* since creation/reset */
int64_t sl_labeler_frames_emitted(const sl_labeler *l); /* since creation/reset (which
                                                           sl_labeler_finish does: read it before) */
const sl_model *sl_labeler_model(const sl_labeler *l);
/* sl_decoder_retune on the labeler's decoder: the frames not yet handed to it
 * (the encoder gives a core block at a time) and those in its lag are decided
 * with the new settings. */
int sl_labeler_retune(sl_labeler *l, float switch_penalty, float on_threshold,
                      float off_threshold, char *err, size_t errlen);

/* ---- Label output formats (io/label_format.c): text lines for files, pipes and
 * GStreamer buffers. Times in seconds with 6 decimals; probabilities %.9g; in
 * the C locale whatever the program's (a '.' always). */
typedef enum {
    SL_FORMAT_AUDACITY = 0, /* segments: "start\tend\tlabel" (an Audacity label track) */
    SL_FORMAT_FRAMES,       /* frames: TSV with a header line: frame, time, label,
                               confidence, then one column per class probability */
    SL_FORMAT_JSONL,        /* one JSON object per frame, or per segment (jsonl_segments) */
    SL_FORMAT_RTTM,         /* segments: "SPEAKER <file> 1 <start> <dur> <NA> <NA> <label> <NA> <NA>" */
    SL_FORMAT_TEXTGRID,     /* Praat TextGrid: a whole document (sl_label_format_textgrid),
                               nothing per header, frame or segment */
    SL_FORMAT_WEBVTT,       /* subtitles: header "WEBVTT", then per segment a cue
                               "00:00:00.120 --> 00:00:01.500\nspeech" and a blank line */
    SL_FORMAT_SUMMARY,      /* one JSON line per stream when it ends
                               (sl_label_format_summary): each class's time and segments */
    SL_FORMAT_SRT,          /* SubRip subtitles: per segment a cue numbered from 1,
                               "1\n00:00:00,120 --> 00:00:01,500\nspeech" and a blank line */
    SL_FORMAT_CSV           /* segments as a CSV table (RFC 4180's quoting; line ends
                               LF, as the other formats', which its readers take): a
                               header "start,end,label,confidence", then
                               "0.120000,1.500000,speech,0.9" per segment; a field
                               holding a comma, a quote or a line break quoted */
} sl_label_format;

/* "audacity", "frames", "jsonl", "rttm", "textgrid", "webvtt", "summary", "srt",
 * "csv": 0, else -1. */
int sl_label_format_parse(const char *name, sl_label_format *out);
const char *sl_label_format_name(sl_label_format f);

typedef struct {
    sl_label_format format;
    int jsonl_segments;     /* jsonl: 1 = one object per segment, 0 = per frame (default) */
    /* segment formats: 1 for each class whose segments are left out (e.g.
     * silence, or silence and noise); all 0 after sl_label_writer_init */
    unsigned char skip[SL_MAX_CLASSES];
    int sample_rate;        /* times = frame * hop / sample_rate */
    int hop;
    int n_classes;
    const char *class_names[SL_MAX_CLASSES]; /* borrowed */
    char file_id[4096];     /* RTTM file column: the name, whitespace and bytes
                               that are not UTF-8 replaced by '_' (so it is one
                               field), cut past 4095 bytes (a path's most: a
                               stream's name column holds the folders below
                               the one labelled) at a character boundary */
    char file_name[4096];   /* the summary's "file": the name as given (cut only
                               past 4095 bytes, at a character boundary; a byte
                               that is not UTF-8 is written as U+FFFD); "" (a
                               writer filled by hand): file_id is used */
    int channel;            /* the channel labelled (1-based; sl_audio_options.channel):
                               RTTM's channel column (0: 1) and the summary's
                               "channel"; 0 after sl_label_writer_init */
    int has_utc_origin;     /* 1: utc_origin_us says when frame 0 began, and JSON
                               Lines and the summary give times as UTC too ("utc";
                               "start_utc", "end_utc"), ISO 8601; 0 after
                               sl_label_writer_init: they do not */
    int64_t utc_origin_us;  /* that moment, in microseconds since the Unix epoch
                               (0 is 1970-01-01T00:00:00Z, negative before it) */
    int64_t first_frame;    /* documents: the frame where labelling began (a
                               stream played from a seek's target); 0 after
                               sl_label_writer_init */
    int64_t segments_written; /* segment lines formatted whole so far (those of
                               skipped classes not counted): SubRip numbers its
                               cues by it; 0 after sl_label_writer_init */
    int name_lines;         /* 1: each Audacity, frames, CSV or JSON Lines line names
                               its file first, for several files in one stream (as
                               grep names them): a first column of file_id
                               (Audacity, frames, whose header gets a "file"
                               column), of file_name (CSV, quoted as it needs; its
                               header gets a "file" column) or a first key "file"
                               of file_name (JSON Lines); 0 after
                               sl_label_writer_init: none */
} sl_label_writer;

/* A moment for sl_label_writer.utc_origin_us, in microseconds since the Unix
 * epoch: "@SECONDS" (fractions too, as date(1) takes them) or ISO 8601 with its
 * zone ("2026-12-05T10:00:00Z", "2026-12-05T11:00:00.25+01:00"). 0, or -1 for
 * anything else (no zone, February 30th, ...): say it with SL_UTC_FORMS. */
int sl_parse_utc(const char *s, int64_t *us);
/* 1 for the formats that give UTC times with an origin (JSON Lines, summary). */
int sl_label_format_has_utc(sl_label_format f);
#define SL_UTC_FORMS "not a moment: @SECONDS since 1970, or ISO 8601 with its zone " \
                     "(2026-12-05T10:00:00Z, 2026-12-05T11:00:00.5+01:00)"

/* Fills the writer from a model (class names, rate, hop) and the name of what
 * it labels (file_id and file_name; NULL or "": "-"). */
void sl_label_writer_init(sl_label_writer *w, sl_label_format format, const sl_model *m,
                          const char *file_id);
/* Sets w->skip from a comma-separated list of the writer's class names
 * ("silence,noise"; spaces around a name ignored): keep_only 0, the segments
 * of those classes are left out (the command's --skip, the element's
 * skip-classes); 1, those of every other class are (--only, only-classes).
 * 0, or -1 with a message naming an unknown class, or an empty name (a comma
 * too many: ",noise"). */
int sl_label_writer_set_skip(sl_label_writer *w, const char *list, int keep_only, char *err,
                             size_t errlen);
/* Each formats one piece of text into buf (NUL-terminated, truncated to len like
 * snprintf) and returns the length it needs, 0 when the format has nothing for
 * this call (e.g. segments in the frames format), or -1 on a bad argument.
 * Lines end with '\n'. A segment that fits in buf counts in w->segments_written
 * (so one formatted again in a larger buffer, after a call that returned len or
 * more, counts once). */
int sl_label_format_header(const sl_label_writer *w, char *buf, size_t len);
int sl_label_format_frame(const sl_label_writer *w, char *buf, size_t len, int64_t index,
                          int label, float confidence, const float *probs);
int sl_label_format_segment(sl_label_writer *w, char *buf, size_t len, int64_t start,
                            int64_t end, int label, float mean_confidence);
/* 1 if the format is written per frame (frames, jsonl per frame), 0 per segment. */
int sl_label_format_is_per_frame(const sl_label_writer *w);

/* A segment as the decoder gives it: frames [start, end), class `label`. */
typedef struct {
    int64_t start, end;
    int label;
} sl_frame_segment;
/* Praat's TextGrid (its long text format, as Praat writes it) of a stream's n
 * segments, in order and not overlapping, up to frame end_frame: one
 * IntervalTier named "labels" from w->first_frame (or the first segment's
 * start, when earlier) to the later of end_frame and the last segment's end. Gaps and segments of skipped classes are intervals with empty text,
 * merged, as a tier must cover its whole time. Returns the length needed like
 * the functions above, or -1 on a bad argument (overlap, unknown class), or
 * SL_TEXT_TOO_LONG when the document would pass INT_MAX bytes (2 GiB: about
 * 17 million intervals). */
#define SL_TEXT_TOO_LONG (-2)
int sl_label_format_textgrid(const sl_label_writer *w, char *buf, size_t len,
                             const sl_frame_segment *segs, size_t n, int64_t end_frame);
/* What a stream holds, from the same segments over the same span: one JSON
 * object on one line, {"file": file_name, "duration": seconds, "classes":
 * {"<name>": {"seconds": s, "share": s / duration, "segments": k}, ...}}, every
 * class of the writer in order but skipped ones; a span that does not begin at
 * 0 adds "start": its time in seconds, before "duration". Returns the length needed, or
 * -1 on a bad argument (overlap, unknown class). */
int sl_label_format_summary(const sl_label_writer *w, char *buf, size_t len,
                            const sl_frame_segment *segs, size_t n, int64_t end_frame);
/* 1 if the format is a document written whole when the stream ends (textgrid,
 * summary: from its segments), 0 otherwise. */
int sl_label_format_is_document(const sl_label_writer *w);
/* That document: sl_label_format_textgrid or sl_label_format_summary as the
 * writer's format says; 0 (nothing) for the other formats. */
int sl_label_format_document(const sl_label_writer *w, char *buf, size_t len,
                             const sl_frame_segment *segs, size_t n, int64_t end_frame);

/* ======================================================================
 * Training and evaluation (model/trainer.c and the model/train_*.c,
 * model/manifest.c, model/feature_cache.c files): the library behind
 * `seqlabel train` and `seqlabel eval` (docs/training.md).
 *
 * Data: a manifest is a TSV file, one labeled audio file per line:
 *   audio<TAB>labels[<TAB>train|valid|test]
 * (relative paths are taken from the manifest's folder; empty lines and lines
 * starting with '#' are skipped). Labels are Audacity label tracks
 * ("start<TAB>end<TAB>name", seconds), Praat TextGrids ("x.TextGrid": its
 * first interval tier; "x.TextGrid#words": the tier named words), RTTM files
 * ("x.rttm": the audio's turns by speaker name; "x.rttm#speech": every turn of
 * class speech, overlaps merged; sl_rttm_read with the audio's name), subtitles
 * ("x.vtt" WebVTT, "x.srt" SubRip: sl_subtitles_read), JSON Lines segments
 * ("x.jsonl": sl_jsonl_read), CSV tables ("x.csv": sl_csv_read), or "=NAME":
 * the whole file is NAME (clip-level labels, as sound-event datasets give them). Frame i (the samples [i*hop, (i+1)*hop))
 * takes the label of the segment containing its centre (i + 0.5) * hop;
 * frames outside every segment are unlabeled and ignored (-1).
 * ====================================================================== */

typedef enum { SL_SPLIT_NONE = 0, SL_SPLIT_TRAIN, SL_SPLIT_VALID, SL_SPLIT_TEST } sl_split;

/* The split a manifest's split column or first folder names: "train", "valid" or
 * "test", or "validation", "val" or "dev" for valid. 0, or -1: none. */
int sl_split_parse(const char *name, sl_split *out);

typedef struct {
    char *audio;  /* resolved path */
    char *labels; /* resolved path, or "=NAME" for a whole-file label */
    sl_split split; /* SL_SPLIT_NONE when the line has no split column */
    int line;     /* 1-based line in the manifest */
    int rttm_by_id; /* 1: its RTTM file is the labels of other audio too, so its
                       lines go by file id alone (a file it never names has
                       none), not taken whole when it holds one id */
} sl_manifest_entry;

typedef struct {
    char *path;
    sl_manifest_entry *entries;
    int n;
} sl_manifest;

int sl_manifest_load(const char *path, sl_manifest *out, char *err, size_t errlen);
void sl_manifest_free(sl_manifest *m);
/* Marks as SL_SPLIT_VALID the entries with no split whose audio path from the
 * manifest's folder (a/x.wav for a line a/x.wav, ./a/x.wav or /data/set/a/x.wav
 * in /data/set/m.tsv, the folder found among an absolute line's folders by
 * device and inode, so links in either spelling do not matter; ../b/y.wav
 * beside it, between real paths; "." and ".." in a line resolved on its text)
 * hashes below `share` (in [0, 1]): about that share of them, the same entries
 * every time and on every machine (a file listed twice goes one way), whatever
 * the order of the lines and however the manifest is named; a manifest without
 * a path (m->path NULL): the audio paths as they are. Entries with a split keep
 * it. Returns how many it marked, or -1 when out of memory. */
int sl_manifest_hold_out(sl_manifest *m, double share);
/* The same by group: the hash is taken of a key that `group`, a POSIX extended
 * regular expression, finds in that path (the text of its first parenthesised
 * group, else the whole match), so that entries of one key (clips of one
 * recording, a speaker's files) go the same way: "spk[0-9]+" keys by a
 * speaker id anywhere in the path, "([0-9]+)-[^/]*$" by the number a file name
 * begins with (UrbanSound8K's source ids). NULL: the whole path
 * (sl_manifest_hold_out). A path the pattern does not match is an error (the
 * manifest's line named), as is a bad pattern: -1 with err. */
int sl_manifest_hold_out_groups(sl_manifest *m, double share, const char *group, char *err,
                                size_t errlen);

typedef struct {
    double start, end; /* seconds, start <= end */
    char *name;
    int line;          /* 1-based line in the label file */
} sl_label_segment;

/* Reads an Audacity label file (Audacity's frequency lines "\\t..." are
 * skipped). Segments come sorted by start; overlapping segments, end < start,
 * bad numbers and empty names are errors naming the file and line. */
int sl_audacity_read(const char *path, sl_label_segment **segs, int *n, char *err, size_t errlen);
/* Reads a subtitle file, WebVTT (it begins "WEBVTT"; `seqlabel label --format
 * webvtt` writes them) or else SubRip (.srt; --format srt): each cue a segment
 * of the class its text names (markup dropped, but a SubRip cue of one tag
 * alone, "<s>", read as written; WebVTT's character references read, lines
 * joined by a space, trimmed; a cue without text labels nothing). Segments
 * come sorted by start; overlapping cues, bad times and a .vtt file without
 * its "WEBVTT" line are errors naming the file and line. */
int sl_subtitles_read(const char *path, sl_label_segment **segs, int *n, char *err,
                      size_t errlen);
/* Reads a JSON Lines file of segments, one object per line with "start" and
 * "end" (seconds) and "label" (`seqlabel label --format jsonl --segments`;
 * other members passed over). Segments come sorted by start; a line that is
 * no such object (a frame's, without --segments), overlaps and bad times are
 * errors naming the file and line. */
int sl_jsonl_read(const char *path, sl_label_segment **segs, int *n, char *err, size_t errlen);
/* Reads a CSV table of segments (`seqlabel label --format csv`, or a
 * spreadsheet's): a header naming columns start, end and label (any order and
 * case, each once; others, such as confidence, passed over; at most 64), a row
 * per segment (blank rows, ",,," too, skipped), RFC 4180's quoting, LF or CRLF
 * line ends. A "file" column must hold one name
 * throughout (a label file is one input's). Segments come sorted by start;
 * a header without those columns, rows of another width, overlaps and bad
 * times are errors naming the file and line. */
int sl_csv_read(const char *path, sl_label_segment **segs, int *n, char *err, size_t errlen);
/* Reads a Praat TextGrid (long or short text format, UTF-8 or Praat's UTF-16):
 * the intervals of the interval tier named `tier` (NULL: the first interval
 * tier) whose text is not empty (text trimmed of spaces; an empty interval
 * labels nothing), in order, as segments; `line` is the line of each text.
 * Errors name the file and, where there is one, the line (a tier missing,
 * with the interval tiers there are; intervals reversed or out of order). */
int sl_textgrid_read(const char *path, const char *tier, sl_label_segment **segs, int *n,
                     char *err, size_t errlen);
/* Reads an RTTM file's SPEAKER lines ("SPEAKER <file> <chan> <start> <dur> <NA>
 * <NA> <name> ..."; ';;' comments and other line types skipped): those of
 * file_id (NULL: all; a file holding one file's lines under another id: those),
 * each of class <name>, or of as_class when not NULL. Turns of one class that
 * overlap or touch merge into one segment; overlapping turns of two classes are
 * an error that names both lines. Segments come sorted by start. */
int sl_rttm_read(const char *path, const char *file_id, const char *as_class,
                 sl_label_segment **segs, int *n, char *err, size_t errlen);
void sl_label_segments_free(sl_label_segment *segs, int n);
/* An entry's segments: its label file's (by its extension a TextGrid, RTTM,
 * subtitle or JSON Lines file, else an Audacity track), or for "=NAME" one segment from 0 to INFINITY (the whole
 * file, however long) whose line is the manifest's. */
int sl_manifest_entry_segments(const sl_manifest_entry *e, sl_label_segment **segs, int *n,
                               char *err, size_t errlen);

struct sl_events;

/* Per-frame metrics of a labeled set. confusion[t * n_classes + p] counts
 * frames of true class t predicted as p. */
typedef struct {
    int n_classes;
    int64_t *confusion;
    double loss_sum; /* sum of -log p(true class) over counted frames */
    int64_t frames;  /* counted (labeled) frames */
    int no_loss;     /* 1: scored from labels alone (sl_score_manifest): no loss */
    const char *audio; /* one file's figures (sl_eval_options.on_file): its path, which
                          the JSON names first; NULL for a set's */
    const struct sl_events *events; /* one file's figures with sl_eval_options.events: its
                          own events, which the JSON holds ("events"); else NULL */
} sl_metrics;

int sl_metrics_init(sl_metrics *mt, int n_classes);
void sl_metrics_reset(sl_metrics *mt);
void sl_metrics_free(sl_metrics *mt);
double sl_metrics_accuracy(const sl_metrics *mt);
double sl_metrics_loss(const sl_metrics *mt); /* mean NLL, 0 when empty */
/* precision/recall/F1 of class k (0 where undefined, and for a k that is no class). */
void sl_metrics_class(const sl_metrics *mt, int k, double *precision, double *recall, double *f1);
/* Mean F1 over the classes that occur (as truth or prediction): the
 * validation score by which the trainer keeps its best model. */
double sl_metrics_macro_f1(const sl_metrics *mt);
/* F1 of class k against all other classes merged (speech vs rest). */
double sl_metrics_binary_f1(const sl_metrics *mt, int k);
/* Loss, accuracy, per-class P/R/F1, macro F1, speech-vs-rest F1 (when a class
 * is called "speech") and the confusion matrix, as text lines starting with
 * `prefix`. class names from the model. */
void sl_metrics_print(const sl_metrics *mt, const sl_model *m, const char *prefix, void *fp);
/* The same with the class names given (mt->n_classes of them). */
void sl_metrics_print_names(const sl_metrics *mt, const char *const *names, const char *prefix,
                            void *fp);
/* The same figures as one JSON object on one line (`seqlabel eval --json`):
 * {"frames", "loss", "accuracy", "macro_f1", "speech_vs_rest_f1" (null without
 * a speech class, or without a speech frame in reference and prediction alike:
 * the text then says '-'), "classes": [{"name", "precision", "recall", "f1", "frames",
 * "predicted"}...], "confusion": [[...]...] (rows: true class), and with
 * mt->events "events": {"f1", "error_rate", "reference", "system", "segment_f1",
 * "segment_error_rate"}}, numbers %.9g. Formats into buf like snprintf and
 * returns the length needed. */
int sl_metrics_format_json(const sl_metrics *mt, const sl_model *m, char *buf, size_t len);
int sl_metrics_format_json_names(const sl_metrics *mt, const char *const *names, char *buf,
                                 size_t len);

/* One class's probability against the truth, for choosing a threshold
 * (`seqlabel eval --sweep CLASS`): the frames of the class (pos) and of the
 * other classes (neg) whose probability of it lies in each of SL_SWEEP_BINS
 * bins, bin b holding [b, b + 1) / SL_SWEEP_BINS (and 1 the last). */
#define SL_SWEEP_BINS 1000
/* The table's thresholds: 0.05, 0.10, ..., 0.95. */
#define SL_SWEEP_POINTS 19
struct sl_events;
typedef struct {
    int target;
    int64_t pos[SL_SWEEP_BINS], neg[SL_SWEEP_BINS];
    /* NULL, or the class's events at each of the table's thresholds
     * (sl_sweep_init_events): the runs of frames at or above it, or with the
     * decoder the runs it labels the class */
    struct sl_events *events;
    /* NULL, or the decoder that labels each table point (sl_sweep_init_decoder):
     * tp[i] and fp[i] count the frames of the class and the other frames it
     * labels the class at point i */
    sl_decoder *decoder;
    double off_gap;       /* the decoder's off threshold lies this far below on */
    float switch_penalty; /* the decoder's, kept through its retunes */
    int64_t tp[SL_SWEEP_POINTS], fp[SL_SWEEP_POINTS];
} sl_sweep;

/* Counts one frame whose probability of s->target is p (in [0, 1]) and whose
 * reference is (is_target) or is not that class. */
void sl_sweep_count(sl_sweep *s, double p, int is_target);
/* The figures of calling a frame the class when its probability is at least
 * b / SL_SWEEP_BINS (b in [0, SL_SWEEP_BINS]): precision, recall and F1 of the
 * class, the false-alarm rate (other frames called the class) and the miss
 * rate (1 - recall); 0 where undefined. Any pointer may be NULL. */
void sl_sweep_point(const sl_sweep *s, int b, double *precision, double *recall, double *f1,
                    double *false_alarm, double *miss);
/* The bin edge b of the best F1 (the lowest of equals), and the one where the
 * false-alarm and miss rates lie closest (the equal error rate: their mean there). */
void sl_sweep_best(const sl_sweep *s, int *best_f1, int *equal_error);
/* A table of every 0.05 of threshold (SL_SWEEP_POINTS rows; with the decoder an
 * off_threshold column after the threshold; with events, two more columns:
 * event_f1, event_error_rate) with the best F1 and the equal error rate, as text
 * lines starting with `prefix` (the class named `name`). */
void sl_sweep_print(const sl_sweep *s, const char *name, const char *prefix, void *fp);
/* The same as one JSON object on one line: {"sweep": name, "best_f1",
 * "best_f1_threshold", "equal_error_rate", "equal_error_threshold", "points":
 * [{"threshold"(, "off_threshold" with the decoder), "precision", "recall", "f1",
 * "false_alarm", "miss"(, "event_f1", "event_error_rate" with events)}...]};
 * formats like snprintf and returns the length needed. */
int sl_sweep_format_json(const sl_sweep *s, const char *name, char *buf, size_t len);
/* Gives the sweep events: SL_SWEEP_POINTS counts with `like`'s classes, collar and
 * segment, s->target alone scored, so that the table and the JSON points gain
 * each threshold's event F1 and error rate (those `seqlabel label --target CLASS`
 * gives with both thresholds at that value, scored with `eval --events CLASS`;
 * with the decoder, those of its labels). -1 when out of memory. */
int sl_sweep_init_events(sl_sweep *s, const struct sl_events *like);
/* Makes the sweep the decoder's (`seqlabel eval --sweep CLASS` with decoder
 * options): each table point's frame figures and events are those of the labels
 * cfg gives with s->target as its target class, its on threshold at the point
 * and its off threshold below it by cfg's gap (on - off), not below 0; the best
 * F1 and the equal error rate are then the table's points'. The bins still count
 * the probabilities (sl_sweep_count: the frames of the class and the others).
 * -1 with a message when the decoder cannot be made. */
int sl_sweep_init_decoder(sl_sweep *s, const sl_decoder_config *cfg, int n_classes,
                          double frames_per_second, char *err, size_t errlen);
/* Frees what sl_sweep_init_events and sl_sweep_init_decoder gave (NULL:
 * nothing). */
void sl_sweep_release(sl_sweep *s);
/* Adds one file to a decoder's sweep: its n x n_classes probabilities decoded
 * at each point, counted against `scored` (its references after any collar; -1:
 * not scored) and, with events, against `ref` (its references as they are:
 * where it is -1, the decoded events are cut away). -1 when out of memory. */
int sl_sweep_add_decoded(sl_sweep *s, const int32_t *scored, const int32_t *ref,
                         const float *probs, int n_classes, int64_t n);
/* Adds one file to the sweep's events (none: nothing): its reference labels and
 * each frame's probability of the target, n frames; a negative probability is a
 * frame without one, the class's at no threshold. -1 when out of memory. */
int sl_sweep_add_events(sl_sweep *s, const int32_t *ref, const double *prob, int64_t n);

/* Sound event detection metrics (model/events.c): the segment-based and
 * event-based figures of Mesaros, Heittola and Virtanen (2016), as sed_eval
 * computes them for DCASE, on the frame grid. An event is a run of frames of one
 * scored class. Event-based: a reference and a system event of one class match
 * when their onsets lie within `collar` frames and their offsets within it or
 * within half the reference event's length; matches are a maximum matching;
 * what is left in place but of another class is a substitution. Segment-based:
 * each file cut into `segment` frames from its start, a class active in a
 * segment where one of its events reaches into it; the file's evaluated length
 * is the last offset of either. Counts only: the figures come from
 * sl_events_summary. */
typedef struct sl_events {
    int n_classes;
    unsigned char scored[SL_MAX_CLASSES]; /* 1: this class's runs are events (init: all) */
    int collar;                           /* frames (0.2 s: 20) */
    int segment;                          /* frames (1 s: 100) */
    int64_t ev_ref[SL_MAX_CLASSES], ev_sys[SL_MAX_CLASSES], ev_tp[SL_MAX_CLASSES];
    int64_t ev_subs;
    int64_t seg_tp[SL_MAX_CLASSES], seg_fp[SL_MAX_CLASSES], seg_fn[SL_MAX_CLASSES];
    int64_t seg_s, seg_d, seg_i, segments;
} sl_events;

typedef struct {
    int64_t event_ref, event_sys;
    double event_f1, event_precision, event_recall, event_macro_f1;
    double event_error_rate, event_substitution_rate, event_deletion_rate,
        event_insertion_rate;
    double segment_f1, segment_precision, segment_recall, segment_macro_f1,
        segment_error_rate;
} sl_event_figures;

void sl_events_init(sl_events *ev, int n_classes, int collar_frames, int segment_frames);
/* Adds one file: its reference and system frame labels (-1: none), n frames. -1
 * when out of memory. */
int sl_events_add(sl_events *ev, const int32_t *ref, const int32_t *sys, int64_t n);
/* The same for one file of a set: `file` gets total's settings and this file's
 * counts alone, which are added to total's too (per-file figures). */
int sl_events_add_file(sl_events *total, sl_events *file, const int32_t *ref,
                       const int32_t *sys, int64_t n);
/* Overall (micro-averaged over events or segments), and the mean of the class
 * F1s of classes with an event (macro_f1). */
void sl_events_summary(const sl_events *ev, sl_event_figures *f);
/* Text lines starting with `prefix` (frame_s: seconds per frame, for the
 * collar's and segment's lengths), and one JSON object on one line: {"events":
 * {...}, "segments": {...}, "classes": [...]}. */
void sl_events_print(const sl_events *ev, const char *const *names, double frame_s,
                     const char *prefix, void *fp);
int sl_events_format_json(const sl_events *ev, const char *const *names, double frame_s,
                          char *buf, size_t len);

/* How sl_evaluate_manifest and sl_score_manifest go over a manifest. */
typedef struct {
    sl_split split;          /* only that split's entries; SL_SPLIT_NONE: all (default) */
    double collar_s;         /* > 0: frames whose centre lies within collar_s of a change
                                of the reference's frame labels are not scored (the
                                forgiveness at boundaries VAD and diarisation scoring
                                use) [0] */
    /* NULL, or called after each entry with its own figures (file->audio set), which
     * are also added to the set's (an entry listed twice counts twice) */
    void (*on_file)(void *user, const sl_metrics *file);
    void *user;
    /* sl_evaluate_manifest: feature cache folder or NULL; encoder threads
     * (sl_encoder_set_threads) and files whose features are computed at once, which the
     * figures do not depend on [1]; windows cut short at the ends as with
     * sl_labeler_config.clip_edges [0] */
    const char *cache_dir;
    int num_threads;
    int clip_edges;
    /* NULL, or each scored frame's probability of sweep->target counted into it
     * (the counts zeroed by the caller): sl_evaluate_manifest's are the very floats
     * sl_labeler decides with; sl_score_manifest's are read from frames tables
     * (`seqlabel label --format frames`, NAME.tsv), the same floats, and it
     * refuses other label files */
    sl_sweep *sweep;
    /* sl_score_manifest: the frames, a model's feature config (those sl_labeler gives
     * each entry's audio); NULL: the default one (16 kHz, 25 ms windows 10 ms apart) */
    const sl_feature_config *features;
    /* sl_score_manifest: the class of scored frames no hypothesis segment covers (a
     * VAD's output, speech alone); -1 (default): such a frame is an error that names
     * the file and time */
    int gap_class;
    /* NULL, or each entry's events counted into it (sl_events_init by the caller):
     * the references' before the collar, and sl_score_manifest's hypotheses (a
     * gap as gap_class) or sl_evaluate_manifest's labels (the argmax frames or
     * the decoder's), cut away where the references leave time unlabelled */
    sl_events *events;
    /* sl_evaluate_manifest: NULL (default), the model's argmax frames are scored,
     * as the trainer scores them; or the labels this decoder makes of the same
     * probabilities, those `seqlabel label` writes with it (the loss stays the
     * model's) */
    const sl_decoder_config *decoder;
    /* NULL (default), or a NIST UEM file ("<file-id> <channel> <onset> <offset>"
     * per line, as md-eval, dscore and pyannote.metrics take them): only frames
     * whose centre lies in a region of their file (its id: its audio's name
     * without folder and extension) are scored, after the collar; a file it
     * gives no region is an error. Frame figures alone: with events (or the
     * sweep's) it is refused */
    const char *uem;
    /* the class of time no reference segment covers (a speech-only RTTM
     * reference: the rest non-speech, as md-eval scores it); -1 (default): such
     * time is not scored */
    int ref_gap_class;
    /* sl_score_manifest: NULL (default), or the folder that `seqlabel label`
     * labelled to write a hypothesis CSV or JSON Lines file of several inputs'
     * segments (its file column: each input's path below that folder without
     * extension): each entry takes the rows of its audio's path below it (real
     * paths), and one that lies elsewhere is an error. Such a file for several
     * entries without it is refused: its names alone cannot tell a/x.wav given
     * alone from a folder's x.wav. With a folder of label files (`label DIR -o
     * HYP/`), each entry's file is HYP/ and its path below it, that alone. */
    const char *hyp_root;
} sl_eval_options;

void sl_eval_options_default(sl_eval_options *opt);

/* Evaluates a model on the entries of a manifest with the labeler's own windows
 * (the model's stream window, left context and lookahead; positions from 0 in
 * each window), adding to `mt` (initialised with the model's class count).
 * Label names unknown to the model are errors, and so is a set whose labels
 * cover no frame, or whose every labelled frame opt's collar leaves out. opt
 * NULL: the defaults. */
int sl_evaluate_manifest(const sl_model *m, const char *manifest, const sl_eval_options *opt,
                         sl_metrics *mt, char *err, size_t errlen);

/* Scores label files that any tool wrote (`seqlabel eval --hyp`) against a
 * manifest's references, on a model's frames: a frame takes, in reference and
 * hypothesis alike, the class of the segment containing its centre. hyp: a
 * folder holding, for each entry, <its audio's name without folder and
 * extension>.txt (an Audacity label track), .TextGrid, .rttm, .vtt, .srt, .jsonl
 * (JSON Lines frames or segments) or .tsv (a frames table), each extension as
 * written here, in lower or upper case or capitalised, two files of one name an error,
 * as `seqlabel label -o DIR/` writes them; or one label file for every
 * entry, an RTTM file in particular, whose lines of file id <the audio's name>
 * are that entry's (also "x.rttm#speech": every turn as class speech,
 * "x.TextGrid#tier"). Names outside classes[0..n_classes) are errors, and so
 * is a hypothesis two entries of different audio would share (a/x.wav and
 * b/x.wav: one file id the RTTM file names, or one file found by name in the
 * folder). Adds to mt (initialised with n_classes; sets mt->no_loss). opt
 * NULL: the defaults. */
int sl_score_manifest(const char *manifest, const char *hyp, const char *const *classes,
                      int n_classes, const sl_eval_options *opt, sl_metrics *mt, char *err,
                      size_t errlen);
/* The label names of a manifest's entries (split filter as above) that are not
 * yet among names[0..*n), appended in order of first appearance (strdup'ed;
 * the caller frees them); at most SL_MAX_CLASSES in all. */
int sl_manifest_classes(const char *manifest, sl_split split, char **names, int *n, char *err,
                        size_t errlen);

typedef enum { SL_SCHEDULE_COSINE = 0, SL_SCHEDULE_LINEAR = 1 } sl_lr_schedule;

#define SL_MAX_TEACHERS 8

typedef struct {
    const char *train_manifest;  /* train (and valid) rows; test rows are skipped */
    const char *valid_manifest;  /* NULL: the valid rows of train_manifest */
    const char *out_path;        /* the best model by validation macro F1 (the last
                                    model without validation data), saved atomically */
    const char *checkpoint_path; /* NULL: none. Written atomically (temp + rename); a
                                    file already there is refused without resume */
    int resume;                  /* continue from checkpoint_path, exactly */
    int n_teachers;              /* knowledge distillation: 0 (off) .. SL_MAX_TEACHERS */
    const char *teacher_paths[SL_MAX_TEACHERS]; /* models run on every training window
                                    (same features; classes matched by name); their
                                    log-probabilities averaged give soft targets */
    float distill_weight;        /* each frame's target: (1 - w) its label + w the
                                    teachers' posteriors; default 0.5 */
    int teacher_clean;           /* 1: the teachers hear each window as its file holds it
                                    (no gain, noise, channel or masks), so the student
                                    learns to give augmented audio clean audio's
                                    posteriors; default 0: the student's own window */
    const char *init_path;       /* NULL, or a model file to start from (fine-tuning):
                                    its weights, shape, features, normalisation and
                                    classes; the optimiser and schedule start afresh, and
                                    `model` and `features` must not ask for anything
                                    else; `class_names`, when not the model's in its
                                    order, give it a new output layer
                                    (sl_model_with_classes, seeded with seed); and: */
    int grow_layers, grow_d_ff;  /* > 0: the init model grows to this many layers and
                                    this d_ff first (sl_model_grow, seeded with seed) */
    const char *cache_dir;       /* feature cache folder; NULL: no cache */
    int n_classes;               /* 0: the label names, in order of first appearance */
    const char *class_names[SL_MAX_CLASSES];
    sl_model_config model;       /* n_features and n_classes are filled in */
    sl_feature_config features;
    int window;                  /* crop length in frames, and a new model's streaming
                                    window; 0 (default): SL_TRAIN_WINDOW_NEW for a new
                                    model, else the streaming window of the model
                                    started from (init_path, or the checkpoint resumed) */
    int clip_edges;              /* 0 (default): crops also reach past a file's start
                                    (up to the model's left context) and end (up to
                                    window - left - 1 frames), where they hold the
                                    silence frame and no labels, so that the model learns
                                    the whole windows the labeler gives it at a stream's
                                    edges; validation runs the labeler's windows. 1:
                                    crops inside files, validation windows clipped
                                    (sl_labeler_config.clip_edges); how seqlabel trained
                                    before 2026-11-30 */
    int batch;                   /* windows per step; default 16 */
    int epochs;                  /* default 20; an epoch = ceil(train frames / (batch*window)) steps */
    int64_t max_steps;           /* > 0: total steps, overriding epochs */
    int64_t stop_after;          /* > 0: leave after this step (checkpoint written; needs
                                    checkpoint_path; a resumed checkpoint must be before it) */
    float lr;                    /* peak learning rate; default 1e-3 */
    int warmup;                  /* steps of linear warm-up; -1 (default): 5% of the steps, at most 500 */
    sl_lr_schedule schedule;     /* decay after warm-up; default cosine */
    float min_lr_ratio;          /* lr at the end / peak lr; default 0.05 */
    float weight_decay;          /* AdamW; default 0.01 */
    float beta1, beta2, adam_eps;/* default 0.9, 0.999, 1e-8 */
    float clip;                  /* global gradient norm limit; 0 = none; default 1 */
    int class_weights;           /* 1: inverse class frequency in the loss */
    float augment_gain_db;       /* > 0: random gain in [-x, x] dB per window */
    int augment_freq_mask;       /* > 0: two bands of up to this many feature bins per
                                    window set to the mean (SpecAugment); default 0 */
    int augment_time_mask;       /* > 0: two spans of up to this many frames per window
                                    set to the mean, labels kept; default 0 */
    float augment_lowpass;       /* > 0: share of windows low-passed at a random cutoff
                                    (3 to 7.5 kHz at 16 kHz) and floored as 16-bit audio
                                    (model/augment_band.c); default 0 */
    float augment_8bit;          /* > 0: share of windows floored as 8-bit audio (rounding
                                    noise 48 dB below full scale; with augment_lowpass,
                                    under the cutoff only); default 0 */
    float augment_eq_db;         /* > 0: every window coloured by a bass and a treble
                                    shelf of gains uniform in [-x, x] dB (corners
                                    100-500 Hz and 1.5-6 kHz at 16 kHz); default 0 */
    const char *noise_list;      /* NULL, or a file of noise audio paths (one a line):
                                    mixed into windows, features recomputed */
    float snr_min_db, snr_max_db;/* SNR range of the noise; default 0, 20 */
    float noise_prob;            /* share of windows that get noise; default 0.5 */
    uint64_t seed;               /* default 1 */
    int num_threads;             /* training-step threads (the batch split by windows;
                                    OpenBLAS then runs on one), and files whose
                                    features are computed at once; default 1 */
    int checkpoint_every;        /* steps between checkpoints; 0: after each epoch only */
    int progress;                /* progress lines on stderr; default 1 */
    void *report;                /* FILE * for per-epoch metrics, or NULL */
    volatile int *interrupt;     /* NULL, or a flag (set by a signal handler): when it
                                    becomes non-zero the run writes a checkpoint after the
                                    current step and returns SL_TRAIN_STOPPED ("interrupted
                                    after step N" in err; a failure to write that
                                    checkpoint returns -1); in the last step, or
                                    stop_after's, the run ends as it would have */
    float valid_share;           /* > 0 (below 1), without valid_manifest: that share of
                                    train_manifest's entries with no split held out for
                                    validation (sl_manifest_hold_out); default 0 */
    const char *valid_group;     /* with valid_share: hold out by the key this pattern
                                    finds in each path (sl_manifest_hold_out_groups);
                                    NULL: by the whole path */
    const char *gap_class;       /* NULL, or the class of time that no label segment
                                    covers, in training and validation files alike (a
                                    speech-only RTTM: the rest non-speech); a class of
                                    class_names or the init model's, or without either
                                    added after the labels' own. NULL: such time is
                                    left out of the loss and the scores */
} sl_train_config;

void sl_train_config_default(sl_train_config *c);
/* The settings alone, before any data is read (sl_train checks them first
 * too): ranges, options that need or exclude each other, a new model's shape.
 * 0 when they hold; otherwise -1 and the reason in err. */
int sl_train_config_check(const sl_train_config *c, char *err, size_t errlen);
/* Trains; 0 on success. Same config, seed and thread count: the same model,
 * also when stopped (stop_after or a crash) and resumed from a checkpoint. */
int sl_train(const sl_train_config *c, char *err, size_t errlen);
/* What sl_train returns where it stopped at an interrupt as asked (a run to
 * continue, not a failure: err says where, "interrupted after step N;
 * checkpoint PATH written: ...", "... while computing features", "... before
 * the first step"); negative, as a failure's -1, for callers that test < 0. */
#define SL_TRAIN_STOPPED (-2)

#if defined(SL_BUILDING_LIBRARY) && defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif /* SEQLABEL_H */
