/* Training step of the encoder: forward over a batch of windows saving every
 * activation the backward needs, weighted cross-entropy loss, backward into a
 * gradient block with the model's parameter layout; gradient clipping and the
 * AdamW update. The forward reuses model/layers.h, so training and inference
 * compute the very same function.
 *
 * Internal to libseqlabel (not installed). Forward with saved activations +
 * backward over a batch of windows. */
#ifndef SL_MODEL_TRAIN_STEP_H
#define SL_MODEL_TRAIN_STEP_H

#include <stddef.h>
#include <stdint.h>

#include "seqlabel.h"

typedef struct sl_train_step sl_train_step;

/* Allocates (once) every activation and scratch buffer for batches of up to
 * max_B windows of up to max_T frames. NULL with a message in err on failure. */
sl_train_step *sl_train_step_new(const sl_model *m, int max_B, int max_T, char *err, size_t errlen);
void sl_train_step_free(sl_train_step *s);

/* x: B x T x n_features (already normalised), labels: B x T class indices, -1 = ignore (unlabeled frame;
 * any label outside 0..n_classes-1 is ignored the same way);
 * class_weights: n_classes values or NULL (all 1). Loss = torch.nn.CrossEntropyLoss(weight=class_weights, ignore_index=-1,
 * reduction='mean') over all B*T frames, i.e. sum(w_y * nll) / sum(w_y). grads (sl_model_num_params floats, the model's
 * parameter-block layout) are OVERWRITTEN with d loss / d params. logits_out (B x T x n_classes) may be NULL.
 * *n_counted (may be NULL) receives the number of non-ignored frames. Returns the loss (0 when nothing counted).
 * Positions restart at 0 in every window, as at inference. Deterministic for a given thread count.
 * Nothing is allocated here. B <= max_B, T <= max_T. */
float sl_train_step_run(sl_train_step *s, const sl_model *m, const float *x, const int32_t *labels,
                        const float *class_weights, int B, int T, float *grads, float *logits_out, int64_t *n_counted);

/* Soft targets for the following runs (knowledge distillation): soft is B x T x
 * n_classes probabilities, row-aligned with the labels, read at each run (so
 * the caller refills the buffer between runs); each counted frame's target
 * becomes (1 - weight) onehot(label) + weight soft (layers_backward.h,
 * sl_soft_cross_entropy_forward_backward). NULL or weight 0: plain labels. */
void sl_train_step_set_soft_targets(sl_train_step *s, const float *soft, float weight);

/* Splits each batch's windows between n_threads threads that the step owns
 * (started here, never in run; 1 = the caller's thread only, the default).
 * Each thread runs the forward and backward of its windows into its own
 * gradient block (allocated here); the blocks are summed in a fixed order, so
 * results are deterministic for a given thread count (and differ between
 * counts only by rounding). Meant for OpenBLAS running single-threaded
 * (openblas_set_num_threads(1)): both kinds of threads at once oversubscribe
 * the cores. Returns 0, or -1 with a message. */
int sl_train_step_set_threads(sl_train_step *s, int n_threads, char *err, size_t errlen);
int sl_train_step_threads(const sl_train_step *s);

/* Scales grads so their global L2 norm is at most max_norm (as torch.nn.utils.clip_grad_norm_); returns the norm before. */
float sl_grad_clip(float *grads, size_t n, float max_norm);

typedef struct { float lr, beta1, beta2, eps, weight_decay; } sl_adamw_config;

/* One torch.optim.AdamW step (decoupled weight decay, bias correction); step counts from 1. decay_mask (n bytes, 1 = decay)
 * may be NULL (decay everything); sl_model_decay_mask fills the usual choice: weights of Linear layers decay, biases and
 * LayerNorm parameters do not. */
void sl_adamw_update(float *params, const float *grads, float *m, float *v, size_t n, int64_t step,
                     const sl_adamw_config *c, const uint8_t *decay_mask);
/* mask: sl_model_num_params bytes. */
void sl_model_decay_mask(const sl_model *m, uint8_t *mask);

#endif
