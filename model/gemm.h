/* An AVX-512 matrix product for the encoder's inference pass, used where the CPU
 * has AVX-512F, and its AVX2 twin with the same results bit for bit where it
 * has AVX2 and FMA (checked at run time; otherwise callers use cblas_sgemm).
 *
 * Where the CPU has AMX, model/gemm_amx.h's bf16x3 kernel takes the encoder's
 * weight products and whole-window attention with d_k >= 32 instead.
 *
 * Why: the project pins OpenBLAS to its Haswell (AVX2) kernels, which bounds
 * sgemm at half of what these CPUs' 512-bit FMA units do; most of the encoder's
 * time is matrix products.
 *
 * The right-hand side is packed in panels of 32 columns: panel p holds, for each
 * k = 0..K-1, the 32 values B[k][32p .. 32p+31] (zero beyond N). A weight in
 * nn.Linear layout (N x K, out x in) is packed once per encoder; per-window
 * operands (keys, values) are packed per use, which costs K x N copies against
 * M x N x K multiply-adds. Every output element is one dot product in k order
 * whatever M is or how rows are split, so results do not depend on the split.
 *
 * Internal to libseqlabel (not installed). */
#ifndef SL_MODEL_GEMM_H
#define SL_MODEL_GEMM_H

#include <stddef.h>

#define SL_GEMM_PANEL 32

/* 1 if this CPU runs the packed kernels: AVX-512's, else AVX2's with FMA (the
 * same results bit for bit), unless SL_NO_AVX512 is set to something other
 * than 0 in the environment (cblas then); SL_GEMM_AVX2 so set runs AVX2's
 * where AVX-512 is (the tests cover every path). */
int sl_gemm_available(void);
/* 1 if they are AVX-512's (which the AMX kernel's machinery needs). */
int sl_gemm_avx512(void);
/* The instruction set the elementwise kernels (model/layers.c) run with,
 * chosen as the packed kernels are, so that an AVX2 CPU's whole pass is the
 * AVX-512 one's bit for bit and SL_GEMM_AVX2=1 runs all of it here: 2 AVX-512
 * where the CPU has it and SL_GEMM_AVX2 is not set, 1 AVX2 with FMA, 0 the
 * baseline. SL_NO_AVX512 (cblas for the products) leaves it as it is. */
int sl_vector_level(void);

/* Floats a packed N-column, K-deep operand takes. */
size_t sl_gemm_packed_size(int N, int K);

/* Packs w (N x K, row-major, rows ldw apart): B = w^T (the nn.Linear case). */
void sl_gemm_pack_nt(float *dst, const float *w, int ldw, int N, int K);
/* Packs b (K x N, row-major, rows ldb apart): B = b (probabilities x values). */
void sl_gemm_pack_nn(float *dst, const float *b, int ldb, int K, int N);

/* C[M x N] (rows ldc apart) = alpha * A[M x K] (rows lda apart) * B, B packed;
 * accumulate != 0 adds to C instead. bias (N values, may be NULL; only with
 * alpha 1) starts every row's sums; relu != 0 stores max(0, result). Bias and
 * ReLU ride along in the registers: no extra pass over C. Only call when
 * sl_gemm_available(). */
void sl_gemm_packed(float *C, int ldc, const float *A, int lda, const float *Bp, int M, int N,
                    int K, float alpha, int accumulate, const float *bias, int relu);

/* Attention's softmax numerator: x[i] = exp(x[i] - max(x)) for n >= 1 values in
 * place; returns their sum. Cephes' range reduction as in layers.c's exp, with a
 * shorter polynomial (degree 5 fitted for least relative error: within 2.1e-7
 * of exp, against 1e-8 for layers.c's; below -87 the result is 0), written
 * with AVX-512 intrinsics, two vectors per step: the vector-extension version
 * compiles to about three times the instructions and was a quarter of the
 * encoder's time on 1000-frame windows. Only call when sl_gemm_available(). */
float sl_gemm_exp_row(float *x, int n);

/* Whole-window attention's scores without a second pass for the maxima:
 * sl_gemm_packed (alpha, no bias, no accumulate) that also leaves in rowmax
 * (16 floats per row of C) each row's maximum over its N values, per lane;
 * sl_gemm_exp_row_max then takes the row's maximum from those 16 values instead
 * of reading the row for it. Only call when sl_gemm_available(). */
void sl_gemm_packed_rowmax(float *C, int ldc, const float *A, int lda, const float *Bp, int M,
                           int N, int K, float alpha, float *rowmax);
float sl_gemm_exp_row_max(float *x, int n, const float *max16);

#endif
