/* The `seqlabel` element: audio passes through unchanged (or, with gate, only
 * the target class's); each frame's label (from libseqlabel's streaming
 * labeler) comes out as a GstSeqLabelMeta on the audio buffers, as "seqlabel"
 * element messages on the bus, and as text on the optional "labels" request
 * pad. See docs/element.md. */
#ifndef GST_SEQLABEL_H
#define GST_SEQLABEL_H

#include <gst/gst.h>
#include <gst/audio/audio.h>
#include <gst/base/gstbasetransform.h>

#include "seqlabel.h"
#include "gstseqlabelmeta.h"

G_BEGIN_DECLS

#define GST_TYPE_SEQLABEL (gst_seqlabel_get_type ())
G_DECLARE_FINAL_TYPE (GstSeqLabel, gst_seqlabel, GST, SEQLABEL, GstBaseTransform)

GST_DEBUG_CATEGORY_EXTERN (gst_seqlabel_debug);

typedef enum {
  GST_SEQLABEL_MESSAGE_FRAME = 0,   /* one bus message per frame */
  GST_SEQLABEL_MESSAGE_SEGMENT = 1, /* one bus message per finished segment */
} GstSeqLabelMessageMode;

/* What the "labels" pad carries; all but TEXT map onto the library's formats. */
typedef enum {
  GST_SEQLABEL_FORMAT_AUDACITY = 0,       /* segments: start<TAB>end<TAB>label */
  GST_SEQLABEL_FORMAT_JSONL = 1,          /* one JSON object per frame */
  GST_SEQLABEL_FORMAT_JSONL_SEGMENTS = 2, /* one JSON object per segment */
  GST_SEQLABEL_FORMAT_FRAMES = 3,         /* TSV, one row per frame, header first */
  GST_SEQLABEL_FORMAT_RTTM = 4,           /* segments, RTTM lines */
  GST_SEQLABEL_FORMAT_TEXT = 5,           /* the bare label, segments cut into pieces of
                                             at most 0.25 s (subtitles, textoverlay) */
  GST_SEQLABEL_FORMAT_WEBVTT = 6,         /* WebVTT: the header, then a cue per segment */
  GST_SEQLABEL_FORMAT_TEXTGRID = 7,       /* Praat TextGrid: one document at EOS */
  GST_SEQLABEL_FORMAT_SUMMARY = 8,        /* a JSON line of each class's time at EOS */
  GST_SEQLABEL_FORMAT_SRT = 9,            /* SubRip: a numbered cue per segment */
  GST_SEQLABEL_FORMAT_CSV = 10,           /* a CSV table: the header, a row per segment */
} GstSeqLabelFormat;

/* time-origin=now behind a live source: a pause of the pipeline, `us` of the
 * time of day during which the running time stood still at `running_time`;
 * placed, from stream frame `frame` on (the first captured after it). */
typedef struct {
  GstClockTime running_time;
  gint64 us;
  gint64 frame;
} GstSeqLabelPause;

typedef enum {
  GST_SEQLABEL_SMOOTHING_NONE = SL_SMOOTH_NONE,
  GST_SEQLABEL_SMOOTHING_VITERBI = SL_SMOOTH_VITERBI,
} GstSeqLabelSmoothing;

/* What happens to the audio outside the target class's segments. */
/* label-format=text: a piece of text holds at most this many frames (0.25 s) */
#define TEXT_PIECE_FRAMES 25

typedef enum {
  GST_SEQLABEL_GATE_NONE = 0,    /* all audio passes as it comes (labels only) */
  GST_SEQLABEL_GATE_DROP = 1,    /* only the target class's audio passes */
  GST_SEQLABEL_GATE_SILENCE = 2, /* the rest passes as silence, timing unchanged */
} GstSeqLabelGate;

GType gst_seqlabel_gate_get_type (void);
GType gst_seqlabel_smoothing_get_type (void);
GType gst_seqlabel_message_mode_get_type (void);
GType gst_seqlabel_format_get_type (void);

