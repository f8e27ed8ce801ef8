/* Audio that libsndfile does not read (MP4/M4A/AAC, Matroska/WebM, WMA, AMR, a
 * video's sound track, ...): GStreamer decodes it (uridecodebin, whatever
 * decoders are installed), audioconvert makes the decoder's samples 32-bit
 * float, interleaved, at the stream's own rate and channel count (no
 * resampling, no mixing: the same samples; a chained stream's later part at
 * another rate or channel count is made the first's), and libsndfile reads them as raw
 * float through its virtual I/O, as G.722 is read, so that blocks, the tap,
 * downmixing and resampling are shared with every other input. One audio
 * stream is read (the first unless another is asked for); the length is
 * unknown until the end, as a pipe's. */
#include "io/io_internal.h"

#include <fcntl.h>
#include <math.h>
#include <gst/app/gstappsink.h>
#include <gst/base/gstbasesrc.h>
#include <gst/gst.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define PULL_TIMEOUT (100 * GST_MSECOND) /* between looks at the bus */
/* A regular file decodes far faster than real time, so this long without a
 * sample, an error or the end means decoding stopped: decodebin drops the error
 * of an element it is starting (qtdemux's "no playable streams" of an MP4 cut
 * before its index, in some runs), and a batch waited on it for ever. */
#define FILE_STALL_SECONDS 30.0

struct sl_media_source {
    GstElement *pipeline, *convert, *filter, *sink;
    GstBus *bus;
    GstSample *sample; /* the one being read, from `off` on */
    GstMapInfo map;
    gsize off;
    sf_count_t pos;    /* bytes handed to libsndfile */
    int rate, channels;
    gint64 promised;   /* sample frames the container says it holds; 0: unknown */
    gint64 decoded;    /* sample frames decoded so far */
    int want;          /* the audio stream read (1-based: sl_audio_options.stream) */
    int audio_pads;    /* audio streams exposed so far of the current part */
    int several;       /* it holds more than one stream (audio, or a video's picture
                          beside its sound): the container's duration is not the audio
                          stream's, so it cannot tell a cut file (set atomically) */
    int no_such;       /* it holds fewer audio streams than `want` (set atomically) */
    int eos;
    int untyped;       /* GStreamer could not tell what the file holds */
    int estimated;     /* MPEG audio (MP3, MP2): its duration is guessed from a bit
                          rate, no promise to hold it to (set atomically) */
    char error[SL_ERR_LEN]; /* a decoding error met while reading */
    volatile int *interrupt; /* sl_audio_options.interrupt */
    gint64 stall_polls; /* most empty looks in a row (PULL_TIMEOUT each) before a wait
                           for a sample, an error or the end is an error; 0: none.
                           Looks, not wall time: a process stopped (Ctrl-Z) and
                           continued would otherwise find its healthy decoding stalled */
};

static void on_pad_added(GstElement *decode, GstPad *pad, gpointer user)
{
    (void)decode;
    sl_media_source *s = user;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    const char *media = caps ? gst_structure_get_name(gst_caps_get_structure(caps, 0)) : "";
    GstPad *to = gst_element_get_static_pad(s->convert, "sink");
    /* the audio stream wanted; and the same of the next part of a chained file
     * (an Ogg radio stream's next song), whose pads come once the last one's are gone */
    if (g_str_has_prefix(media, "audio/x-raw") && ++s->audio_pads == s->want &&
        !gst_pad_is_linked(to))
        gst_pad_link(pad, to);
    if (s->audio_pads > 1)
        g_atomic_int_set(&s->several, 1);
    gst_object_unref(to);
    if (caps)
        gst_caps_unref(caps);
}

/* Each stream decodebin plugs on: one that is not audio and no demuxer takes (a
 * video's picture, subtitles; not the container itself, nor an MP3's ID3 tag)
 * is one more stream, though only audio is exposed. */
