#include "plugin_test_util.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gst/check/gstharness.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <sndfile.h>

#include "gstseqlabelmeta.h"

static char *tmp_dir;
static char *model_path;

static uint64_t
next_rand (uint64_t * s)
{
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return *s >> 11;
}

static double
uniform (uint64_t * s)
{
  return (double) next_rand (s) / (double) (1ULL << 53);
}

static void
cleanup_tmp (void)
{
  if (model_path)
    remove (model_path);
  if (tmp_dir) {
    /* tests remove their own files; the directory goes if it is empty */
    g_rmdir (tmp_dir);
  }
}

void
pt_init (void)
{
  static gboolean done = FALSE;
  GstElementFactory *f;

  if (done)
    return;
  gst_init (NULL, NULL);
  f = gst_element_factory_find ("seqlabel");
  if (f == NULL)
    fail_msg ("element seqlabel not found (GST_PLUGIN_PATH=%s)",
        g_getenv ("GST_PLUGIN_PATH"));
  gst_object_unref (f);
  done = TRUE;
}

const char *
pt_tmp_dir (void)
{
  if (tmp_dir == NULL) {
    GError *e = NULL;
    tmp_dir = g_dir_make_tmp ("seqlabel-plugin-XXXXXX", &e);
    if (tmp_dir == NULL)
      fail_msg ("tmp dir: %s", e->message);
    atexit (cleanup_tmp);
  }
  return tmp_dir;
}

const char *
pt_model_path (void)
{
  sl_feature_config fc;
  sl_model_config mc;
  float mean[64], inv_std[64];
  const char *names[PT_K] = { "silence", "speech", "music", "noise" };
  char err[SL_ERR_LEN];
  uint64_t s = 12345;
  sl_model *m;

  if (model_path)
    return model_path;
  sl_feature_config_default (&fc);
  fc.num_mel_bins = 23;
  sl_model_config_default (&mc);
  mc.n_features = sl_feature_dim (&fc);
  mc.d_model = 16;
  mc.n_heads = 2;
  mc.n_layers = 2;
  mc.d_ff = 32;
  mc.n_classes = PT_K;
  mc.max_window = 64;
  mc.stream_window = 24;
  mc.stream_left = 6;
  mc.stream_lookahead = 4;
  for (int i = 0; i < mc.n_features; i++) {
    mean[i] = (float) (8.0 + 4.0 * uniform (&s));
    inv_std[i] = (float) (0.2 + 0.2 * uniform (&s));
  }
  m = sl_model_create (&mc, &fc, mean, inv_std, names, err, sizeof err);
  if (m == NULL)
    fail_msg ("model: %s", err);
  sl_model_init_params (m, 777);
  model_path = g_build_filename (pt_tmp_dir (), "tiny.slm", NULL);
  if (sl_model_save (m, model_path, err, sizeof err) != 0)
    fail_msg ("save: %s", err);
  sl_model_free (m);
  return model_path;
}

float *
pt_signal (int64_t n, uint64_t seed)
{
  float *x = malloc ((size_t) n * sizeof *x);
  uint64_t s = seed;
  double amp = 0.1, smooth = 0.0, prev = 0.0;

  assert_non_null (x);
  for (int64_t i = 0; i < n; i++) {
    if (i % 4801 == 0) {
      amp = 0.001 + 0.5 * uniform (&s) * uniform (&s);
      smooth = 0.95 * uniform (&s);
    }
    double v = (uniform (&s) * 2.0 - 1.0) * amp;
    prev = smooth * prev + (1.0 - smooth) * v;
    x[i] = (float) (lrint (prev * 32768.0) / 32768.0);
  }
  return x;
}

void
pt_frames_init (pt_frames * f)
{
  memset (f, 0, sizeof *f);
}

void
pt_frames_free (pt_frames * f)
{
  free (f->index);
  free (f->label);
  free (f->conf);
  free (f->probs);
  free (f->pts);
  free (f->dur);
  memset (f, 0, sizeof *f);
}

void
pt_frames_add (pt_frames * f, int64_t index, int label, float conf,
    const float *probs, GstClockTime pts, GstClockTime dur)
{
  if (f->n == f->cap) {
    f->cap = f->cap ? 2 * f->cap : 256;
    f->index = realloc (f->index, f->cap * sizeof *f->index);
    f->label = realloc (f->label, f->cap * sizeof *f->label);
    f->conf = realloc (f->conf, f->cap * sizeof *f->conf);
    f->probs = realloc (f->probs, f->cap * PT_K * sizeof *f->probs);
    f->pts = realloc (f->pts, f->cap * sizeof *f->pts);
    f->dur = realloc (f->dur, f->cap * sizeof *f->dur);
  }
  f->index[f->n] = index;
  f->label[f->n] = label;
  f->conf[f->n] = conf;
  if (probs)
    memcpy (f->probs + f->n * PT_K, probs, PT_K * sizeof *probs);
  else
    memset (f->probs + f->n * PT_K, 0, PT_K * sizeof *probs);
  f->pts[f->n] = pts;
  f->dur[f->n] = dur;
  f->n++;
}

