/* Voice activity on a live stream, as WebRTC VAD or Silero VAD are used: reads
 * 16-bit mono samples at the model's rate (16 kHz for the default model) from
 * standard input and says when speech starts and when it ends, as soon as the
 * labeler has decided (the model's latency, about 1 s, after the audio).
 *
 *   cc vad_stream.c $(pkg-config --cflags --libs seqlabel) -o vad_stream
 *   arecord -f S16_LE -r 16000 -c 1 -t raw | ./vad_stream
 */
#include <seqlabel.h>
#include <stdio.h>
#include <unistd.h>

typedef struct {
    int speech;     /* the class index of "speech" */
    int in_speech;  /* the last frame's decision */
    int64_t frames; /* frames decided so far */
    double hop_s;   /* seconds per frame */
} vad_state;

/* Called for every frame, in order, as soon as its label is final. */
static int on_frame(void *user, int64_t index, int label, float confidence, const float *probs,
                    int n_classes)
{
    (void)confidence, (void)probs, (void)n_classes;
    vad_state *v = user;
    int speech = label == v->speech;
    if (speech != v->in_speech) {
        printf("%.2f\t%s\n", (double)index * v->hop_s, speech ? "speech starts" : "speech ends");
        fflush(stdout);
    }
    v->in_speech = speech;
    v->frames = index + 1;
    return 0;
}

int main(void)
{
    char err[SL_ERR_LEN];
    sl_model *model = sl_model_load(sl_default_model_path(), err, sizeof err);
    if (!model) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    sl_labeler_config cfg;
    sl_labeler_config_default(&cfg);
    /* speech by hysteresis on its probability: on at 0.5, off below 0.35 */
    cfg.decoder.target_class = sl_model_class_index(model, "speech");
    sl_labeler *labeler = cfg.decoder.target_class >= 0
                              ? sl_labeler_new(model, &cfg, err, sizeof err)
                              : NULL;
    if (!labeler) {
        fprintf(stderr, "%s\n", cfg.decoder.target_class < 0 ? "the model has no speech class" : err);
        sl_model_free(model);
        return 1;
    }
    vad_state v = {cfg.decoder.target_class, 0, 0,
                   (double)sl_labeler_frame_shift(labeler) / sl_labeler_sample_rate(labeler)};
    const sl_label_sink sink = {.user = &v, .on_frame = on_frame};
    int16_t samples[1600]; /* 0.1 s at 16 kHz: a sound card's period */
    size_t held = 0;       /* bytes of a sample split between reads */
    ssize_t got;
    int status = 0;
    while ((got = read(STDIN_FILENO, (char *)samples + held, sizeof samples - held)) > 0) {
        held += (size_t)got;
        size_t n = held / sizeof samples[0];
        if (sl_labeler_push_s16(labeler, samples, n, &sink, err, sizeof err) != 0) {
            status = 1;
            break;
        }
        held -= n * sizeof samples[0];
        if (held) /* the odd byte waits for its other half */
            ((char *)samples)[0] = ((char *)samples)[n * sizeof samples[0]];
    }
    if (status == 0 && sl_labeler_finish(labeler, &sink, err, sizeof err) != 0)
        status = 1;
    if (status == 0 && v.in_speech) /* the stream ended in speech */
        printf("%.2f\tspeech ends\n", (double)v.frames * v.hop_s);
    if (status)
        fprintf(stderr, "%s\n", err);
    sl_labeler_free(labeler);
    sl_model_free(model);
    return status;
}
