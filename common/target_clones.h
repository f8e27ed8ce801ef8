/* SL_TARGET_CLONES("avx2", "default"): a function compiled once per instruction
 * set, the best of them picked when the library loads (GCC's target_clones, an
 * ifunc). Put on static functions only, each behind a plain sl_ function: GCC 12
 * exports a non-static ifunc whatever its visibility, and libseqlabel exports
 * only its public API (meson.build). Left out under AddressSanitizer and
 * ThreadSanitizer, whose instrumented ifunc resolvers run before their runtimes
 * are up (TSan: a crash in the resolver at load). Internal to libseqlabel. */
#ifndef SL_COMMON_TARGET_CLONES_H
#define SL_COMMON_TARGET_CLONES_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define SL_TARGET_CLONES(...) __attribute__((target_clones(__VA_ARGS__)))
#else
#define SL_TARGET_CLONES(...)
#endif

#endif