static gboolean on_autoplug_continue(GstElement *bin, GstPad *pad, GstCaps *caps, gpointer user)
{
    (void)bin;
    (void)pad;
    sl_media_source *s = user;
    const GstStructure *st = caps && gst_caps_get_size(caps) > 0 ? gst_caps_get_structure(caps, 0)
                                                                   : NULL;
    const char *media = st ? gst_structure_get_name(st) : "audio/";
    int mpeg_version = 0;
    if (st && !strcmp(media, "audio/mpeg") && gst_structure_get_int(st, "mpegversion", &mpeg_version) &&
        mpeg_version == 1)
        g_atomic_int_set(&s->estimated, 1);
    /* (RTP says what it carries in a field: application/x-rtp, media=audio) */
    if (g_str_has_prefix(media, "audio/") || g_strcmp0(gst_structure_get_string(st, "media"),
                                                       "audio") == 0 ||
        g_atomic_int_get(&s->several))
        return TRUE;
    /* those decodebin would plug (ranked), not the ones whose pads take anything */
    GList *demuxers = gst_element_factory_list_get_elements(GST_ELEMENT_FACTORY_TYPE_DEMUXER,
                                                            GST_RANK_MARGINAL);
    GList *taking = gst_element_factory_list_filter(demuxers, caps, GST_PAD_SINK, FALSE);
    if (!taking)
        g_atomic_int_set(&s->several, 1);
    gst_plugin_feature_list_free(taking);
    gst_plugin_feature_list_free(demuxers);
    return TRUE;
}

/* Without the stream wanted nothing would ever reach the sink: said on the bus. */
static void on_no_more_pads(GstElement *decode, gpointer user)
{
    sl_media_source *s = user;
    GstPad *to = gst_element_get_static_pad(s->convert, "sink");
    if (!gst_pad_is_linked(to)) {
        g_atomic_int_set(&s->no_such, s->audio_pads > 0);
        GError *e = s->audio_pads == 0
            ? g_error_new_literal(GST_STREAM_ERROR, GST_STREAM_ERROR_WRONG_TYPE,
                                  "it holds no audio stream that can be decoded")
            : g_error_new(GST_STREAM_ERROR, GST_STREAM_ERROR_WRONG_TYPE,
                          "holds %d audio stream(s), so no audio stream %d", s->audio_pads,
                          s->want);
        /* the message copies the error */
        gst_element_post_message(decode, gst_message_new_error(GST_OBJECT(decode), e, NULL));
        g_error_free(e);
    }
    gst_object_unref(to);
    s->audio_pads = 0; /* a chained file's next part counts its own */
}

/* Where a missing decoder's line [p, eol) gives its caps: the last " (" that
 * opens a media type, "type/subtype" then ',' or ')' (a name may hold
 * parentheses and slashes of its own: "AC-3 (ATSC A/52) (audio/x-ac3, ...)");
 * eol when there is none. */
static const char *caps_start(const char *p, const char *eol)
{
    const char *found = eol;
    for (const char *q = p; q + 2 < eol; q++) {
        if (q[0] != ' ' || q[1] != '(')
            continue;
        size_t type = strspn(q + 2, "abcdefghijklmnopqrstuvwxyz-");
        if (type == 0 || q[2 + type] != '/')
            continue;
        const char *sub = q + 3 + type;
        size_t n = strcspn(sub, " ,)\n");
        if (n > 0 && (sub[n] == ',' || sub[n] == ')'))
            found = q;
    }
    return found;
}

/* decodebin's "Missing decoder: AAC (MPEG-4 AAC) (audio/mpeg, ...)" lines, as
 * "AAC (MPEG-4 AAC), AC-3 (ATSC A/52)": what a user must install; only_audio 0,
 * those of every stream (a video's too: what is not audio). */
