/* Per-dimension normalisation and the statistics a model file carries. */
#include <math.h>
#include <stdlib.h>

#include "seqlabel.h"

void sl_normalize(float *frame, const float *mean, const float *inv_std, int dim)
{
    for (int i = 0; i < dim; i++)
        frame[i] = (frame[i] - mean[i]) * inv_std[i];
}

int sl_stats_init(sl_stats *s, int dim)
{
    s->dim = dim;
    s->count = 0;
    s->sum = calloc((size_t)(dim > 0 ? dim : 1), sizeof *s->sum);
    s->sum_sq = calloc((size_t)(dim > 0 ? dim : 1), sizeof *s->sum_sq);
    if (dim <= 0 || !s->sum || !s->sum_sq) {
        sl_stats_free(s);
        return -1;
    }
    return 0;
}

void sl_stats_add(sl_stats *s, const float *frame)
{
    for (int i = 0; i < s->dim; i++) {
        double v = frame[i];
        s->sum[i] += v;
        s->sum_sq[i] += v * v;
    }
    s->count++;
}

/* Standard deviations below this are treated as this, so a constant dimension
 * maps to 0 instead of dividing by zero. */
#define SL_STATS_MIN_STD 1e-5

void sl_stats_finish(const sl_stats *s, float *mean, float *inv_std)
{
    for (int i = 0; i < s->dim; i++) {
        double m = s->count > 0 ? s->sum[i] / (double)s->count : 0.0;
        double var = s->count > 0 ? s->sum_sq[i] / (double)s->count - m * m : 1.0;
        double sd = var > 0.0 ? sqrt(var) : 0.0;
        if (sd < SL_STATS_MIN_STD)
            sd = SL_STATS_MIN_STD;
        mean[i] = (float)m;
        inv_std[i] = (float)(1.0 / sd);
    }
}

void sl_stats_free(sl_stats *s)
{
    if (!s)
        return;
    free(s->sum);
    free(s->sum_sq);
    s->sum = s->sum_sq = NULL;
}
