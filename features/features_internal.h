/* Internal pieces of features/: shared between config.c, mel.c, window.c and
 * extractor.c, not part of the public header. */
#ifndef SL_FEATURES_INTERNAL_H
#define SL_FEATURES_INTERNAL_H

#include "seqlabel.h"

/* Mel scale of Kaldi (and HTK): 1127 ln(1 + f / 700). */
double sl_mel_scale(double hz);

/* The high frequency after Kaldi's "<= 0 means offset from Nyquist" rule. */
double sl_feature_high_freq(const sl_feature_config *cfg);

/* Sparse triangular filterbank: filter m has weights[offset[m] + j] for FFT
 * bins first[m] + j, 0 <= j < len[m]. Only the non-zero span of each triangle
 * is stored, so the per-frame mel step touches about two weights per FFT bin. */
/* Each filter's weights are stored padded with zeros to a multiple of 8 so the
 * dot product runs in 8 independent lanes (vectorised, no add-latency chain);
 * the power spectrum has SL_MEL_PAD zeros after its last bin for the same reason. */
#define SL_MEL_PAD 8
#define SL_MEL_PADDED(len) (((len) + SL_MEL_PAD - 1) / SL_MEL_PAD * SL_MEL_PAD)
typedef struct {
    int num_bins;
    int *first, *len, *offset;
    float *weights;
} sl_mel_bank;

/* Number of FFT bins (0 .. fft_size/2 - 1) with a non-zero weight in mel bin m,
 * computed without allocating; used by validation to reject empty filters. */
int sl_mel_bin_width(const sl_feature_config *cfg, int fft_size, int m);
int sl_mel_bank_init(sl_mel_bank *b, const sl_feature_config *cfg, int fft_size);
void sl_mel_bank_free(sl_mel_bank *b);

/* Fills w[0..n-1] with the window of the given type (Kaldi's definitions). */
void sl_window_fill(float *w, int n, sl_window_type type);

/* v[i] = ln(v[i]) for v[i] >= FLT_EPSILON (finite), vectorisable. */
void sl_log_block(float *v, int n);

#endif
