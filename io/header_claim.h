/* Internal to io/header_*.c: what a container's header says of its data, read
 * by one parser per container (header_riff.c, header_iff.c, header_fixed.c,
 * header_matlab.c) for the truncation check in header_length.c. */
#ifndef SL_IO_HEADER_CLAIM_H
#define SL_IO_HEADER_CLAIM_H

#include <stdint.h>

/* What a header says of its data: where it starts and how many bytes it
 * claims, and for block codings (ADPCM, GSM) the fmt chunk's block size and
 * frames a block, and the fact chunk's (AIFF: COMM's) frame count (0: none).
 * A header that counts frames, not bytes (NIST, AVR, MATLAB, MPC 2000), sets
 * frames instead of bytes: header_length.c reckons the bytes from the
 * samples' size, as libsndfile reckons the frames from the bytes it finds. */
typedef struct {
    uint64_t start, bytes;
    uint32_t block_align, block_frames;
    uint64_t fact;
    uint64_t frames;
    /* where the data size is, its bytes (4 or 8) and whether big-endian, where
     * a 0 there is read again as the bytes the file holds (header_length.c,
     * sl_header_zero_size): WAV's, RIFX's, RF64's (its ds64's) and AU's */
    uint64_t size_at;
    int size_len, size_be;
} sl_claim;

/* A parser: 0 with *cl filled where the file is of its container and its
 * header claims a size; -1 where it is not, or the size is a placeholder (one
 * a writer leaves before it knows the length: each parser says which). */
typedef int (*sl_claim_parser)(int fd, sl_claim *cl);

/* A few hundred chunks before the data at most; more is no audio file. */
#define SL_CLAIM_MAX_CHUNKS 1000

/* Claims the samples from `start`, `count` of them (*field: cl->frames or
 * cl->bytes); -1 where that 32-bit count promises nothing, a header having no
 * other word for "unknown": 0, or all ones. */
static inline int sl_claim_count32(sl_claim *cl, uint64_t start, uint64_t *field, uint32_t count)
{
    cl->start = start;
    *field = count;
    return count == 0 || count == UINT32_MAX ? -1 : 0;
}

/* header_riff.c: WAV, RIFX and RF64; Sony Wave64 */
int sl_riff_claim(int fd, sl_claim *cl);
int sl_w64_claim(int fd, sl_claim *cl);
/* header_iff.c: AIFF and AIFC; IFF 8SVX and 16SV; Apple CAF */
int sl_aiff_claim(int fd, sl_claim *cl);
int sl_svx_claim(int fd, sl_claim *cl);
int sl_caf_claim(int fd, sl_claim *cl);
/* header_fixed.c: Sun/NeXT AU, NIST SPHERE, Creative VOC, AVR, Psion WVE,
 * Akai MPC 2000, FastTracker 2 XI */
int sl_au_claim(int fd, sl_claim *cl);
int sl_nist_claim(int fd, sl_claim *cl);
int sl_voc_claim(int fd, sl_claim *cl);
int sl_avr_claim(int fd, sl_claim *cl);
int sl_wve_claim(int fd, sl_claim *cl);
int sl_mpc2k_claim(int fd, sl_claim *cl);
int sl_xi_claim(int fd, sl_claim *cl);
/* header_matlab.c: MATLAB 4 (GNU Octave 2.0) and MATLAB 5 */
int sl_mat4_claim(int fd, sl_claim *cl);
int sl_mat5_claim(int fd, sl_claim *cl);

#endif
