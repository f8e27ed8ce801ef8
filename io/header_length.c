/* How many frames a file's header promises, where the file holds fewer.
 * libsndfile takes the length of a WAV (RIFF, RIFX, WAVE_FORMAT_EXTENSIBLE),
 * RF64, W64, AIFF/AIFC, AU, NIST, VOC (16-bit, A-law, mu-law), 8SVX, CAF,
 * MAT4, MAT5, AVR, WVE, MPC 2000 or XI file from the file itself when the
 * header's data size claims more than the file holds, so a file cut short (a
 * copy that stopped, a damaged archive) reads as a whole, shorter one; this
 * reads the claim itself, for the reader's truncation check. (libsndfile
 * refuses an 8-bit VOC or an HTK file cut short, and a CAF cut by more than
 * its header; FLAC says so itself; an Ogg's length is its last granule.)
 *
 * The data size decides, and only where the data reaches past the file's end:
 * a whole file, whatever else its header says, promises nothing. The claimed
 * bytes are counted in frames as libsndfile counts the bytes it finds, so a
 * file promises no more than libsndfile would read of it whole; a sample count
 * beside them (fact, AIFF's COMM) says only how much of a block coding's last
 * block is audio (frames_of). Placeholders promise nothing: each parser (one a
 * container, in header_riff.c, header_iff.c, header_fixed.c and
 * header_matlab.c) says which sizes writers leave before they know the
 * length. */
#include "io/header_claim.h"
#include "io/io_internal.h"
#include "io/sample_bytes.h"

#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bytes a sample of a coding of a fixed size takes, as libsndfile counts
 * them: sl_sample_bytes's, and XI's delta PCM; 0 for a coding of blocks. */
static int fixed_sample_bytes(int format)
{
    switch (format & SF_FORMAT_SUBMASK) {
    case SF_FORMAT_DPCM_8: return 1;
    case SF_FORMAT_DPCM_16: return 2;
    default: return sl_sample_bytes(format);
    }
}

/* The frames `bytes` of data make, counted as libsndfile counts them (the
 * codecs' reader_init functions), or -1 for a coding not counted here:
 * - a sample's bytes, whatever the header's block align says (some writers get
 *   it wrong, and libsndfile ignores it);
 * - IMA ADPCM and GSM 6.10 (WAV's 65-byte blocks of 320 samples, AIFF's 33 of
 *   160): whole blocks, and a last part of one as a whole (libsndfile decodes
 *   it; but for GSM's one byte over, AIFF's pad byte);
 * - MS ADPCM: whole blocks alone;
 * - AIFC's IMA ADPCM ('ima4'): 34-byte blocks of 64 samples of one channel;
 * - G.721 and G.723 (AU's, WAV's G.721): 120 samples a block of 60 bytes
 *   (G.721), 45 (G.723 at 24 kbit/s) or 75 (at 40), a last part of one a
 *   whole, as g72x_init counts them; NMS ADPCM (WAV): 160 a block of 42, 62
 *   or 82 bytes (16, 24, 32 kbit/s), the same way (nms_adpcm_init);
 * - AIFC's DWVW, whose words vary in length, so its bytes say nothing of its
 *   frames: libsndfile decodes the whole file to count them, capped at the
 *   COMM chunk's count, which is the promise (DWVW 12 it does not read: 0).
 * A block coding's fact chunk (WAV, W64) says how many of the last block's
 * samples are audio, not padding: its count where it is within the last
 * block (libsndfile writes a stereo IMA file's as half the frames: no
 * promise, so libsndfile's count of the blocks is); G.72x and NMS ADPCM's
 * libsndfile does not read. AIFF's GSM is cut to the COMM chunk's count, as
 * libsndfile cuts it. */
static int64_t frames_of(const sl_claim *cl, uint64_t bytes, int format, int channels)
{
    const int major = format & SF_FORMAT_TYPEMASK;
    const int wavlike = major == SF_FORMAT_WAV || major == SF_FORMAT_WAVEX || major == SF_FORMAT_W64;
    if (fixed_sample_bytes(format) > 0)
        return (int64_t)(bytes / ((uint64_t)fixed_sample_bytes(format) * (uint64_t)channels));
    uint64_t block = 0, frames = 0, per = 1, over = 0;
    int partial = 1, fact = 1;
    switch (format & SF_FORMAT_SUBMASK) {
    case SF_FORMAT_IMA_ADPCM:
        if (major == SF_FORMAT_AIFF)
            block = 34, frames = 64, per = (uint64_t)channels;
        else if (wavlike)
            block = cl->block_align, frames = cl->block_frames;
        break;
    case SF_FORMAT_MS_ADPCM:
        if (wavlike)
            block = cl->block_align, frames = cl->block_frames, partial = 0;
        break;
    case SF_FORMAT_GSM610:
        if (major == SF_FORMAT_AIFF)
            block = 33, frames = 160, over = 1;
        else if (wavlike)
            block = 65, frames = 320;
        break;
    case SF_FORMAT_G721_32: case SF_FORMAT_G723_24: case SF_FORMAT_G723_40:
        if (major == SF_FORMAT_AU || major == SF_FORMAT_WAV) {
            const int sub = format & SF_FORMAT_SUBMASK;
            block = sub == SF_FORMAT_G721_32 ? 60 : sub == SF_FORMAT_G723_24 ? 45 : 75;
            frames = 120, fact = 0;
        }
        break;
    case SF_FORMAT_NMS_ADPCM_16: case SF_FORMAT_NMS_ADPCM_24: case SF_FORMAT_NMS_ADPCM_32:
        if (major == SF_FORMAT_WAV) {
            const int sub = format & SF_FORMAT_SUBMASK;
            block = sub == SF_FORMAT_NMS_ADPCM_16 ? 42 : sub == SF_FORMAT_NMS_ADPCM_24 ? 62 : 82;
            frames = 160, fact = 0;
        }
        break;
    case SF_FORMAT_DWVW_16: case SF_FORMAT_DWVW_24: case SF_FORMAT_DWVW_N:
        return major == SF_FORMAT_AIFF && cl->fact > 0 ? (int64_t)cl->fact : -1;
    default:
        break;
    }
    if (block == 0 || frames == 0)
        return -1;
    const uint64_t blocks = bytes / block + (partial && bytes % block > over ? 1 : 0);
    if (blocks > (uint64_t)INT64_MAX / frames) /* a W64 size no file holds */
        return INT64_MAX;
    const uint64_t n = blocks * frames / per;
    if (major == SF_FORMAT_AIFF)
        return (int64_t)(over && cl->fact > 0 && cl->fact < n ? cl->fact : n);
    if (!fact)
        return (int64_t)n;
    return (int64_t)(cl->fact > 0 && cl->fact <= n && cl->fact + frames > n ? cl->fact : n);
}