/* Settings copied from the properties when the labeler is created. */
typedef struct {
  gchar *model_path;       /* NULL: the default model */
  gint window;             /* frames; -1: the model's default */
  gint left_context;       /* frames; -1: the model's default */
  gint lookahead;          /* frames; -1: the model's default */
  gdouble max_latency;     /* seconds; 0: none (sl_labeler_config.max_latency_s) */
  gboolean clip_edges;     /* sl_labeler_config.clip_edges */
  gint smoothing;          /* sl_smoothing */
  gdouble switch_penalty;
  gint smoothing_lag;
  gchar *min_durations;    /* "class=seconds,..." */
  gchar *target_class;     /* NULL or "": none */
  gdouble threshold_on;
  gdouble threshold_off;
  gdouble padding;         /* seconds, before and after target segments */
  gint num_threads;
  gchar *skip_classes;     /* labels pad: "class,..." whose segments are left out */
  gchar *only_classes;     /* ... or the only ones kept (one of the two) */
  gint channel;            /* 0: the mean of the channels; k: channel k alone */
  gchar *time_origin;      /* labels pad: "now", "@SECONDS" or ISO 8601: UTC times too */
} GstSeqLabelSettings;

struct _GstSeqLabel {
  GstBaseTransform parent;

  /* --- properties (GST_OBJECT_LOCK) --- */
  GstSeqLabelSettings props;
  gboolean post_messages;
  GstSeqLabelMessageMode message_mode;
  gboolean segment_starts;  /* also a "seqlabel-start" message as each segment begins */
  GstSeqLabelFormat label_format;
  GstSeqLabelGate gate;
  gboolean retune_pending;  /* switch-penalty or threshold-on/off set since the last push */

  /* --- library objects: made in start(), used by the streaming thread --- */
  const sl_model *model;    /* shared with the process's other elements (seqlabel_models.c) */
  gchar *model_loaded_path; /* the path `model` came from */
  sl_labeler *labeler;
  sl_label_writer writer;   /* for the labels pad */
  GstClockTime latency;     /* of the labeler; GST_CLOCK_TIME_NONE before (lock) */
  gint rate;                /* the model's sample rate */
  gint hop;                 /* samples per frame */
  gint n_classes;
  gint speech_class;        /* index of `speech` in the model, -1 if none */
  GQuark *class_quarks;     /* n_classes interned class names */
  GMutex model_lock;        /* serialises model loading (start vs caps query) */

  sl_converter *converter;  /* the input to mono at the model's rate; NULL when it is
                               that already (streaming thread) */
  GstAudioInfo info;        /* negotiated input format */
  gboolean have_info;
  GstCaps *refused_caps;    /* caps set_caps refused, its error posted: a source
                               sends them again with each buffer */
  gboolean warned_non_finite; /* a buffer with NaN/Inf was skipped and warned of; no
                               warning again until a buffer is labelled */
  GstSegment segment;       /* the sink segment, for stream/running time */

  /* the current run of the labeler (a new one after flush/discont/gap/segment) */
  gboolean run_started;
  GstClockTime base_ts;     /* buffer time of the run's sample 0 */
  gint64 frame_offset;      /* run frame 0 is stream frame frame_offset */
  gboolean utc_now;         /* time-origin=now: the writer's origin is set when the
                               stream's first run starts */
  gint64 utc_origin_us;     /* ... to this, the time of day of stream time 0 before
                               any pause; the writer's is set from it for each line */
  GArray *utc_shifts;       /* GstSeqLabelPause placed: from stream frame `frame` on,
                               the times of day are later by `us` (gst_seqlabel_utc_origin) */
  guint64 run_samples;      /* samples pushed in this run at the current rate */
  guint64 gap_pending;      /* samples of silence that gaps gave the run, pushed
                               when its next buffer comes (gst_seqlabel_fill_gap) */
  GstClockTime gap_filled;  /* their time, the gaps in a row since the last buffer */
  GstClockTime off_track_since; /* the PTS of the first buffer of the latest stretch
                               whose PTS are off the sample count by more than
                               the tolerance (the discontinuity rule's wait);
                               GST_CLOCK_TIME_NONE: on track */
  GstClockTime run_time_before; /* the run's time at rates before it (a new rate
                               mid-run): sample 0 at the current rate is then
                               base_ts + run_time_before */
  GstClockTime next_run_ts; /* where the audio seen so far ends (a finished run's end, a
                               gap's): the next run's start when its buffer has no
                               timestamp; GST_CLOCK_TIME_NONE: the segment's start */

