/* Forward functions of the encoder's layers over plain float arrays, in the
 * manner of llm.c's train_gpt2.c: each layer is one function, activations are
 * row-major T x dim arrays, weights are in PyTorch's layouts (nn.Linear weight
 * is out x in). Nothing here allocates; callers pass the buffers. The trainer
 * adds the matching backward functions beside these, using what the forward
 * functions can save (LayerNorm mean/rstd, attention probabilities).
 *
 * Internal to libseqlabel (not installed). */
#ifndef SL_MODEL_LAYERS_H
#define SL_MODEL_LAYERS_H

#include <stddef.h>

/* out[T x N] = in[T x K] * w^T + b, w is N x K (nn.Linear), b (N) may be NULL.
 * accumulate != 0 adds to out instead (out += in * w^T + b): a residual
 * connection without a separate pass. One cblas_sgemm. */
void sl_linear_forward(float *out, const float *in, const float *w, const float *b,
                       int T, int K, int N, int accumulate);

/* LayerNorm over each row of d values, as torch.nn.LayerNorm (biased variance,
 * eps inside the square root). out may equal in. mean and rstd (T values each,
 * may be NULL) receive each row's mean and 1/sqrt(var + eps) for the backward. */
void sl_layernorm_forward(float *out, float *mean, float *rstd, const float *in,
                          const float *w, const float *b, int T, int d, float eps);

/* Elementwise activations; out may equal in. GELU is the erf form (torch's
 * approximate='none'), with erf within 1.5e-7 (Abramowitz & Stegun 7.1.26, as
 * PyTorch's own vectorised CPU kernel computes it); a trainer's backward can use
 * erff for the derivative, the difference is below float resolution. */
void sl_relu_forward(float *out, const float *in, size_t n);
void sl_gelu_forward(float *out, const float *in, size_t n);

/* Softmax of each row of `cols` values, in place, max-subtracted. */
void sl_softmax_rows(float *x, int rows, int cols);

/* exp of n values (a vectorisable polynomial, within 2 ulp of expf for the
 * arguments softmax feeds it: x <= 0). out may equal in. */
void sl_exp_forward(float *out, const float *in, size_t n);

/* Sinusoidal positional encoding table (T x d, d even): PE[p, 2i] =
 * sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(same), computed in double and
 * rounded to float, so it matches a float64 table cast to float32. */
void sl_positional_encoding(float *pe, int T, int d);

/* x = x * scale + pe (T x d): the input projection's optional sqrt(d_model)
 * scaling followed by adding positions. */
void sl_scale_add_positions(float *x, const float *pe, float scale, int T, int d);

/* Rows are processed in blocks of this many queries; a block's scores are
 * computed only against the keys its band can reach. The encoder also splits
 * windows between threads at multiples of it: 48 = 2^4 x 3 is a multiple of the
 * row unrolling of OpenBLAS's sgemm kernels (12 on Haswell, 16 on SkylakeX), so
 * a product over a subset of rows gives the same bits as over all rows. */
#define SL_ATTN_BLOCK 48
/* Whole-window attention takes queries in blocks this large (a multiple of
 * SL_ATTN_BLOCK): the keys are the same for every block, so the packed keys and
 * values are reused, and a block's scores (96 x T floats) stay in L2. */
#define SL_ATTN_FULL_BLOCK 96

/* Keys [*k0, *k1) that queries [r0, r1) may attend to with band (bl, br)
 * (-1 = unlimited on that side), clipped to [0, T). */
void sl_attention_key_range(int r0, int r1, int T, int bl, int br, int *k0, int *k1);

/* Floats of `att` scratch that sl_attention_forward needs.
 * save_probs == 0: one block of scores, reused for every head and block
 *   (SL_ATTN_FULL_BLOCK x T, or T x T when T is smaller), and a sum per query.
 * save_probs != 0: n_heads x T x T; head h's softmax probabilities end up in
 *   att + h*T*T as a full row-major T x T matrix, zero outside the band
 *   (what the attention backward needs). */
size_t sl_attention_scratch(int T, int n_heads, int save_probs);

/* Multi-head scaled dot-product self-attention, before the output projection.
 * qkv: T x 3d, each row [q | k | v] as nn.MultiheadAttention's in_proj packs
 *   them, head h using columns h*dk .. h*dk+dk-1 of each part (dk = d / n_heads).
 * out: T x d, head h's result in columns h*dk ...
 * Scores are q.k / sqrt(dk), keys outside the band [i - bl, i + br] of query i
 * are excluded (their probability is exactly 0, as with a -inf mask in torch).
 * Per head and block of queries: one sgemm for scores, a softmax, one sgemm
 * for probabilities x values. */
void sl_attention_forward(float *out, float *att, int save_probs, const float *qkv,
                          int T, int d, int n_heads, int band_left, int band_right);

/* The same for queries [q0, q1) only (all T keys), without saving
 * probabilities; att as for save_probs == 0. With q0 a multiple of
 * SL_ATTN_BLOCK the rows are bit-identical whatever [q0, q1), which is how the
 * encoder splits a window between threads without changing results.
 * pack: NULL (cblas_sgemm), or sl_attention_pack_scratch floats for the
 * AVX-512 products of model/gemm.h (only when sl_gemm_available()). */
void sl_attention_forward_rows(float *out, float *att, float *pack, const float *qkv, int T,
                               int d, int n_heads, int band_left, int band_right, int q0, int q1);
size_t sl_attention_pack_scratch(int T, int d, int n_heads);

/* Whole-window attention with keys and values packed once for all threads
 * (AVX-512 path only): sl_attention_pack_rows packs the keys and values of rows
 * [r0, r1) (r0 a multiple of SL_GEMM_PANEL) into kv, n_heads x
 * sl_attention_pack_scratch(T, d, n_heads) floats laid out for the whole window;
 * once every row is packed, sl_attention_forward_rows_packed computes queries
 * [q0, q1) as sl_attention_forward_rows does with band (-1, -1), except that
 * the queries in qkv must come scaled by 1/sqrt(dk) already (the encoder folds
 * the factor into its packed query weights: no multiply per score); the same
 * bits whatever q0 is (each query's sums run over the same keys in the same
 * order). amx != 0 (only when sl_gemm_amx_available()): the keys and values
 * packed for, and both products through, model/gemm_amx.h's AMX kernel. */
void sl_attention_pack_rows(float *kv, const float *qkv, int T, int d, int n_heads, int r0,
                            int r1, int amx);
void sl_attention_forward_rows_packed(float *out, float *att, const float *kv, const float *qkv,
                                      int T, int d, int n_heads, int q0, int q1, int amx);

#endif