/* The containers libsndfile reads whose headers claim a data size, each with
 * its parser. Not here: IRCAM, PAF, PVF and SD2, whose headers (SD2's
 * resource fork) say nothing of the data's length, libsndfile taking the
 * file's; HTK, which libsndfile refuses cut short; SDS, which libsndfile
 * reads to the header's length whatever the file holds. */
static const struct {
    int major;
    sl_claim_parser parse;
} parsers[] = {
    {SF_FORMAT_WAV, sl_riff_claim},   {SF_FORMAT_WAVEX, sl_riff_claim},
    {SF_FORMAT_RF64, sl_riff_claim},  {SF_FORMAT_W64, sl_w64_claim},
    {SF_FORMAT_AIFF, sl_aiff_claim},  {SF_FORMAT_SVX, sl_svx_claim},
    {SF_FORMAT_CAF, sl_caf_claim},    {SF_FORMAT_AU, sl_au_claim},
    {SF_FORMAT_NIST, sl_nist_claim},  {SF_FORMAT_VOC, sl_voc_claim},
    {SF_FORMAT_AVR, sl_avr_claim},    {SF_FORMAT_WVE, sl_wve_claim},
    {SF_FORMAT_MPC2K, sl_mpc2k_claim}, {SF_FORMAT_XI, sl_xi_claim},
    {SF_FORMAT_MAT4, sl_mat4_claim},  {SF_FORMAT_MAT5, sl_mat5_claim},
};

/* A header that counts frames: the bytes they take, for the check against
 * the file's end; -1 for a coding not of a fixed size, or a count no file
 * holds. */
static int bytes_of_frames(sl_claim *cl, int format, int channels)
{
    const uint64_t frame = (uint64_t)fixed_sample_bytes(format) * (uint64_t)channels;
    if (frame == 0 || cl->frames > UINT64_MAX / frame)
        return -1;
    cl->bytes = cl->frames * frame;
    return 0;
}

/* The parser of a file of libsndfile's `format`; NULL for another container. */
static sl_claim_parser parser_of(int format)
{
    for (size_t k = 0; k < sizeof parsers / sizeof parsers[0]; k++)
        if (parsers[k].major == (format & SF_FORMAT_TYPEMASK))
            return parsers[k].parse;
    return NULL;
}

int64_t sl_header_promised_frames(const char *path, int format, int channels)
{
    sl_claim_parser parse = parser_of(format);
    if (!parse || channels <= 0) /* another container (docs/io.md says which are read) */
        return -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    sl_claim cl = {0};
    int found = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? parse(fd, &cl) : -1;
    close(fd);
    if (found == 0 && cl.frames > 0)
        found = bytes_of_frames(&cl, format, channels);
    /* the whole of the data in the file: nothing is missing (a file cut
     * before its data starts misses all of it) */
    if (found < 0 || (cl.start <= (uint64_t)st.st_size && cl.bytes <= (uint64_t)st.st_size - cl.start))
        return -1;
    return frames_of(&cl, cl.bytes, format, channels);
}

/* libsndfile reads a WAV's (RIFX's, WAVEX's, RF64's) or AU's data size of 0
 * as no samples, though a recorder stopped before it wrote the length leaves
 * the samples after it (and it reads them where the size is all ones or too
 * large, taking the length from the file). What the size should say: the bytes from the data's
 * start to the file's end, in whole frames of a coding of a fixed size (a
 * block coding's as they are: libsndfile counts its blocks); all ones where
 * 32 bits cannot hold them, libsndfile's "to the end". */
int sl_header_zero_size(int fd, int format, int channels, sl_size_field *field)
{
    sl_claim_parser parse = parser_of(format);
    struct stat st;
    sl_claim cl = {0};
    if (!parse || channels <= 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    /* a size of 0 promises nothing (-1): the size field found says it is there */
    parse(fd, &cl);
    if (cl.size_len == 0 || cl.bytes != 0 || cl.start >= (uint64_t)st.st_size)
        return -1;
    uint64_t bytes = (uint64_t)st.st_size - cl.start;
    const uint64_t frame = (uint64_t)fixed_sample_bytes(format) * (uint64_t)channels;
    if (frame > 0)
        bytes -= bytes % frame;
    if (bytes == 0) /* not one frame: no audio, as the header says */
        return -1;
    if (cl.size_len == 4 && bytes > UINT32_MAX)
        bytes = UINT32_MAX;
    *field = (sl_size_field){.at = cl.size_at, .len = cl.size_len, .be = cl.size_be,
                             .bytes = bytes};
    return 0;
}