  /* what one push produced (reused, grows only) */
  GArray *frames;           /* GstSeqLabelFrame */
  GArray *probs;            /* gfloat, n_classes per frame */
  gboolean carry_frames;    /* frames holds a run's tail ended by new caps: they go on
                               the next buffer's meta (cleared when a run resets) */
  GByteArray *unpacked;     /* a buffer of another sample format, as float */
  GByteArray *interleaved;  /* a non-interleaved buffer's samples, interleaved */
  gboolean last_is_speech;  /* latest completed frame is labeled speech */
  gboolean cb_post_messages;             /* property snapshot for this push */
  GstSeqLabelMessageMode cb_message_mode;
  gboolean cb_segment_starts;
  GstPad *cb_labelpad;      /* ref held during a push, NULL if none */
  GstFlowReturn cb_flow;    /* first fatal flow from the labels pad */
  gchar *text;              /* reused formatting buffer */
  gboolean put_meta;        /* the latest buffer processed got a meta of this element */
  gint64 open_segment_start; /* the decoder's open segment's first frame (run
                               index): no label still to come lies before it */
  /* message-mode changed while playing: the open segment's frames so far (its
   * label, their confidences' sum, the run index after them) are posted as a
   * segment on a switch to frame messages, and a segment's frames already
   * posted one by one are left out of its message on a switch back */
  gint open_label;
  gdouble open_conf_sum;
  gint64 open_framed_end;
  gint64 segment_messages_from;
  gint piece_label;         /* "text" format: the open piece, -1 none */
  gint64 piece_start;       /* its first frame (run index) */
  gint piece_len;
  gsize text_len;
  GstSeqLabelFormat run_format; /* label-format when the element started */
  gdouble run_max_latency;      /* max-latency when the element started */
  GArray *document_segs;    /* textgrid, summary: sl_frame_segment in stream frames, until EOS */
  gint64 document_end;      /* the stream frame after the last labelled one */
  gint64 document_start;    /* the stream frame the earliest run since the start, a flush,
                               a new stream or a segment's end began at; -1: none yet */
  gboolean document_sent;   /* this stream's last document written (at a segment's end):
                               EOS with nothing labelled since writes no empty one */

  /* --- the gate (seqlabel_gate.c; streaming thread): the audio is held until
   * its frames are labelled, then passes, is dropped or silenced --- */
  GstSeqLabelGate gate_mode; /* the property when the element started */
  gint gate_class;           /* the target class, which passes */
  GQueue gate_q;             /* held GstBuffers and serialized GstEvents, in order */
  GArray *gate_keep;         /* guint8 per labelled frame of the run, from gate_keep_base */
  gint64 gate_keep_base;
  gboolean gate_last_keep;   /* the latest labelled frame's, for a tail past the last frame */
  gboolean gate_dropped;     /* audio dropped since the last piece pushed: DISCONT */
  GArray *gate_carry;        /* GstSeqLabelFrame: the labels of buffers dropped whole,
                                for the next piece that passes (appended to, so a long
                                drop costs no more per buffer than a short one) */
  GArray *gate_carry_probs;  /* gfloat, n_classes per carried frame */

