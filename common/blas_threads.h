/* OpenBLAS's own thread count, where the BLAS that runs is OpenBLAS: linked as
 * itself, or as a distribution's generic libblas.so.3, which its alternatives
 * may point at OpenBLAS, the reference BLAS or another. The functions are
 * looked up weakly, at run time: where the BLAS has none (the reference one
 * runs on the caller's thread), there is nothing to set. */
#ifndef SL_COMMON_BLAS_THREADS_H
#define SL_COMMON_BLAS_THREADS_H

#include <cblas.h>

int openblas_get_num_threads(void);
void openblas_set_num_threads(int num_threads);
#pragma weak openblas_get_num_threads
#pragma weak openblas_set_num_threads

static inline int sl_blas_threads(void)
{
    return openblas_get_num_threads ? openblas_get_num_threads() : 1;
}

static inline void sl_blas_set_threads(int n)
{
    if (openblas_set_num_threads)
        openblas_set_num_threads(n);
}

#endif
