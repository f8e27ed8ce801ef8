/* An AMX matrix product ("bf16x3") for the encoder's inference pass, used where
 * the CPU has AMX-TILE and AMX-BF16 and Linux grants the tile state (checked
 * once per process); otherwise model/gemm.h's AVX-512 kernel runs.
 *
 * Precision: every fp32 operand x is split into hi = bf16(x) and
 * lo = bf16(x - hi) (both rounded to nearest even), so x = hi + lo within
 * 2^-17 |x|; a*b is taken as hi_a hi_b + hi_a lo_b + lo_a hi_b (the dropped
 * lo_a lo_b is below 2^-16 |a b|), each bf16 product exact in fp32 and summed
 * in fp32 by TDPBF16PS. Three tile products per fp32 product, each 16 times
 * the multiply-adds of a 512-bit FMA.
 *
 * Layout of a packed right-hand side: panels of SL_GEMM_PANEL (32) columns as
 * in gemm.h, each panel K deep rounded up to 32 (zeros beyond K and beyond N),
 * in chunks of 32 k: per chunk four 1 KB tiles: hi of columns 0-15, hi of
 * 16-31, lo of 0-15, lo of 16-31; a tile is 16 rows of k pairs, each row 16
 * columns x (B[2r][c], B[2r+1][c]) in bf16 (the "VNNI" pairs TDPBF16PS reads).
 * A packed panel takes 32 x K32 floats' room, so sl_gemm_amx_packed_size is
 * sl_gemm_packed_size with K rounded up to 32.
 *
 * The left-hand side is split and laid out the same way per call, 32 rows at a
 * time, into a buffer on the stack (64 KB: K in blocks of 512).
 *
 * Every output element is the same sum in the same order whatever M is or how
 * rows are split between threads. Internal to libseqlabel (not installed). */
#ifndef SL_MODEL_GEMM_AMX_H
#define SL_MODEL_GEMM_AMX_H

#include <stddef.h>

/* 1 if this process may run the AMX kernel: AMX-TILE, AMX-BF16 and AVX-512
 * (the splitting and the epilogue), the kernel granted the tile state
 * (arch_prctl, asked once per process), and SL_NO_AMX not set to something
 * other than 0 (nor SL_NO_AVX512: the tests cover every path). */
int sl_gemm_amx_available(void);

size_t sl_gemm_amx_packed_size(int N, int K);
/* As sl_gemm_pack_nt / sl_gemm_pack_nn, into the layout above. */
void sl_gemm_amx_pack_nt(float *dst, const float *w, int ldw, int N, int K);
void sl_gemm_amx_pack_nn(float *dst, const float *b, int ldb, int K, int N);

/* As sl_gemm_packed / sl_gemm_packed_rowmax (gemm.h) on an AMX-packed B.
 * Only call when sl_gemm_amx_available(); loads this thread's tile
 * configuration on each call. */
void sl_gemm_amx(float *C, int ldc, const float *A, int lda, const float *Bp, int M, int N, int K,
                 float alpha, int accumulate, const float *bias, int relu);
void sl_gemm_amx_rowmax(float *C, int ldc, const float *A, int lda, const float *Bp, int M, int N,
                        int K, float alpha, float *rowmax);

#endif
