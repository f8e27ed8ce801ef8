/* G.722 files (Asterisk's .g722 prompts and music on hold): spandsp decodes,
 * libsndfile reads the decoded samples as raw 16-bit little-endian PCM through
 * its virtual I/O. The "virtual file" is the decoded stream: 4 bytes (two
 * 16 kHz samples) per G.722 byte at 64 kbit/s. */
#include "io/io_internal.h"

#include <errno.h>
#include <spandsp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define G722_CHUNK 4096 /* coded bytes decoded at a time */

struct sl_g722_source {
    FILE *fp;
    g722_decode_state_t *dec;
    sf_count_t length; /* decoded bytes in all */
    sf_count_t pos;    /* decoded bytes handed to libsndfile */
    uint8_t pcm[4 * G722_CHUNK]; /* decoded, little-endian, from pcm_off on not yet read */
    size_t pcm_len, pcm_off;
};

static int decode_chunk(sl_g722_source *s)
{
    uint8_t coded[G722_CHUNK];
    int16_t amp[2 * G722_CHUNK];
    size_t n = fread(coded, 1, sizeof coded, s->fp);
    if (n == 0)
        return 0; /* the end, or a read error: the reader's length check reports either */
    int m = g722_decode(s->dec, amp, coded, (int)n);
    for (int i = 0; i < m; i++) {
        uint16_t u = (uint16_t)amp[i];
        s->pcm[2 * i] = (uint8_t)(u & 0xff);
        s->pcm[2 * i + 1] = (uint8_t)(u >> 8);
    }
    s->pcm_len = 2 * (size_t)m;
    s->pcm_off = 0;
    return m > 0;
}

static sf_count_t vio_read(void *ptr, sf_count_t count, void *user)
{
    sl_g722_source *s = user;
    sf_count_t done = 0;
    while (done < count) {
        if (s->pcm_off == s->pcm_len && !decode_chunk(s))
            break;
        size_t n = s->pcm_len - s->pcm_off;
        if ((sf_count_t)n > count - done)
            n = (size_t)(count - done);
        memcpy((uint8_t *)ptr + done, s->pcm + s->pcm_off, n);
        s->pcm_off += n;
        done += (sf_count_t)n;
    }
    s->pos += done;
    return done;
}

static int restart(sl_g722_source *s)
{
    if (fseek(s->fp, 0, SEEK_SET) != 0)
        return -1;
    g722_decode_init(s->dec, 64000, 0);
    s->pos = 0;
    s->pcm_len = s->pcm_off = 0;
    return 0;
}

/* libsndfile seeks while it opens a raw file; a decoder only runs forwards,
 * so going back starts over and going forwards decodes and drops. */
static sf_count_t vio_seek(sf_count_t offset, int whence, void *user)
{
    sl_g722_source *s = user;
    sf_count_t target = whence == SEEK_SET ? offset : whence == SEEK_CUR ? s->pos + offset
                                                                        : s->length + offset;
    if (target < 0 || target > s->length)
        return -1;
    if (target < s->pos && restart(s) < 0)
        return -1;
    uint8_t scratch[4096];
    while (s->pos < target) {
        sf_count_t want = target - s->pos;
        if (vio_read(scratch, want < (sf_count_t)sizeof scratch ? want : (sf_count_t)sizeof scratch,
                     s) <= 0)
            return -1;
    }
    return s->pos;
}

static sf_count_t vio_length(void *user) { return ((sl_g722_source *)user)->length; }
static sf_count_t vio_tell(void *user) { return ((sl_g722_source *)user)->pos; }

void sl_g722_source_free(sl_g722_source *s)
{
    if (!s)
        return;
    if (s->fp)
        fclose(s->fp);
    if (s->dec)
        g722_decode_free(s->dec);
    free(s);
}

SNDFILE *sl_g722_open(const char *path, const char *name, SF_INFO *info, sl_g722_source **src,
                      char *err, size_t errlen)
{
    *src = NULL;
    if (!strcmp(path, "-")) {
        sl_io_err(err, errlen, "%s: G.722 is read from files only: name the file", name);
        return NULL;
    }
    sl_g722_source *s = calloc(1, sizeof *s);
    if (!s) {
        sl_io_err(err, errlen, "%s: out of memory", name);
        return NULL;
    }
    if (!(s->fp = fopen(path, "rb")) || fseek(s->fp, 0, SEEK_END) != 0) {
        sl_io_err(err, errlen, "%s: cannot open: %s", name, strerror(errno));
        goto fail;
    }
    long bytes = ftell(s->fp);
    if (!(s->dec = g722_decode_init(NULL, 64000, 0))) {
        sl_io_err(err, errlen, "%s: cannot start the G.722 decoder", name);
        goto fail;
    }
    if (bytes < 0 || fseek(s->fp, 0, SEEK_SET) != 0) {
        sl_io_err(err, errlen, "%s: cannot read: %s", name, strerror(errno));
        goto fail;
    }
    s->length = 4 * (sf_count_t)bytes;
    SF_VIRTUAL_IO vio = {vio_length, vio_seek, vio_read, NULL, vio_tell};
    sl_sf_failure failed;
    sl_sf_open_begin(1);
    SNDFILE *sf = sl_sf_open_end(sf_open_virtual(&vio, SFM_READ, info, s), &failed, 1);
    if (!sf) {
        sl_io_err(err, errlen, "%s: cannot read as G.722: %s", name, failed.why);
        goto fail;
    }
    *src = s;
    return sf;
fail:
    sl_g722_source_free(s);
    return NULL;
}
