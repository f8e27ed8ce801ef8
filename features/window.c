/* Analysis windows with Kaldi's definitions (feature-window.cc): the cosine
 * windows use a = 2 pi / (N - 1), i.e. symmetric, not periodic, windows. */
#include <math.h>

#include "features/features_internal.h"

void sl_window_fill(float *w, int n, sl_window_type type)
{
    const double a = 2.0 * M_PI / (double)(n > 1 ? n - 1 : 1);
    for (int i = 0; i < n; i++) {
        double hann = 0.5 - 0.5 * cos(a * i);
        double v;
        switch (type) {
        case SL_WINDOW_HANN: v = hann; break;
        case SL_WINDOW_HAMMING: v = 0.54 - 0.46 * cos(a * i); break;
        case SL_WINDOW_RECTANGULAR: v = 1.0; break;
        case SL_WINDOW_POVEY:
        default: v = pow(hann, 0.85); break;
        }
        w[i] = (float)v;
    }
}
