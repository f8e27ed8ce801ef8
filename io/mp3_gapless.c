/* MP3 files' encoder delay and padding where GStreamer 1.22 leaves them in.
 *
 * An MP3 encoder puts silence before the audio (LAME's 576 samples, plus the
 * decoder's own 529) and after it, up to a whole frame. LAME writes how much in
 * its tag, inside the "Info"/"Xing" frame that begins the file, and gapless
 * decoders cut it off: libsndfile's (libmpg123) does, and so does GStreamer's
 * mpegaudioparse (clipping metas the decoder applies), but only when the tag
 * says "LAME". FFmpeg (libmp3lame through libavcodec) writes the same tag under
 * "Lavc" or "Lavf", which mpegaudioparse 1.22 passes over: such a file read
 * through GStreamer (a file:// or http:// URI, fd://0) had its labels 1105
 * samples late (69 ms at 16 kHz, 7 frames) against the same file read by name.
 *
 * So, for each mpegaudioparse in the reader's pipeline, a probe on its output:
 * the first frame it passes on is the tag's own (it passes it on, marked
 * decode-only), already found to be a frame by the parser. When that frame has
 * a tag and no clipping meta, the probe adds the metas the parser would have:
 * the tag's frame whole, the start's silence from the first audio frames, the
 * end's from the last by the tag's frame count; and none past that count, where
 * another file's frames follow (files joined by `cat`), as the parser does. The
 * decoder cuts them as it does for LAME's files. Where the parser has put a
 * meta (a "LAME" tag), nothing is added. A Xing/Info frame without LAME's
 * extension (GStreamer's xingmux) says no encoder delay: the decoder's own
 * 529 samples are cut if it counts frames, as libmpg123 does by name. */
#include "io/io_internal.h"
#include "common/bytes.h"

#include <gst/audio/audio.h>
#include <gst/gst.h>
#include <stdio.h>
#include <string.h>

#define DECODER_DELAY 529 /* samples every MP3 decoder puts before the audio */
#define TAG_BYTES 512     /* of a frame, enough for its tag (at most 186 bytes in) */

typedef struct {
    int first_seen;      /* the parser's first frame was looked at */
    guint64 start, end;  /* samples to cut at the start and the end; 0, 0: none */
    guint64 frames;      /* audio frames the tag counts (0: unknown: no end cut) */
    guint64 spf;         /* samples per frame */
    guint64 index;       /* the next audio frame's number (the tag's not counted) */
} gapless;

/* Whether the 4 bytes at p are an MPEG audio frame's header (any layer): the
 * sync, a version, a layer, a bit rate and a sample rate not reserved. */
static int frame_header(const guint8 *p)
{
    return p[0] == 0xFF && (p[1] & 0xE0) == 0xE0 && ((p[1] >> 3) & 3) != 1 &&
           ((p[1] >> 1) & 3) != 0 && (p[2] >> 4) != 0x0F && ((p[2] >> 2) & 3) != 3;
}

/* Where the Xing/Info tag of the Layer III frame at p (n bytes from there)
 * begins, or 0 when it is no such frame. The tag follows the side information,
 * with or without a CRC (LAME writes it at the same place either way). */
static gsize tag_at(const guint8 *p, gsize n)
{
    if (n < 4 || !frame_header(p) || ((p[1] >> 1) & 3) != 1)
        return 0; /* not the header of a Layer III frame */
    int mpeg1 = ((p[1] >> 3) & 3) == 3, mono = (p[3] >> 6) == 3;
    gsize off = 4 + (mpeg1 ? (mono ? 17 : 32) : (mono ? 9 : 17));
    return n >= off + 8 && (!memcmp(p + off, "Info", 4) || !memcmp(p + off, "Xing", 4)) ? off : 0;
}

/* The tag of the frame at p (n bytes from there), if it is an Info/Xing frame:
 * 1 and g filled, else 0. With the extension LAME and FFmpeg write, the cuts
 * it gives; without it (GStreamer's xingmux), the decoder's delay alone where
 * the tag counts frames, as libmpg123 cuts it for such a file read by name. */