static void missing_decoders(const char *debug, int only_audio, char *buf, size_t len)
{
    static const char tag[] = "Missing decoder: ";
    size_t n = 0;
    buf[0] = '\0';
    for (const char *p = debug; p && (p = strstr(p, tag)) != NULL && n + 1 < len;) {
        p += sizeof tag - 1;
        const char *eol = p + strcspn(p, "\n"), *end = caps_start(p, eol);
        if (!only_audio || !strncmp(end, " (audio/", 8))
            n += (size_t)snprintf(buf + n, len - n, "%s%.*s", n ? ", " : "", (int)(end - p), p);
        p = eol;
    }
}

/* The cause an error's debug text gives after the element's path, its last
 * line ("Failed to connect. (Generic error)"); NULL when it has none. */
static const char *detail(const char *debug)
{
    const char *nl = debug ? strrchr(debug, '\n') : NULL;
    return nl && nl[1] ? nl + 1 : NULL;
}

/* Whether an error says only what its code says (GStreamer's own text for it,
 * "GStreamer encountered a general stream error."), not a message of its own. */
static int generic_message(const GError *e)
{
    gchar *standard = gst_error_get_message(e->domain, e->code);
    int same = standard && e->message && !strcmp(standard, e->message);
    g_free(standard);
    return same;
}

/* souphttpsrc's details of a server's answer ("Internal Server Error (500),
 * URL: ..., Redirect to: ..."): said as the server's answer into buf, 1; 0
 * where the details are no such answer (no server reached). */
static int server_answer(const char *d, char *buf, size_t len)
{
    const char *url = d ? strstr(d, "), URL: ") : NULL;
    const char *code = url; /* the status, after the '(' before ", URL" */
    while (code && code > d && code[-1] != '(')
        code--;
    int status = 0;
    /* (an error's status: a reason phrase holding "(200), URL: " fakes none) */
    if (!code || code <= d || sscanf(code, "%d", &status) != 1 || status < 300 || status > 599)
        return 0;
    int reason = (int)(code - 1 - d); /* the text before " (" */
    while (reason > 0 && d[reason - 1] == ' ')
        reason--;
    const char *to = strstr(url, "Redirect to: ");
    const int redirect = status >= 300 && status < 400 && to && strncmp(to + 13, "(NULL)", 6);
    snprintf(buf, len, "the server answered %d %.*s%s%.*s%s", status, reason, d,
             redirect ? ", redirecting to " : "", redirect ? (int)strcspn(to + 13, "\n") : 0,
             redirect ? to + 13 : "",
             redirect ? " (a redirect loop, or more redirects than GStreamer follows)" : "");
    return 1;
}

/* The first error on the bus, into buf; 1 if there was one. */
static int take_error(sl_media_source *s, char *buf, size_t len)
{
    GstMessage *m = gst_bus_pop_filtered(s->bus, GST_MESSAGE_ERROR);
    if (!m)
        return 0;
    GError *e = NULL;
    gchar *debug = NULL;
    char missing[256], other[256];
    gst_message_parse_error(m, &e, &debug);
    s->untyped = e && e->domain == GST_STREAM_ERROR && e->code == GST_STREAM_ERROR_TYPE_NOT_FOUND;
    missing_decoders(debug, 1, missing, sizeof missing);
    missing_decoders(debug, 0, other, sizeof other);
    const char *reason = debug ? strstr(debug, "reason ") : NULL; /* "not-negotiated (-4)" */
    if (!missing[0] && other[0]) /* a video alone: no decoder would help */
        snprintf(buf, len, "no audio stream in it (only %s, which is not audio)", other);
    else if (missing[0])
        snprintf(buf, len, "no audio stream in it that the installed GStreamer plugins decode "
                 "(no decoder for %s)", missing);
    else if (reason && !strncmp(reason, "reason error", 12) && GST_IS_BASE_SRC(GST_MESSAGE_SRC(m)))
        /* souphttpsrc (1.22) stops so, posting no error of its own, when the
         * server cannot be reached: "Internal data stream error" says nothing */
        snprintf(buf, len, "its source (%s) stopped without naming the reason: for a network "
                 "address, is the host's name right and its server up?",
                 GST_OBJECT_NAME(gst_element_get_factory(GST_ELEMENT(GST_MESSAGE_SRC(m)))));
    else if (e && e->domain == GST_RESOURCE_ERROR && server_answer(detail(debug), buf, len))
        ; /* a server that answered is up: its answer says what went wrong */
    else if (e && e->domain == GST_RESOURCE_ERROR &&
             (e->code == GST_RESOURCE_ERROR_OPEN_READ ||
              e->code == GST_RESOURCE_ERROR_OPEN_READ_WRITE) && detail(debug))
        /* rtspsrc's "Could not open resource for reading and writing." says
         * nothing of the cause its details give ("Failed to connect.") */
        snprintf(buf, len, "%s (%s): for a network address, is the host's name right and its "
                 "server up?", e->message, detail(debug));
    else if (!reason && detail(debug) && e && generic_message(e))
        /* "GStreamer encountered a general stream error." says nothing; its
         * details do ("no 'moov' atom within the first 10 MB": an MP4 whose
         * index is at its end, read from a pipe) */
        snprintf(buf, len, "%s (%s)", e->message, detail(debug));
    else
        snprintf(buf, len, "%s%s%.*s%s", e ? e->message : "decoding failed", reason ? " (" : "",
                 reason ? (int)strcspn(reason, "\n") : 0, reason ? reason : "", reason ? ")" : "");
    g_clear_error(&e);
    g_free(debug);
    gst_message_unref(m);
    return 1;
}

