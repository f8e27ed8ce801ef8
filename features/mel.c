/* Triangular mel filterbank as Kaldi's MelBanks builds it: num_bins + 2 points
 * equally spaced on the mel scale between low and high frequency; FFT bin k
 * (centre k * rate / fft_size, k < fft_size / 2, so the Nyquist bin never
 * contributes) gets max(0, min(up slope, down slope)) in mel units. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "features/features_internal.h"

double sl_mel_scale(double hz)
{
    return 1127.0 * log(1.0 + hz / 700.0);
}

double sl_feature_high_freq(const sl_feature_config *cfg)
{
    double nyquist = 0.5 * cfg->sample_rate;
    return cfg->high_freq <= 0.0f ? nyquist + cfg->high_freq : cfg->high_freq;
}

/* Weight of FFT bin k in mel bin m (0 outside the triangle). */
static double mel_weight(double mel_low, double delta, int m, double mel_k)
{
    double left = mel_low + m * delta;
    double center = mel_low + (m + 1.0) * delta;
    double right = mel_low + (m + 2.0) * delta;
    if (!(mel_k > left && mel_k < right))
        return 0.0;
    double up = (mel_k - left) / (center - left);
    double down = (right - mel_k) / (right - center);
    return up < down ? up : down;
}

typedef struct {
    double mel_low, delta, bin_width;
    int half;
} mel_layout;

static mel_layout layout_of(const sl_feature_config *cfg, int fft_size)
{
    mel_layout l;
    l.mel_low = sl_mel_scale(cfg->low_freq);
    double mel_high = sl_mel_scale(sl_feature_high_freq(cfg));
    l.delta = (mel_high - l.mel_low) / (cfg->num_mel_bins + 1);
    l.bin_width = (double)cfg->sample_rate / fft_size;
    l.half = fft_size / 2;
    return l;
}

/* Span [*first, *first + *len) of non-zero weights of bin m. The mel scale
 * rises with k, so the span is contiguous; *k0 carries the search start from
 * one bin to the next (left edges rise too), keeping the whole bank O(bins + FFT bins). */
static void bin_span(const mel_layout *l, int m, int *k0, int *first, int *len)
{
    int k = *k0;
    const double left = l->mel_low + m * l->delta;
    while (k < l->half && sl_mel_scale(l->bin_width * k) <= left)
        k++;
    *k0 = k;
    int n = 0;
    while (k + n < l->half && mel_weight(l->mel_low, l->delta, m, sl_mel_scale(l->bin_width * (k + n))) > 0.0)
        n++;
    *first = n > 0 ? k : 0;
    *len = n;
}

int sl_mel_first_empty_bin(const sl_feature_config *cfg, int fft_size)
{
    /* Both ends of a triangle rise with m, so one pointer over the FFT bins
     * serves all filters: O(bins + FFT bins), no allocation. */
    mel_layout l = layout_of(cfg, fft_size);
    int k = 0;
    for (int m = 0; m < cfg->num_mel_bins; m++) {
        double left = l.mel_low + m * l.delta;
        while (k < l.half && !(sl_mel_scale(l.bin_width * k) > left))
            k++;
        if (k >= l.half || mel_weight(l.mel_low, l.delta, m, sl_mel_scale(l.bin_width * k)) <= 0.0)
            return m;
    }
    return -1;
}

void sl_mel_weighted_mean(const sl_feature_config *cfg, const float *v, float *out)
{
    mel_layout l = layout_of(cfg, sl_feature_fft_size(cfg));
    for (int m = 0, k0 = 0; m < cfg->num_mel_bins; m++) {
        int first, len;
        bin_span(&l, m, &k0, &first, &len);
        double sum = 0.0, all = 0.0;
        for (int k = first; k < first + len; k++) {
            double w = mel_weight(l.mel_low, l.delta, m, sl_mel_scale(l.bin_width * k));
            all += w;
            sum += w * v[k];
        }
        out[m] = all > 0.0 ? (float)(sum / all) : 0.0f;
    }
}

int sl_mel_bank_init(sl_mel_bank *b, const sl_feature_config *cfg, int fft_size)
{
    mel_layout l = layout_of(cfg, fft_size);
    int n = cfg->num_mel_bins, nb = (n + SL_MEL_LANES - 1) / SL_MEL_LANES;
    memset(b, 0, sizeof *b);
    b->num_bins = n;
    b->num_blocks = nb;
    b->first = calloc((size_t)n, sizeof *b->first);
    b->len = calloc((size_t)n, sizeof *b->len);
    b->block_first = calloc((size_t)nb, sizeof *b->block_first);
    b->block_len = calloc((size_t)nb, sizeof *b->block_len);
    b->block_offset = calloc((size_t)nb + 1, sizeof *b->block_offset);
    if (!b->first || !b->len || !b->block_first || !b->block_len || !b->block_offset)
        goto fail;
    for (int m = 0, k0 = 0; m < n; m++)
        bin_span(&l, m, &k0, &b->first[m], &b->len[m]);
    int rows = 0;
    for (int k = 0; k < nb; k++) {
        int lo = l.half, hi = 0;
        for (int m = k * SL_MEL_LANES; m < n && m < (k + 1) * SL_MEL_LANES; m++) {
            if (b->len[m] == 0)
                continue;
            if (b->first[m] < lo)
                lo = b->first[m];
            if (b->first[m] + b->len[m] > hi)
                hi = b->first[m] + b->len[m];
        }
        b->block_first[k] = hi > lo ? lo : 0;
        b->block_len[k] = hi > lo ? hi - lo : 0;
        b->block_offset[k] = rows;
        rows += b->block_len[k];
    }
    b->block_offset[nb] = rows;
    size_t bytes = ((size_t)rows + 1) * sizeof(sl_v8); /* a multiple of 32, as aligned_alloc wants */
    b->weights = aligned_alloc(32, bytes);
    if (!b->weights)
        goto fail;
    memset(b->weights, 0, bytes);
    for (int k = 0; k < nb; k++)
        for (int j = 0; j < b->block_len[k]; j++) {
            double mel_k = sl_mel_scale(l.bin_width * (b->block_first[k] + j));
            float *row = b->weights + (size_t)(b->block_offset[k] + j) * SL_MEL_LANES;
            for (int lane = 0; lane < SL_MEL_LANES; lane++) {
                int m = k * SL_MEL_LANES + lane;
                row[lane] = m < n ? (float)mel_weight(l.mel_low, l.delta, m, mel_k) : 0.0f;
            }
        }
    return 0;
fail:
    sl_mel_bank_free(b);
    return -1;
}

void sl_mel_bank_free(sl_mel_bank *b)
{
    free(b->first);
    free(b->len);
    free(b->block_first);
    free(b->block_len);
    free(b->block_offset);
    free(b->weights);
    memset(b, 0, sizeof *b);
}