  /* --- reverse playback (seqlabel_reverse.c; streaming thread): the buffers
   * that go on backwards are gathered, then labelled forwards as one run --- */
  GQueue rev_q;              /* gathered buffers and serialized events, as they came */
  GstClockTime rev_start;    /* the PTS of the earliest gathered buffer */
  guint64 rev_samples;       /* sample frames gathered */
  gboolean rev_pass;         /* the gathered span is being labelled */
  GstClockTime rev_end;      /* where its audio ends (at most the segment's stop):
                                no frame of it is labelled at or past this */
  gint64 rev_end_frame;      /* the run's first frame at or past it (start_run) */
  gint64 rev_first_frame;    /* the run's first frame of the span's own audio (the
                                first that begins in it): those before are of the
                                silence that puts the run on the encoder's block
                                grid, or the span before's (0 outside a span) */
  gint64 rev_next_frame;     /* the stream frame after the span's latest labelled:
                                a run the span restarts (a decoder's gap or repeat
                                at a chunk's edge) labels none before it */
  GArray *rev_keep;          /* the gate's decisions in the span: guint8 per stream
                                frame from rev_keep_base */
  gint64 rev_keep_base;
  gboolean rev_last_keep;    /* the span's latest decision */
  GQueue rev_ctx;            /* GstBuffer refs, in time order: the earliest audio of
                                the span labelled last when the bound cut it, which
                                the span before it hears as its lookahead */

  /* --- the "labels" request pad (pointer under GST_OBJECT_LOCK) --- */
  GstPad *labelpad;
  gboolean labelpad_need_start; /* stream-start, caps, header, segment pending */
  gboolean labelpad_need_segment;
  gboolean labelpad_need_header;  /* after a flush: the format's header again */
  gboolean labelpad_renumber;     /* a header went out: SubRip's next cue is 1 */
  gboolean labelpad_fresh;  /* requested while a run goes on: its stream begins
                               with the next buffer (gst_seqlabel_process) */
  guint32 last_seek_seqnum; /* of the seek sent upstream last (object lock):
                               the same seek from the other src pad's sink is
                               not sent again */
  /* time-origin=now behind a live source, whose running time stands still
   * while the pipeline is paused and the time of day does not: change_state
   * measures each pause, the streaming thread places it (utc_shifts) */
  gboolean upstream_live;   /* upstream's latency answer said live (object lock) */
  gboolean upstream_live_known;
  gint64 pause_began_us;    /* g_get_real_time () at PLAYING -> PAUSED, -1: not paused
                               from PLAYING (change_state: the state lock) */
  GstClockTime pause_running_time; /* the running time then */
  GArray *utc_pauses;       /* GstSeqLabelPause measured, not yet placed (object lock) */
  /* its queue, served by the pad's task (lq_lock) */
  GMutex lq_lock;
  GCond lq_cond;
  GQueue lq;                /* GstBuffer / serialized GstEvent */
  gboolean lq_flushing;
  guint lq_epoch;           /* counts the pad's activations: a queue cleared by one
                               wants its stream-start, caps and segment again, so
                               what was prepared before it is not queued after */
  gboolean lq_bounded;          /* in PLAYING alone: LABELQ_MAX items at most */
  GstFlowReturn lq_flow;    /* a fatal flow downstream of the labels pad */
  GstPad *lq_push_peer;     /* the peer the task is pushing to right now (a ref), or
                               NULL: what a release must flush to unblock it */
  GstClockTime lq_position; /* the end of the latest buffer or gap queued: where the
                               labels sink prerolls again after a pause */
};

/* seqlabel_run.c: the library inside the element */
/* The model an unset `model` property means, in the order the command uses:
 * $SEQLABEL_MODEL, the installed default, the source tree's (none found: the
 * installed path, so that a load error names it). g_free it. */
gchar *gst_seqlabel_default_model_path (void);
gboolean gst_seqlabel_ensure_model (GstSeqLabel * self, gboolean post_error);
gboolean gst_seqlabel_open (GstSeqLabel * self);
void gst_seqlabel_close (GstSeqLabel * self);
/* gst_seqlabel_process: the buffer holds NaN or Inf and was not labelled */
#define SEQLABEL_FLOW_UNLABELLED GST_FLOW_CUSTOM_SUCCESS_1
GstFlowReturn gst_seqlabel_process (GstSeqLabel * self, GstBuffer * buf);
gboolean gst_seqlabel_set_input (GstSeqLabel * self, const GstAudioInfo * info);
/* End of a run (EOS, gap, new segment, discontinuity): the tail frames of a
 * started run go to the messages and the labels pad, and into self->frames (the
 * caller may put them on a buffer); then, started or not, everything is reset
 * (gst_seqlabel_reset_run) for a new run. */