static void drop_sample(sl_media_source *s)
{
    if (s->sample) {
        gst_buffer_unmap(gst_sample_get_buffer(s->sample), &s->map);
        gst_sample_unref(s->sample);
        s->sample = NULL;
    }
}

/* The next decoded buffer, or 0 at the end (or at an error, kept in s->error). */
static int next_sample(sl_media_source *s)
{
    drop_sample(s);
    gint64 empty = 0;
    while (!s->eos) {
        GstSample *sample = gst_app_sink_try_pull_sample(GST_APP_SINK(s->sink), PULL_TIMEOUT);
        if (sample) {
            GstBuffer *b = gst_sample_get_buffer(sample);
            if (!b || !gst_buffer_map(b, &s->map, GST_MAP_READ)) {
                gst_sample_unref(sample);
                continue;
            }
            s->sample = sample;
            s->off = 0;
            if (s->channels > 0) /* after the first, which sl_media_open counts */
                s->decoded += (gint64)(s->map.size / sizeof(float) / (gsize)s->channels);
            return 1;
        }
        if (take_error(s, s->error, sizeof s->error) || (s->interrupt && *s->interrupt)) {
            s->eos = 1;
        } else if (gst_app_sink_is_eos(GST_APP_SINK(s->sink))) {
            s->eos = 1;
            /* a demuxer reads a cut file as far as it goes: the container's
             * duration says whether that was all (decoders trim a few ms) */
            if (s->promised > 0 && !g_atomic_int_get(&s->several) &&
                !g_atomic_int_get(&s->estimated) &&
                s->promised - s->decoded > s->rate / 2 &&
                s->promised - s->decoded > s->promised / 50)
                snprintf(s->error, sizeof s->error,
                         "the container promises %.2f s, only %.2f s could be decoded "
                         "(truncated or damaged)", (double)s->promised / s->rate,
                         (double)s->decoded / s->rate);
        } else if (s->stall_polls > 0 && ++empty >= s->stall_polls) {
            s->eos = 1;
            snprintf(s->error, sizeof s->error, "GStreamer's decoding gave no audio, no error "
                     "and no end for %g s: damaged or cut short, or a decoder or source "
                     "that hangs", (double)(s->stall_polls * PULL_TIMEOUT) / GST_SECOND);
        }
    }
    return 0;
}