typedef struct {
  pt_frames *out;
  GArray *segs;
} ref_sink;

static int
ref_on_frame (void *user, int64_t index, int label, float confidence,
    const float *probs, int n_classes)
{
  ref_sink *r = user;
  assert_int_equal (n_classes, PT_K);
  pt_frames_add (r->out, index, label, confidence, probs, GST_CLOCK_TIME_NONE,
      GST_CLOCK_TIME_NONE);
  return 0;
}

static int
ref_on_segment (void *user, int64_t start, int64_t end, int label, float conf)
{
  ref_sink *r = user;
  (void) conf;
  if (r->segs) {
    gint64 v[3] = { start, end, label };
    g_array_append_vals (r->segs, v, 3);
  }
  return 0;
}

void
pt_reference (const float *pcm, int64_t n, const sl_labeler_config * cfg,
    pt_frames * out, GArray * segs)
{
  pt_reference_retuned (pcm, n, cfg, n, 0.0f, 0.0f, 0.0f, out, segs);
}

void
pt_reference_retuned (const float *pcm, int64_t n, const sl_labeler_config * cfg,
    int64_t at, float penalty, float on, float off, pt_frames * out, GArray * segs)
{
  char err[SL_ERR_LEN];
  sl_labeler_config c;
  sl_model *m = sl_model_load (pt_model_path (), err, sizeof err);
  ref_sink r = { out, segs };
  sl_label_sink sink = { &r, ref_on_frame, ref_on_segment };
  sl_labeler *l;

  if (m == NULL)
    fail_msg ("%s", err);
  if (cfg)
    c = *cfg;
  else
    sl_labeler_config_default (&c);
  l = sl_labeler_new (m, &c, err, sizeof err);
  if (l == NULL)
    fail_msg ("%s", err);
  if (sl_labeler_push (l, pcm, (size_t) at, &sink, err, sizeof err) != 0 ||
      (at < n && (sl_labeler_retune (l, penalty, on, off, err, sizeof err) != 0 ||
              sl_labeler_push (l, pcm + at, (size_t) (n - at), &sink, err,
                  sizeof err) != 0)) ||
      sl_labeler_finish (l, &sink, err, sizeof err) != 0)
    fail_msg ("%s", err);
  sl_labeler_free (l);
  sl_model_free (m);
}

void
pt_collect_frame_messages (GstBus * bus, pt_frames * out)
{
  GstMessage *msg;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT)) != NULL) {
    const GstStructure *s = gst_message_get_structure (msg);
    if (gst_structure_has_name (s, "seqlabel") && gst_structure_has_field (s, "frame")) {
      guint64 index, pts, dur;
      gint cls;
      gdouble conf;
      float probs[PT_K];
      const GValue *list = gst_structure_get_value (s, "probabilities");
      const gchar *label = gst_structure_get_string (s, "label");

      assert_true (gst_structure_get_uint64 (s, "frame", &index));
      assert_true (gst_structure_get_uint64 (s, "timestamp", &pts));
      assert_true (gst_structure_get_uint64 (s, "duration", &dur));
      assert_true (gst_structure_get_int (s, "class", &cls));
      assert_true (gst_structure_get_double (s, "confidence", &conf));
      assert_true (gst_structure_has_field (s, "stream-time"));
      assert_true (gst_structure_has_field (s, "running-time"));
      assert_non_null (label);
      assert_non_null (list);
      assert_int_equal (gst_value_list_get_size (list), PT_K);
      for (int k = 0; k < PT_K; k++)
        probs[k] = (float) g_value_get_double (gst_value_list_get_value (list, k));
      {
        static const char *names[PT_K] = { "silence", "speech", "music", "noise" };
        assert_in_range (cls, 0, PT_K - 1);
        assert_string_equal (label, names[cls]);
      }
      pt_frames_add (out, (int64_t) index, cls, (float) conf, probs, pts, dur);
    }
    gst_message_unref (msg);
  }
}

void
pt_collect_meta (GstBuffer * buf, pt_frames * out)
{
  GstSeqLabelMeta *m = gst_buffer_get_seqlabel_meta (buf);
  if (m == NULL)
    return;
  assert_int_equal (m->n_classes, PT_K);
  for (guint i = 0; i < m->n_frames; i++) {
    const GstSeqLabelFrame *f = &m->frames[i];
    pt_frames_add (out, (int64_t) f->index, f->class_index, f->confidence,
        m->probabilities + (gsize) i * PT_K, f->pts, f->duration);
  }
}

