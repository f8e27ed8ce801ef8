/* The model object and its parameter layout, shared by model/ (loader, encoder,
 * trainer). Internal to libseqlabel (not installed).
 *
 * All parameters live in one float block. The layout (which tensor sits at
 * which offset) is a pure function of the model config, so a trainer can bind
 * the same named views (sl_params) onto a gradient block or Adam moment blocks
 * of the same size and walk them in lock-step with the parameters. */
#ifndef SL_MODEL_INTERNAL_H
#define SL_MODEL_INTERNAL_H

#include "seqlabel.h"

/* Models learn from 16-bit audio (every corpus file is 16-bit PCM), whose
 * quantisation noise sits in every band at about -101 dBFS. Audio that never
 * was 16-bit (float files, lossy decodes, and above all anything upsampled in
 * float, such as 8 kHz telephone speech) has bands far emptier than that, which
 * a model has never seen (8 kHz speech read that way lost a tenth of its
 * recall: docs/labeling.md).
 * So every path into a model (labeler, feature cache) rounds samples to the
 * 16-bit grid first, clamped as a 16-bit file would hold them. A no-op on
 * 16-bit input at the model's rate. Samples must be finite (the clamp would
 * make Inf a full-scale sample): the labeler refuses a push holding any first,
 * and the reader and the trainer's augmentation give only finite ones. dst may
 * equal src. */
void sl_quantize_s16(const float *src, float *dst, size_t n);

/* Tensors: input_proj.{weight,bias}, per layer up to 12, encoder.norm.{weight,bias},
 * classifier.{weight,bias}. */
#define SL_MAX_TENSORS (2 + 12 * SL_MAX_LAYERS + 2 + 2)

/* One encoder layer's tensors (PyTorch names, PyTorch layouts). */
typedef struct {
    float *in_proj_weight;  /* 3d x d: rows [Wq; Wk; Wv] */
    float *in_proj_bias;    /* 3d, NULL when qkv_bias == 0 */
    float *out_proj_weight; /* d x d */
    float *out_proj_bias;   /* d */
    float *linear1_weight;  /* d_ff x d */
    float *linear1_bias;    /* d_ff */
    float *linear2_weight;  /* d x d_ff */
    float *linear2_bias;    /* d */
    float *norm1_weight, *norm1_bias; /* d */
    float *norm2_weight, *norm2_bias; /* d */
} sl_layer_params;

typedef struct {
    float *input_weight;      /* d x n_features */
    float *input_bias;        /* d */
    sl_layer_params layers[SL_MAX_LAYERS];
    float *final_norm_weight; /* d, NULL for post-norm */
    float *final_norm_bias;
    float *classifier_weight; /* n_classes x d */
    float *classifier_bias;   /* n_classes */
} sl_params;

/* Fills `table` (room for SL_MAX_TENSORS, may be NULL) with the tensors of a
 * valid config in file order; returns the tensor count and stores the total
 * float count in *total (may be NULL). */
int sl_param_layout(const sl_model_config *cfg, sl_tensor_info *table, size_t *total);
/* Named views into `block` (sl_param_layout's total floats) for a valid config. */
void sl_params_bind(const sl_model_config *cfg, float *block, sl_params *p);

struct sl_model {
    sl_model_config cfg;
    sl_feature_config fcfg;
    float *norm_mean;    /* n_features */
    float *norm_inv_std; /* n_features */
    char (*class_names)[SL_MAX_CLASS_NAME + 1];
    float *params;       /* the one parameter block */
    size_t n_params;
    sl_tensor_info *tensors;
    int n_tensors;
    sl_params views;     /* bound to params */
};

/* A labeler that says its latency, sample rate, frame shift and memory
 * (sl_labeler_memory_bytes) but cannot label: sl_labeler_new's settings
 * checked and resolved, its decoder and feature extractor made, its encoders
 * and buffers not (what a model would cost, asked without paying it: seqlabel
 * info, label --jobs). NULL with a message as sl_labeler_new's. Free it with
 * sl_labeler_free; it takes no samples. */
sl_labeler *sl_labeler_plan(const sl_model *m, const sl_labeler_config *cfg, char *err,
                            size_t errlen);
/* Bytes of d's buffers: a labeler's account of its memory. */
size_t sl_decoder_memory_bytes(const sl_decoder *d);

/* The first bytes of a training checkpoint (train_checkpoint.c), which the
 * model loader names when given one for a model. */
#define SL_CHECKPOINT_MAGIC "SLCKPT01"

/* Validates that a class name is 1..SL_MAX_CLASS_NAME bytes of valid UTF-8
 * without control characters (names go into TSV/JSON/RTTM outputs). */
int sl_class_name_valid(const char *s, size_t len);
/* What keeps s from naming a class, or NULL: not valid (above); and for a new
 * model's class (new_model 1), a space (RTTM splits its fields at spaces,
 * TextGrid readers trim them), ',' or '=' (lists such as --only speech,music
 * and --min-duration speech=0.2 could not name it). Models made before this
 * rule keep their names: eval and their own classes take any valid name. */
const char *sl_class_name_flaw(const char *s, int new_model);
/* The first of names[0..n) that m lacks and sl_class_name_flaw refuses as a
 * new model's class, or -1: --init --classes, sl_model_with_classes. */
int sl_model_new_class_refused(const sl_model *m, const char *const *names, int n);
/* The first of n dimensions whose mean is not finite or whose inverse standard
 * deviation is not finite and positive (either array may be NULL), or -1: what
 * a model may hold, checked where one is made, loaded and saved. */
int sl_norm_bad_dimension(const float *mean, const float *inv_std, int n);

/* The model file's bytes (what sl_model_save writes) into *bytes (malloc'd),
 * for writers that hold a model inside a file of their own (checkpoints).
 * 0, or -1 with a message naming `name` (a weight that is not finite). */
int sl_model_serialize(const sl_model *m, unsigned char **bytes, size_t *len, const char *name,
                       char *err, size_t errlen);

#endif