static sf_count_t vio_read(void *ptr, sf_count_t count, void *user)
{
    sl_media_source *s = user;
    sf_count_t done = 0;
    while (done < count) {
        if ((!s->sample || s->off == s->map.size) && !next_sample(s))
            break;
        gsize n = s->map.size - s->off;
        if ((sf_count_t)n > count - done)
            n = (gsize)(count - done);
        memcpy((char *)ptr + done, s->map.data + s->off, n);
        s->off += n;
        done += (sf_count_t)n;
    }
    s->pos += done;
    return done;
}

/* The decoder only runs forwards; libsndfile asks for no more while it opens a
 * raw file than where it is. The length is unknown: as large as can be, the
 * end being where the reads stop. */
static sf_count_t vio_seek(sf_count_t offset, int whence, void *user)
{
    sl_media_source *s = user;
    sf_count_t target = whence == SEEK_SET ? offset : whence == SEEK_CUR ? s->pos + offset : -1;
    return target == s->pos ? s->pos : -1;
}
static sf_count_t vio_length(void *user)
{
    (void)user;
    return (sf_count_t)1 << 60;
}
static sf_count_t vio_tell(void *user) { return ((sl_media_source *)user)->pos; }

const char *sl_media_source_error(const sl_media_source *s)
{
    return s && s->error[0] ? s->error : NULL;
}

void sl_media_source_free(sl_media_source *s)
{
    if (!s)
        return;
    drop_sample(s);
    if (s->pipeline) {
        gst_element_set_state(s->pipeline, GST_STATE_NULL);
        gst_object_unref(s->pipeline);
    }
    if (s->bus)
        gst_object_unref(s->bus);
    g_free(s);
}

/* Makes a `factory` element inside the pipeline; NULL if it is not installed. */
static GstElement *add(GstElement *pipeline, const char *factory)
{
    GstElement *e = gst_element_factory_make(factory, NULL);
    if (e)
        gst_bin_add(GST_BIN(pipeline), e);
    return e;
}

/* souphttpsrc gives up on a server silent for 15 s (its own I/O timeout,
 * then retries with a range request that a live server refuses: "Server
 * does not support seeking"), where a URI is to be waited on for ever unless
 * --stall-timeout says otherwise (the reader's own count of silent polls) */
static void on_source_setup(GstElement *decode, GstElement *source, gpointer user)
{
    (void)decode;
    (void)user;
    if (!strcmp(G_OBJECT_TYPE_NAME(source), "GstSoupHTTPSrc"))
        g_object_set(source, "timeout", 0u, NULL);
}

/* Whether the source knows how many bytes it will give: a server that sends
 * no length (a live stream) does not, and then a container's duration is
 * its writer's placeholder (a WAV of ffmpeg's or arecord's: 67,108 s),
 * which promises nothing, as in a pipe. */
static int source_knows_its_length(GstElement *decode)
{
    GstElement *source = NULL;
    gint64 bytes = -1;
    g_object_get(decode, "source", &source, NULL);
    if (source) {
        if (!gst_element_query_duration(source, GST_FORMAT_BYTES, &bytes))
            bytes = -1;
        gst_object_unref(source);
    }
    return bytes > 0;
}

/* 1 for a pipe, a FIFO or a socket, however it is reached: fd://N, a path
 * (mkfifo talk.mka) or a file:// URI of one; 0 for a regular file and for
 * network URIs (whose sources say whether they know their length:
 * source_knows_its_length). */
static int through_pipe(const char *path)
{
    int fd;
    char tail;
    struct stat st;
    if (sscanf(path, "fd://%d%c", &fd, &tail) == 1)
        return fstat(fd, &st) != 0 || !S_ISREG(st.st_mode);
    gchar *file = !gst_uri_is_valid(path) ? g_strdup(path)
                  : g_str_has_prefix(path, "file:") ? g_filename_from_uri(path, NULL, NULL) : NULL;
    int piped = file && stat(file, &st) == 0 && !S_ISREG(st.st_mode);
    g_free(file);
    return piped;
}

char *sl_media_local_path(const char *uri)
{
    if (!g_str_has_prefix(uri, "file:"))
        return NULL;
    gchar *file = g_filename_from_uri(uri, NULL, NULL);
    char *local = file ? strdup(file) : NULL;
    g_free(file);
    return local;
}