static int read_tag(const guint8 *p, gsize n, gapless *g)
{
    gsize off = tag_at(p, n);
    if (!off)
        return 0;
    guint32 flags = sl_be32(p + off + 4);
    g->spf = ((p[1] >> 3) & 3) == 3 ? 1152 : 576;
    g->frames = flags & 1 && n >= off + 12 ? sl_be32(p + off + 8) : 0;
    /* libmpg123 cuts the decoder's delay where the tag counts frames */
    g->start = g->frames ? DECODER_DELAY : 0;
    g->end = 0;
    gsize lame = off + 8 + (flags & 1 ? 4 : 0) + (flags & 2 ? 4 : 0) + (flags & 4 ? 100 : 0) +
                 (flags & 8 ? 4 : 0);
    if (n >= lame + 24 && (!memcmp(p + lame, "LAME", 4) || !memcmp(p + lame, "Lavc", 4) ||
                           !memcmp(p + lame, "Lavf", 4))) {
        guint64 delay = (guint64)p[lame + 21] << 4 | p[lame + 22] >> 4;
        guint64 padding = (guint64)(p[lame + 22] & 0x0F) << 8 | p[lame + 23];
        g->start = delay + DECODER_DELAY;
        g->end = padding > DECODER_DELAY ? padding - DECODER_DELAY : 0;
    }
    /* a tag that does not fit its own count is not believed */
    if (g->frames && g->start + g->end >= g->frames * g->spf)
        g->start = g->end = 0;
    return 1;
}

static void add_clip(GstPadProbeInfo *info, GstBuffer *b, guint64 start, guint64 end)
{
    b = gst_buffer_make_writable(b);
    gst_buffer_add_audio_clipping_meta(b, GST_FORMAT_DEFAULT, start, end);
    GST_PAD_PROBE_INFO_DATA(info) = b;
}

/* Each frame the parser passes on gets the clipping meta of its part of the cuts. */
static GstPadProbeReturn on_frame(GstPad *pad, GstPadProbeInfo *info, gpointer user)
{
    (void)pad;
    gapless *g = user;
    GstBuffer *b = gst_pad_probe_info_get_buffer(info);
    if (!b)
        return GST_PAD_PROBE_OK;
    if (!g->first_seen) {
        g->first_seen = 1;
        guint8 frame[TAG_BYTES];
        gsize n = gst_buffer_extract(b, 0, frame, sizeof frame);
        if (gst_buffer_get_audio_clipping_meta(b) || !read_tag(frame, n, g) ||
            (!g->start && !g->end))
            return GST_PAD_PROBE_REMOVE; /* the parser cuts, or there is nothing to cut */
        add_clip(info, b, g->spf, 0); /* the tag's frame: no audio */
        return GST_PAD_PROBE_OK;
    }
    if (g->frames && g->index >= g->frames)
        return GST_PAD_PROBE_REMOVE; /* past the tagged file: another's frames */
    guint64 first = g->index++ * g->spf, last = first + g->spf; /* the frame's samples */
    guint64 cut_start = g->start > first ? MIN(g->start - first, g->spf) : 0;
    guint64 cut_end = 0;
    if (g->frames) {
        guint64 tail = g->frames * g->spf - g->end; /* where the end's silence begins */
        cut_end = last > tail ? MIN(last - tail, g->spf - cut_start) : 0;
    }
    if (cut_start || cut_end)
        add_clip(info, b, cut_start, cut_end);
    return GST_PAD_PROBE_OK;
}

static void on_element(GstBin *bin, GstBin *sub, GstElement *element, gpointer user)
{
    (void)bin;
    (void)sub;
    (void)user;
    GstElementFactory *f = gst_element_get_factory(element);
    if (!f || strcmp(GST_OBJECT_NAME(f), "mpegaudioparse"))
        return;
    GstPad *out = gst_element_get_static_pad(element, "src");
    if (out) {
        gapless *g = g_new0(gapless, 1);
        /* freed with the parser, whose pad holds the probe */
        g_object_set_data_full(G_OBJECT(element), "seqlabel-gapless", g, g_free);
        gst_pad_add_probe(out, GST_PAD_PROBE_TYPE_BUFFER, on_frame, g, NULL);
        gst_object_unref(out);
    }
}

/* The length in bytes of the frame whose header is at p (frame_header), or 0
 * for a free-format one (its bit rate not in the header). */
static gsize frame_bytes(const guint8 *p)
{
    static const short kbps[2][3][15] = {
        {{0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448},  /* MPEG-1 */
         {0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384},
         {0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320}},
        {{0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256},     /* MPEG-2, 2.5 */
         {0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160},
         {0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160}}};
    static const int hz[3] = {44100, 48000, 32000};
    const int version = (p[1] >> 3) & 3, layer = 3 - ((p[1] >> 1) & 3); /* 0: Layer I */
    const int mpeg1 = version == 3, pad = (p[2] >> 1) & 1;
    const long rate = hz[(p[2] >> 2) & 3] >> (mpeg1 ? 0 : version == 2 ? 1 : 2);
    const long bits = kbps[!mpeg1][layer][p[2] >> 4] * 1000L;
    if (!bits)
        return 0;
    if (layer == 0)
        return (gsize)((12 * bits / rate + pad) * 4);
    return (gsize)((layer == 2 && !mpeg1 ? 72 : 144) * bits / rate + pad);
}

