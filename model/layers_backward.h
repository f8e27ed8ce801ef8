/* Backward functions of the encoder's layers, one beside each forward function
 * of layers.h, over the same plain row-major arrays (llm.c's train_gpt2.c
 * style). Each takes the gradient of the loss with respect to the layer's
 * output and what the forward saved, and writes the gradients with respect to
 * the layer's input and parameters.
 *
 * Convention: parameter gradients (dw, db, ...) are OVERWRITTEN (a training
 * step uses every parameter tensor exactly once, so there is nothing to
 * accumulate and no block to clear first); input gradients are overwritten or,
 * with accumulate != 0, added to (how a residual branch joins the gradient of
 * the skip path without another pass). Nothing here allocates.
 *
 * Internal to libseqlabel (not installed). */
#ifndef SL_MODEL_LAYERS_BACKWARD_H
#define SL_MODEL_LAYERS_BACKWARD_H

#include <stddef.h>
#include <stdint.h>

/* Backward of sl_linear_forward (out = in * w^T + b; in T x K, w N x K).
 * din (T x K, may be NULL: not needed) = dout * w (added with accumulate),
 * dw (N x K) = dout^T * in, db (N, may be NULL) = column sums of dout.
 * Two cblas_sgemm calls over all T rows at once. */
void sl_linear_backward(float *din, float *dw, float *db, const float *dout, const float *in,
                        const float *w, int T, int K, int N, int accumulate);

/* Backward of sl_layernorm_forward given its input `in` and saved mean/rstd.
 * din (T x d) may equal dout when accumulate == 0. dw, db: d values. */
void sl_layernorm_backward(float *din, float *dw, float *db, const float *dout, const float *in,
                           const float *mean, const float *rstd, const float *w, int T, int d,
                           int accumulate);

/* Activation backward given the activation's input `pre`: din = dout * f'(pre).
 * din may equal dout. */
void sl_relu_backward(float *din, const float *dout, const float *pre, size_t n);
void sl_gelu_backward(float *din, const float *dout, const float *pre, size_t n);

/* Backward of sl_scale_add_positions (x = x * scale + pe): din = dout * scale;
 * the positions are constants. din may equal dout. */
void sl_scale_add_positions_backward(float *din, const float *dout, float scale, size_t n);

/* Floats of scratch sl_attention_backward needs (one T x T score gradient). */
size_t sl_attention_backward_scratch(int T);

/* Backward of sl_attention_forward (save_probs != 0) for one window.
 * dout: T x d gradient of the attention output (head h in columns h*dk..);
 * qkv: the forward's T x 3d input; probs: the n_heads x T x T probabilities it
 * saved (zero outside the band). dqkv (T x 3d) is overwritten with the
 * gradients of q, k and v (softmax backward included; masked keys get none).
 * Per head and block of queries: sgemms for dP = dO V^T, dV += P^T dO,
 * dQ = dS K, dK += dS^T Q over only the keys the band reaches. */
void sl_attention_backward(float *dqkv, float *scratch, const float *dout, const float *qkv,
                           const float *probs, int T, int d, int n_heads, int band_left,
                           int band_right);

/* Weighted cross-entropy over N rows of C logits, as torch.nn.CrossEntropyLoss(
 * weight=w, ignore_index=-1, reduction='mean'): loss = sum_i w[y_i] nll_i /
 * sum_i w[y_i] over rows whose label lies in 0..C-1 (any other label, -1 above
 * all, is ignored). weights may be NULL (all 1). dlogits (N x C, may equal
 * logits) receives d loss / d logits (zero rows for ignored frames).
 * total_weight: the denominator sum_i w[y_i] of the whole batch when these N
 * rows are only part of it (threads each take some windows; their returned
 * losses then add up to the batch loss), or 0 to use these rows' own sum.
 * *counted (may be NULL) gets the number of counted rows. Returns the loss,
 * 0 when nothing is counted or the weights sum to 0 (then dlogits is 0). */
double sl_cross_entropy_forward_backward(float *dlogits, const float *logits,
                                         const int32_t *labels, const float *weights, int N,
                                         int C, double total_weight, int64_t *counted);

/* The same with soft targets (knowledge distillation): each counted row's
 * target is t = (1 - alpha) onehot(y_i) + alpha q_i, with q (N x C, rows
 * summing to 1) e.g. a teacher's posteriors; loss = sum_i w[y_i] (-sum_c t_c
 * log p_c) / sum_i w[y_i] (torch.nn.CrossEntropyLoss with probability targets,
 * weighted per row), d loss / d z_c = w[y_i] (p_c sum_k t_k - t_c) / sum_i w[y_i]. Rows
 * are counted and weighted by their label as above. q NULL or alpha 0: the
 * plain loss, bit for bit. */
double sl_soft_cross_entropy_forward_backward(float *dlogits, const float *logits,
                                              const int32_t *labels, const float *weights,
                                              const float *q, float alpha, int N, int C,
                                              double total_weight, int64_t *counted);

/* sum_i w[y_i] over the N labels that count (weights NULL: all 1); *counted
 * (may be NULL) gets how many count. */
double sl_cross_entropy_total_weight(const int32_t *labels, const float *weights, int N, int C,
                                     int64_t *counted);

#endif
