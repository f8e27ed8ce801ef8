/* Natural log of a block of floats, written so that the compiler vectorises it
 * (libm's logf is one call per value and was a third of the frame time). The
 * mantissa goes to [sqrt(1/2), sqrt(2)) and a degree-9 minimax polynomial
 * (Cephes' logf coefficients) gives log(1 + f); relative error ~1e-7, far
 * below the 1e-3 the log-mel values are checked to. Inputs are floored first
 * (Kaldi floors at FLT_EPSILON), so zeros, negatives and denormals never reach
 * the bit manipulation. */
/* The per-frame loops are written to be vectorised; -O2 (the release build)
 * uses the "very cheap" cost model, which leaves most of them scalar. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include <stdint.h>
#include <string.h>

#include "common/target_clones.h"
#include "features/features_internal.h"

/* static behind the plain sl_ function below (common/target_clones.h) */
SL_TARGET_CLONES("avx2", "default")
static void log_floored_block_clones(float *v, int n, float floor)
{
    for (int i = 0; i < n; i++) {
        float x = v[i] > floor ? v[i] : floor;
        uint32_t u;
        memcpy(&u, &x, sizeof u);
        int e = (int)(u >> 23) - 126;                /* v = m 2^e, m in [0.5, 1) */
        uint32_t mu = (u & 0x007fffffu) | 0x3f000000u;
        float m;
        memcpy(&m, &mu, sizeof m);
        /* Below sqrt(1/2) take 2m and one less in the exponent; arithmetic
         * rather than a branch, so the loop stays vectorisable. */
        int low = m < 0.707106781186547524f;
        e -= low;
        float f = m * (float)(1 + low) - 1.0f;        /* v = (1 + f) 2^e */
        float z = f * f;
        float p = 7.0376836292e-2f;
        p = p * f - 1.1514610310e-1f;
        p = p * f + 1.1676998740e-1f;
        p = p * f - 1.2420140846e-1f;
        p = p * f + 1.4249322787e-1f;
        p = p * f - 1.6668057665e-1f;
        p = p * f + 2.0000714765e-1f;
        p = p * f - 2.4999993993e-1f;
        p = p * f + 3.3333331174e-1f;
        float fe = (float)e;
        float y = p * f * z - 2.12194440e-4f * fe - 0.5f * z;
        v[i] = f + y + 0.693359375f * fe;             /* ln 2 split in two for accuracy */
    }
}

void sl_log_floored_block(float *v, int n, float floor)
{
    log_floored_block_clones(v, n, floor);
}