/* The bytes of a closing tag at `at` that does not start with a name of its
 * own: an APEv2 tag written without its header (its items first, then the
 * footer, whose size counts them and itself) or a Lyrics3v2 tag (LYRICSBEGIN
 * ... a 6-digit size, LYRICS200); 0 where none is there whole. */
static off_t unnamed_closing_tag(FILE *fp, off_t at)
{
    static const gsize window = 65536;
    guint8 *w = g_malloc(window);
    gsize n = fseeko(fp, at, SEEK_SET) == 0 ? fread(w, 1, window, fp) : 0;
    off_t bytes = 0;
    if (n >= 20 && !memcmp(w, "LYRICSBEGIN", 11)) {
        for (gsize i = 11; i + 9 <= n && !bytes; i++)
            if (!memcmp(w + i, "LYRICS200", 9))
                bytes = (off_t)(i + 9);
    } else {
        for (gsize i = 0; i + 32 <= n && !bytes; i++)
            if (!memcmp(w + i, "APETAGEX", 8) && !(w[i + 23] & 0x20) &&
                (gsize)sl_le32(w + i + 12) == i + 32)
                bytes = (off_t)(i + 32);
    }
    g_free(w);
    return bytes;
}

int sl_mp3_states_length(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return 1; /* libsndfile's to judge */
    guint8 head[8192];
    /* past ID3v2 tags (cover art may make one megabytes; a tagger may add a
     * second): a tag's size is syncsafe, 7 bits a byte, after a 10-byte
     * header, and a footer of 10 */
    long skip = 0;
    gsize n;
    for (int tags = 0; tags < 16; tags++) {
        n = fseek(fp, skip, SEEK_SET) == 0 ? fread(head, 1, 10, fp) : 0;
        if (n < 10 || memcmp(head, "ID3", 3))
            break;
        skip += 10 + ((long)(head[6] & 0x7F) << 21 | (long)(head[7] & 0x7F) << 14 |
                      (long)(head[8] & 0x7F) << 7 | (head[9] & 0x7F)) + (head[5] & 0x10 ? 10 : 0);
    }
    n = fseek(fp, skip, SEEK_SET) == 0 ? fread(head, 1, sizeof head, fp) : 0;
    /* the first frame, a header that another follows where the frame ends (a
     * sync in junk before it is not one), unless that lies past what was read:
     * Layer III's a tag or audio; another layer's (MP2, whose bit rate does not
     * vary in practice) is taken as stating its length */
    for (gsize i = 0; i + 4 <= n; i++) {
        if (!frame_header(head + i))
            continue;
        gsize next = i + frame_bytes(head + i);
        if (next > i && next + 4 <= n && !frame_header(head + next))
            continue;
        if (((head[i + 1] >> 1) & 3) != 1) {
            fclose(fp);
            return 1;
        }
        /* a tag that counts no frames (xingmux writing into a pipe leaves its
         * flags 0) states no length either: libmpg123 estimates it */
        gsize tag = tag_at(head + i, n - i);
        const guint8 *t = head + i + tag;
        int states = tag && i + tag + 16 <= n && (sl_be32(t + 4) & 1) && sl_be32(t + 8) > 0;
        /* MP3s joined by `cat`: the first one's tag counts its own frames and
         * bytes, and past them and the first file's closing tags (ID3v1's TAG
         * and its extended TAG+, an APEv2 tag with its header or without,
         * Lyrics3v2) come another
         * file's ID3v2 tag or frames; libmpg123 would stop there */
        if (states && (sl_be32(t + 4) & 2)) {
            off_t at = (off_t)skip + (off_t)i + (off_t)sl_be32(t + 12);
            guint8 after[32];
            for (int tags = 0; tags < 4; tags++) {
                memset(after, 0, sizeof after);
                if (fseeko(fp, at, SEEK_SET) != 0 || fread(after, 1, sizeof after, fp) < 4)
                    break; /* the end: one file */
                if (!memcmp(after, "TAG+", 4)) /* ID3v1's extended tag, before its TAG */
                    at += 227;
                else if (!memcmp(after, "TAG", 3))
                    at += 128;
                else if (!memcmp(after, "APETAGEX", 8) && (after[23] & 0x20)) /* its header */
                    at += 32 + (off_t)sl_le32(after + 12);
                else if (!memcmp(after, "ID3", 3) || frame_header(after)) {
                    states = 0;
                    break;
                } else {
                    const off_t tag = unnamed_closing_tag(fp, at);
                    if (!tag)
                        break;
                    at += tag;
                }
            }
        }
        fclose(fp);
        return states;
    }
    fclose(fp);
    /* no frame where one was looked for (a tag's padding not counted in its
     * size, junk): nothing says the length, and libmpg123 would estimate it */
    return 0;
}

void sl_mp3_gapless_watch(struct _GstElement *pipeline)
{
    g_signal_connect(pipeline, "deep-element-added", G_CALLBACK(on_element), NULL);
}
