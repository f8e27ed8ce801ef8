/* Training-window augmentation that needs samples: noise mixed at a random
 * SNR (and the gain applied to the mix), then features recomputed with the
 * model's own extractor. Windows without it use the cached features, where
 * gain alone is an exact shift of log-mel values (model/trainer.c says why).
 *
 * A window of L frames starting at frame s needs the samples
 * [s*hop, (s + L - 1)*hop + win): the extractor frames them exactly as it
 * framed the whole file (every frame depends on its own samples only), so
 * with gain 1 and no noise the features are bit-identical to the cache. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_internal.h"
#include "model/trainer_internal.h"
#include "common/errors.h"

struct sl_augmenter {
    sl_features *fx;
    int hop, win, dim, max_T;
    float *buf;    /* samples of one window */
};

sl_augmenter *sl_augmenter_new(const sl_feature_config *fc, int max_T, char *err, size_t errlen)
{
    sl_augmenter *a = calloc(1, sizeof *a);
    if (!a) {
        sl_fail(err, errlen, "out of memory");
        return NULL;
    }
    a->fx = sl_features_new(fc, err, errlen);
    a->hop = sl_feature_frame_shift(fc);
    a->win = sl_feature_frame_length(fc);
    a->dim = sl_feature_dim(fc);
    a->max_T = max_T;
    a->buf = malloc(((size_t)(max_T - 1) * a->hop + (size_t)a->win) * sizeof *a->buf);
    if (!a->fx || !a->buf) {
        if (a->fx)
            sl_fail(err, errlen, "out of memory");
        sl_augmenter_free(a);
        return NULL;
    }
    return a;
}

void sl_augmenter_free(sl_augmenter *a)
{
    if (!a)
        return;
    sl_features_free(a->fx);
    free(a->buf);
    free(a);
}

int sl_frame_sink_take(void *user, int64_t index, const float *frame, int dim)
{
    sl_frame_sink *k = user;
    if (index >= k->max)
        return 1;
    memcpy(k->out + (size_t)index * dim, frame, (size_t)dim * sizeof *frame);
    k->got = index + 1;
    return 0;
}

int sl_augment_frames(sl_augmenter *a, const float *pcm, int64_t n, int64_t start, int L,
                      float gain, const float *noise, int64_t noise_n, int64_t noise_off,
                      float snr_db, float *out, char *err, size_t errlen)
{
    if (L < 1 || L > a->max_T)
        return sl_fail(err, errlen, "augmentation window of %d frames (at most %d)", L, a->max_T);
    const int64_t s0 = start * a->hop, S = (int64_t)(L - 1) * a->hop + a->win;
    if (start < 0 || s0 + S > n)
        return sl_fail(err, errlen, "augmentation window beyond the audio");
    const float *x = pcm + s0;
    float scale = 0.0f;
    if (noise && noise_n > 0) {
        double px = 0.0, pn = 0.0;
        for (int64_t i = 0; i < S; i++) {
            double v = noise[(noise_off + i) % noise_n];
            px += (double)x[i] * x[i];
            pn += v * v;
        }
        if (px > 0.0 && pn > 0.0)
            scale = (float)sqrt(px / (pn * pow(10.0, snr_db / 10.0)));
    }
    for (int64_t i = 0; i < S; i++) {
        float v = x[i];
        if (scale != 0.0f)
            v += scale * noise[(noise_off + i) % noise_n];
        a->buf[i] = gain * v;
    }
    sl_quantize_s16(a->buf, a->buf, (size_t)S); /* as the feature cache does */
    sl_features_reset(a->fx);
    sl_frame_sink sink = {out, a->max_T, 0};
    if (sl_features_push(a->fx, a->buf, (size_t)S, sl_frame_sink_take, &sink, err, errlen))
        return -1;
    if (sink.got != L)
        return sl_fail(err, errlen, "augmentation made %lld frames, expected %d", (long long)sink.got, L);
    return 0;
}

void sl_augment_masks(float *x, int L, int F, int freq_max, int time_max, sl_rng *rng)
{
    for (int k = 0; k < 2; k++) {
        int w = (int)sl_rng_below(rng, (uint64_t)freq_max + 1);
        int f0 = (int)sl_rng_below(rng, (uint64_t)(F - (w < F ? w : F)) + 1);
        for (int t = 0; t < L; t++)
            for (int j = f0; j < f0 + w && j < F; j++)
                x[(size_t)t * F + j] = 0.0f;
    }
    for (int k = 0; k < 2; k++) {
        int w = (int)sl_rng_below(rng, (uint64_t)time_max + 1);
        int t0 = (int)sl_rng_below(rng, (uint64_t)(L - (w < L ? w : L)) + 1);
        for (int t = t0; t < t0 + w && t < L; t++)
            memset(x + (size_t)t * F, 0, (size_t)F * sizeof *x);
    }
}
