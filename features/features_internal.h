/* Internal pieces of features/: shared between config.c, mel.c, window.c and
 * extractor.c, not part of the public header. */
#ifndef SL_FEATURES_INTERNAL_H
#define SL_FEATURES_INTERNAL_H

#include "seqlabel.h"

/* 0 when pcm[0..n-1] are all finite; else -1 with the message sl_features_push
 * gives, naming the first non-finite sample's position (first: the position of
 * pcm[0]), so that a caller can refuse a whole chunk before taking any of it. */
int sl_check_finite(const float *pcm, size_t n, int64_t first, char *err, size_t errlen);

/* Bytes of f's buffers and filterbank (FFTW's plan aside): a labeler's account
 * of its memory. */
size_t sl_features_memory_bytes(const sl_features *f);

/* Mel scale of Kaldi (and HTK): 1127 ln(1 + f / 700). */
double sl_mel_scale(double hz);

/* The high frequency after Kaldi's "<= 0 means offset from Nyquist" rule. */
double sl_feature_high_freq(const sl_feature_config *cfg);

/* Triangular filterbank stored for an 8-lanes-at-a-time product: filters go
 * in blocks of SL_MEL_LANES consecutive bins; block b covers FFT bins
 * block_first[b] .. + block_len[b] - 1 (the union of its filters' non-zero
 * spans) and holds, for each of them, the SL_MEL_LANES weights of its filters
 * (zeros outside a triangle). Each FFT bin lies under at most two triangles,
 * so a block touches each of its bins once with one vector multiply-add and no
 * horizontal sums: about 300 vector steps per frame for 80 bins at 16 kHz. */
#define SL_MEL_LANES 8
/* 8 floats in GCC's generic vectors: two SSE registers on baseline x86-64, one
 * AVX register in the AVX2 clone; each lane's arithmetic is the same either way. */
typedef float sl_v8 __attribute__((vector_size(SL_MEL_LANES * sizeof(float))));
typedef struct {
    int num_bins, num_blocks;
    int *first, *len;                 /* per filter: non-zero span (for sizes and checks) */
    int *block_first, *block_len, *block_offset; /* per block; offset in rows of SL_MEL_LANES */
    float *weights;                   /* rows of SL_MEL_LANES weights, 32-byte aligned */
} sl_mel_bank;

/* First mel bin that no FFT bin (0 .. fft_size/2 - 1) falls inside, or -1:
 * Kaldi refuses such settings. Allocates nothing. */
int sl_mel_first_empty_bin(const sl_feature_config *cfg, int fft_size);
int sl_mel_bank_init(sl_mel_bank *b, const sl_feature_config *cfg, int fft_size);
/* out[m]: the mean of v (one value per FFT bin, 0 .. fft_size/2 - 1) under
 * mel filter m, weighted by the filter. With v the share of each FFT bin's
 * power that a filter lets through, out is each mel bin's share (flat
 * spectrum within a filter assumed). */
void sl_mel_weighted_mean(const sl_feature_config *cfg, const float *v, float *out);
void sl_mel_bank_free(sl_mel_bank *b);

/* Fills w[0..n-1] with the window of the given type (Kaldi's definitions). */
void sl_window_fill(float *w, int n, sl_window_type type);

/* v[i] = ln(max(v[i], floor)) for finite v[i] and floor >= FLT_EPSILON (Kaldi's
 * log floor), vectorised. */
void sl_log_floored_block(float *v, int n, float floor);

#endif