GstFlowReturn gst_seqlabel_finish_run (GstSeqLabel * self);
/* A GAP event's time inside the run: TRUE when it is silence within the run
 * (a brief one where the audio is, labelled once the audio goes on), FALSE
 * when the run must end there (seqlabel_run.c says which). */
gboolean gst_seqlabel_fill_gap (GstSeqLabel * self, GstClockTime ts, GstClockTime duration);
void gst_seqlabel_reset_run (GstSeqLabel * self);
/* Reverse playback: starts a run for audio from buffer time ts on the encoder's
 * core-block grid of the stream (as the stream played from its start has it,
 * at a block that begins on an input sample), silence before ts to the block's
 * start; the frames before the first that begins at or after ts (silence, or
 * the one ts cuts, the span before's) are not labelled. */
void gst_seqlabel_start_run_aligned (GstSeqLabel * self, GstClockTime ts);
/* Sample frames in a buffer of the negotiated format (a non-interleaved one's
 * from its GstAudioMeta). */
guint64 gst_seqlabel_buffer_frames (GstSeqLabel * self, GstBuffer * buf);
/* Whether the negotiated layout is non-interleaved (planes, GstAudioMeta). */
gboolean gst_seqlabel_planar (GstSeqLabel * self);
/* A non-interleaved buffer says where its planes lie in a GstAudioMeta,
 * which GStreamer requires of it: FALSE, with an error posted, where it does
 * not (the audio library's map would fail with a critical warning). */
gboolean gst_seqlabel_planes_found (GstSeqLabel * self, GstBuffer * buf);
/* time-origin=now: the writer's origin (the time of day of stream frame 0)
 * for a line at stream frame `frame` (a segment's start): the origin at the
 * start, made later by each pause of a live pipeline before that frame was
 * captured. */
gint64 gst_seqlabel_utc_origin (GstSeqLabel * self, gint64 frame);
/* time-origin=now at a flush (streaming thread): behind a live source the
 * running time starts anew, and the stream time with it, so the next run takes
 * a new origin and the pauses before are forgotten; behind a file the frames
 * keep their places in its time, and the origin stays. */
void gst_seqlabel_utc_flush (GstSeqLabel * self);
/* PLAYING -> PAUSED and PAUSED -> PLAYING (application thread): a pause of a
 * live pipeline is measured, for the streaming thread to place. */
void gst_seqlabel_pause_begins (GstSeqLabel * self);
void gst_seqlabel_pause_ends (GstSeqLabel * self, gboolean resumed);

/* seqlabel_output.c: completed frames/segments -> bus messages, labels pad */
void gst_seqlabel_post_frame (GstSeqLabel * self, const GstSeqLabelFrame * f,
    const float *probs);
void gst_seqlabel_post_segment (GstSeqLabel * self, GstClockTime start,
    GstClockTime duration, int class_index, double confidence,
    gint64 start_frame, gint64 end_frame);
void gst_seqlabel_post_start (GstSeqLabel * self, GstClockTime start, int class_index,
    gint64 start_frame);
GstCaps *gst_seqlabel_labelpad_caps (GstSeqLabelFormat format);
GstFlowReturn gst_seqlabel_labelpad_push_text (GstSeqLabel * self, GstPad * pad,
    GstClockTime pts, GstClockTime duration, const char *text, gsize len);
void gst_seqlabel_labelpad_setup (GstSeqLabel * self, GstPad * pad);
/* Queues what must precede data on the labels pad (stream-start, caps, segment,
 * the format's header) if it is pending; a header sets labelpad_renumber. */
void gst_seqlabel_labelpad_prepare (GstSeqLabel * self, GstPad * pad);
void gst_seqlabel_labelpad_event (GstSeqLabel * self, GstEvent * event);
/* Before the labels pad is released: the queue stopped, and a push the task is
 * blocked in (a prerolled sink in PAUSED) let go by flushing the sink it
 * pushes to, linked still or not, so that deactivating can join the task. */
void gst_seqlabel_labelpad_unblock (GstSeqLabel * self, GstPad * pad);
/* A gap on the labels pad at ts for duration (NONE: a moment), within the
 * segment: a sink there prerolls on it while no label exists yet. */