void
pt_assert_frames_equal (const pt_frames * el, const pt_frames * ref,
    int64_t index_offset, GstClockTime t0)
{
  assert_int_equal (el->n, ref->n);
  for (int64_t i = 0; i < el->n; i++) {
    if (el->index[i] != ref->index[i] + index_offset || el->label[i] != ref->label[i]
        || el->conf[i] != ref->conf[i])
      fail_msg ("frame %" PRId64 ": element (index %" PRId64 ", label %d, conf %.9g)"
          " vs library (index %" PRId64 ", label %d, conf %.9g)", i, el->index[i],
          el->label[i], el->conf[i], ref->index[i] + index_offset, ref->label[i],
          ref->conf[i]);
    for (int k = 0; k < PT_K; k++)
      if (el->probs[i * PT_K + k] != ref->probs[i * PT_K + k])
        fail_msg ("frame %" PRId64 " class %d: probability %.9g vs %.9g", i, k,
            el->probs[i * PT_K + k], ref->probs[i * PT_K + k]);
    if (GST_CLOCK_TIME_IS_VALID (t0) && GST_CLOCK_TIME_IS_VALID (el->pts[i])) {
      GstClockTime want = t0 + gst_util_uint64_scale (ref->index[i] * PT_HOP,
          GST_SECOND, PT_RATE);
      GstClockTime want_end = t0 + gst_util_uint64_scale ((ref->index[i] + 1) * PT_HOP,
          GST_SECOND, PT_RATE);
      assert_int_equal (el->pts[i], want);
      assert_int_equal (el->dur[i], want_end - want);
    }
  }
}

void
pt_write_wav (const char *path, const float *pcm, int64_t n, int rate, int channels)
{
  pt_write_wav_as (path, pcm, n, rate, channels, SF_FORMAT_PCM_16);
}

void
pt_write_wav_as (const char *path, const float *pcm, int64_t n, int rate, int channels,
    int subformat)
{
  SF_INFO info = { 0 };
  SNDFILE *f;
  int *inter = malloc ((size_t) n * channels * sizeof *inter);

  info.samplerate = rate;
  info.channels = channels;
  info.format = SF_FORMAT_WAV | subformat;
  f = sf_open (path, SFM_WRITE, &info);
  if (f == NULL)
    fail_msg ("%s: %s", path, sf_strerror (NULL));
  /* the values are k/32768: as int32 k << 16, which 16-, 24-bit and float files
   * hold exactly (libsndfile scales int32 to each; 8-bit files round them) */
  for (int64_t i = 0; i < n; i++)
    for (int c = 0; c < channels; c++)
      inter[i * channels + c] = (int) lrint (pcm[i] * 32768.0) * 65536;
  assert_int_equal (sf_writef_int (f, inter, n), n);
  sf_close (f);
  free (inter);
}

int
pt_append_samples (void *user, const float *mono, size_t n)
{
  g_array_append_vals ((GArray *) user, mono, (guint) n);
  return 0;
}

/* An element with the test model, per-frame messages, on its own bus; then
 * the given properties (NULL-terminated name/value pairs), set before start. */
GstHarness *
pt_make_harness (GstBus ** bus, const char *caps, ...)
{
  GstElement *el = gst_element_factory_make ("seqlabel", NULL);
  GstHarness *h;
  const char *first;
  va_list ap;

  assert_non_null (el);
  g_object_set (el, "model", pt_model_path (), NULL);
  gst_util_set_object_arg (G_OBJECT (el), "message-mode", "frame");
  va_start (ap, caps);
  first = va_arg (ap, const char *);
  if (first)
    g_object_set_valist (G_OBJECT (el), first, ap);
  va_end (ap);
  *bus = gst_bus_new ();
  gst_element_set_bus (el, *bus);
  h = gst_harness_new_with_element (el, "sink", "src");
  gst_object_unref (el);
  if (caps)
    gst_harness_set_src_caps_str (h, caps);
  return h;
}

void
pt_free_harness (GstHarness * h, GstBus * bus)
{
  gst_element_set_bus (h->element, NULL);
  gst_harness_teardown (h);
  gst_object_unref (bus);
}

/* n interleaved 16-bit frames of `channels` channels at `rate`, stamped on
 * that rate's clock from frame `offset`. */
GstFlowReturn
pt_push_s16_at (GstHarness * h, const gint16 * s, int64_t n, int channels, int rate,
    int64_t offset)
{
  GstBuffer *b = n > 0 ? gst_buffer_new_memdup (s, (gsize) (n * channels) * sizeof *s) :
      gst_buffer_new ();        /* an empty buffer has no memory */
  GST_BUFFER_PTS (b) = gst_util_uint64_scale_int (offset, GST_SECOND, rate);
  GST_BUFFER_DURATION (b) = gst_util_uint64_scale_int (offset + n, GST_SECOND, rate) -
      GST_BUFFER_PTS (b);
  return gst_harness_push (h, b);
}