SNDFILE *sl_media_open(const char *path, const char *name, const sl_audio_options *opt,
                       SF_INFO *info, sl_media_source **src, char *err, size_t errlen)
{
    *src = NULL;
    GError *gerr = NULL;
    /* fd://N of a descriptor not open: GStreamer's own (sockets it opens when
     * it starts) may take that number, and reading one waits for ever */
    int fd;
    char tail;
    if (sscanf(path, "fd://%d%c", &fd, &tail) == 1 && fcntl(fd, F_GETFD) < 0) {
        sl_io_err(err, errlen, "%s: descriptor %d is not open (a shell opens it with %d<FILE)",
                  name, fd, fd);
        return NULL;
    }
    if (!gst_init_check(NULL, NULL, &gerr)) {
        sl_io_err(err, errlen, "%s: GStreamer, which decodes this kind of file, cannot start: %s",
                  name, gerr ? gerr->message : "?");
        g_clear_error(&gerr);
        return NULL;
    }
    sl_media_source *s = g_new0(sl_media_source, 1);
    s->interrupt = opt->interrupt;
    struct stat st;
    double stall = opt->stall_seconds != 0.0 ? opt->stall_seconds
                   : !gst_uri_is_valid(path) && stat(path, &st) == 0 && S_ISREG(st.st_mode)
                   ? FILE_STALL_SECONDS : 0.0;
    s->stall_polls = stall > 0.0 ? (gint64)ceil(stall * GST_SECOND / PULL_TIMEOUT) : 0;
    s->want = opt->stream > 1 ? opt->stream : 1;
    s->pipeline = gst_pipeline_new(NULL);
    sl_mp3_gapless_watch(s->pipeline);
    GstElement *decode = add(s->pipeline, "uridecodebin");
    s->convert = add(s->pipeline, "audioconvert");
    GstElement *resample = add(s->pipeline, "audioresample");
    s->filter = add(s->pipeline, "capsfilter");
    s->sink = add(s->pipeline, "appsink");
    gchar *uri = gst_uri_is_valid(path) ? g_strdup(path) : gst_filename_to_uri(path, &gerr);
    if (!uri || !decode || !s->filter || !s->convert || !resample || !s->sink ||
        !gst_element_link_many(s->convert, resample, s->filter, s->sink, NULL)) {
        sl_io_err(err, errlen, "%s: cannot set up GStreamer's decoding: %s", name,
                  gerr ? gerr->message : "uridecodebin, audioconvert, audioresample and appsink "
                                         "are needed (gstreamer1.0-plugins-base)");
        g_clear_error(&gerr);
        g_free(uri);
        goto fail;
    }
    /* only decoded audio is exposed; float out, the rate and channels as decoded */
    GstCaps *raw = gst_caps_from_string("audio/x-raw");
    GstCaps *f32 = gst_caps_from_string("audio/x-raw,format=F32LE,layout=interleaved");
    g_object_set(decode, "uri", uri, "caps", raw, "expose-all-streams", FALSE, NULL);
    g_object_set(s->filter, "caps", f32, NULL);
    g_object_set(s->sink, "sync", FALSE, "max-buffers", 16, NULL);
    gst_caps_unref(raw);
    gst_caps_unref(f32);
    g_free(uri);
    g_signal_connect(decode, "source-setup", G_CALLBACK(on_source_setup), NULL);
    g_signal_connect(decode, "pad-added", G_CALLBACK(on_pad_added), s);
    g_signal_connect(decode, "autoplug-continue", G_CALLBACK(on_autoplug_continue), s);
    g_signal_connect(decode, "no-more-pads", G_CALLBACK(on_no_more_pads), s);
    s->bus = gst_element_get_bus(s->pipeline);

    /* Playing at once: the first buffer's caps say the rate and channels. */
    char why[SL_ERR_LEN] = "";
    int rate = 0, channels = 0;
    gint64 duration = 0;
    if (gst_element_set_state(s->pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
        if (!take_error(s, why, sizeof why))
            snprintf(why, sizeof why, "the decoder did not start");
    } else if (!next_sample(s)) {
        snprintf(why, sizeof why, "%s", s->error[0] ? s->error : "contains no audio (0 samples)");
    } else {
        const GstStructure *st = gst_caps_get_structure(gst_sample_get_caps(s->sample), 0);
        if (!gst_structure_get_int(st, "rate", &rate) ||
            !gst_structure_get_int(st, "channels", &channels) || rate <= 0 || channels <= 0)
            snprintf(why, sizeof why, "the decoder's output has no rate or channel count");
    }
    if (!why[0]) {
        s->rate = rate;
        s->channels = channels;
        s->decoded = (gint64)(s->map.size / sizeof(float) / (gsize)channels); /* the first */
        /* the stream keeps the first part's rate and channels: a chained stream's
         * next part at another (a radio stream's next song) is resampled and
         * mixed to them, not refused; the first part passes through unchanged */
        GstCaps *fixed = gst_caps_new_simple("audio/x-raw", "format", G_TYPE_STRING, "F32LE",
                                             "layout", G_TYPE_STRING, "interleaved", "rate",
                                             G_TYPE_INT, rate, "channels", G_TYPE_INT, channels,
                                             NULL);
        g_object_set(s->filter, "caps", fixed, NULL);
        gst_caps_unref(fixed);
        /* a stream's writer (wavenc, arecord or sox into a pipe) does not know its
         * length and leaves a placeholder: in a pipe a container promises
         * nothing, as libsndfile's containers on standard input do not */
        if (!through_pipe(path) && source_knows_its_length(decode) &&
            gst_element_query_duration(s->pipeline, GST_FORMAT_TIME, &duration) && duration > 0)
            s->promised = (gint64)gst_util_uint64_scale((guint64)duration, (guint64)rate, GST_SECOND);
    }
    if (s->untyped && sl_audio_is_uri(path)) {
        /* a URI is GStreamer's alone, and never headerless samples */
        sl_io_err(err, errlen, "%s: GStreamer cannot tell what this holds: no audio it "
                  "knows, or its start is damaged or cut short", name);
        goto fail;
    }
    if (s->untyped) {
        sl_io_err(err, errlen, "%s: not an audio file in a format libsndfile or GStreamer reads "
                  "(headerless samples: seqlabel label and features read them given "
                  "--raw-format and --raw-rate)", name);
        goto fail;
    }
    if (why[0]) {
        if (g_atomic_int_get(&s->no_such))
            sl_io_err(err, errlen, "%s: %s", name, why);
        else if (sl_audio_is_uri(path) && strncmp(path, "file://", 7))
            sl_io_err(err, errlen, "%s: GStreamer cannot read or decode this stream: %s", name, why);
        else
            sl_io_err(err, errlen, "%s: not an audio file that libsndfile reads, and GStreamer "
                      "cannot decode it: %s", name, why);
        goto fail;
    }
    memset(info, 0, sizeof *info);
    info->samplerate = rate;
    info->channels = channels;
    info->format = SF_FORMAT_RAW | SF_FORMAT_FLOAT | SF_ENDIAN_LITTLE;
    SF_VIRTUAL_IO vio = {vio_length, vio_seek, vio_read, NULL, vio_tell};
    sl_sf_failure failed;
    sl_sf_open_begin(1); /* (raw samples: libsndfile reads no header, nothing waits) */
    SNDFILE *sf = sl_sf_open_end(sf_open_virtual(&vio, SFM_READ, info, s), &failed, 1);
    if (!sf) {
        sl_io_err(err, errlen, "%s: cannot read GStreamer's decoding: %s", name, failed.why);
        goto fail;
    }
    *src = s;
    return sf;
fail:
    sl_media_source_free(s);
    return NULL;
}