void gst_seqlabel_labelpad_gap (GstSeqLabel * self, GstClockTime ts,
    GstClockTime duration);
/* PLAYING -> PAUSED: the labels sink must preroll again, on a gap where the
 * labels stand, for the pipeline to reach PAUSED (labels may be a second away). */
void gst_seqlabel_labelpad_preroll_again (GstSeqLabel * self);
/* Whether the labels queue is bounded (PLAYING) or not; wakes a thread
 * waiting on it. */
void gst_seqlabel_labelpad_bound (GstSeqLabel * self, gboolean bounded);
/* label-format=textgrid or summary: the document of the segments so far (at EOS). */
void gst_seqlabel_labelpad_document (GstSeqLabel * self);

/* seqlabel_models.c: one loaded model per file for the whole process. NULL with
 * err set when it cannot be loaded; every model got is released once. */
const sl_model *gst_seqlabel_model_get (const gchar * path, char *err, size_t errlen);
void gst_seqlabel_model_release (const sl_model * model);

/* seqlabel_gate.c: gate=drop|silence */
void gst_seqlabel_gate_init (GstSeqLabel * self);
void gst_seqlabel_gate_free (GstSeqLabel * self);
/* Everything held is discarded (flush, stop, a failed run). */
void gst_seqlabel_gate_clear (GstSeqLabel * self);
/* Frame `index` of the run is labelled `label`. */
void gst_seqlabel_gate_frame (GstSeqLabel * self, gint64 index, int label);
/* Holds buf (its first sample is sample `first` of the run; the gate takes the
 * reference), then lets out whatever is labelled. */
GstFlowReturn gst_seqlabel_gate_hold (GstSeqLabel * self, GstBuffer * buf, guint64 first);
/* Queues a serialized event behind held audio; FALSE when nothing is held
 * (the caller sends it on as usual). */
gboolean gst_seqlabel_gate_hold_event (GstSeqLabel * self, GstEvent * event);
/* The run is over and every frame labelled: all held audio and events go out. */
GstFlowReturn gst_seqlabel_gate_run_over (GstSeqLabel * self);
/* Reverse playback: buf (whose first sample is sample `first` of a run whose
 * frame 0 is stream frame frame_offset; the gate takes the reference) passes,
 * is dropped or silenced at once by the decisions of the span labelled
 * (rev_keep); unlabelled: as audio not of the class. */
GstFlowReturn gst_seqlabel_gate_pass (GstSeqLabel * self, GstBuffer * buf, guint64 first,
    gint64 frame_offset, gboolean labelled, gboolean own_meta);

/* seqlabel_reverse.c: reverse playback (segment rate below 0) */
void gst_seqlabel_reverse_init (GstSeqLabel * self);
void gst_seqlabel_reverse_free (GstSeqLabel * self);
/* What is gathered is dropped (a flush, stop). */
void gst_seqlabel_reverse_clear (GstSeqLabel * self);
/* Gathers buf (TRUE; a reference is taken), labelling the span gathered before
 * first when buf does not go on backwards from it or the span is full; FALSE:
 * buf goes on after the span, as forwards (*ret GST_FLOW_OK: labelled, cut
 * inside a sample frame) or unlabelled (*ret SEQLABEL_FLOW_UNLABELLED: no
 * timestamp). *ret otherwise: the flow of what went out. */
gboolean gst_seqlabel_reverse_take (GstSeqLabel * self, GstBuffer * buf, GstFlowReturn * ret);
/* Labels the span gathered forwards as one run, then pushes its audio (through
 * the gate) and events in the order they came. */
GstFlowReturn gst_seqlabel_reverse_flush (GstSeqLabel * self);
/* Queues a serialized event behind gathered audio; FALSE when none is gathered. */
gboolean gst_seqlabel_reverse_hold_event (GstSeqLabel * self, GstEvent * event);
/* While a span is labelled: the gate's decision for a stream frame. */
void gst_seqlabel_reverse_keep (GstSeqLabel * self, gint64 stream_frame, gboolean keep);

G_END_DECLS

#endif
