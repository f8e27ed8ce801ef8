/* The smallest whole use of libseqlabel: labels an audio file with the default
 * model (or $SEQLABEL_MODEL) and prints its segments as an Audacity label track,
 * the same lines as `seqlabel label FILE`.
 *
 *   cc label_file.c $(pkg-config --cflags --libs seqlabel) -o label_file
 *   ./label_file talk.wav
 */
#include <seqlabel.h>
#include <stdio.h>

/* The labeler calls this as soon as a segment is decided. */
static int print_segment(void *user, int64_t start, int64_t end, int label, float confidence)
{
    sl_label_writer *w = user;
    char line[256];
    sl_label_format_segment(w, line, sizeof line, start, end, label, confidence);
    fputs(line, stdout);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s AUDIO\n", argv[0]);
        return 2;
    }
    char err[SL_ERR_LEN];
    sl_model *model = sl_model_load(sl_default_model_path(), err, sizeof err);
    if (!model) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    sl_labeler_config cfg;
    sl_labeler_config_default(&cfg);
    sl_labeler *labeler = sl_labeler_new(model, &cfg, err, sizeof err);
    /* any format libsndfile reads, downmixed and resampled to the model's rate */
    sl_audio_reader *audio =
        labeler ? sl_audio_open(argv[1], sl_labeler_sample_rate(labeler), err, sizeof err) : NULL;
    int status = 1;
    if (audio) {
        sl_label_writer writer;
        sl_label_writer_init(&writer, SL_FORMAT_AUDACITY, model, argv[1]);
        const sl_label_sink sink = {.user = &writer, .on_segment = print_segment};
        static float samples[16000];
        long n;
        while ((n = sl_audio_read(audio, samples, 16000, err, sizeof err)) > 0)
            if (sl_labeler_push(labeler, samples, (size_t)n, &sink, err, sizeof err))
                break;
        if (n == 0 && sl_labeler_finish(labeler, &sink, err, sizeof err) == 0)
            status = 0;
    }
    if (status)
        fprintf(stderr, "%s\n", err);
    sl_audio_close(audio);
    sl_labeler_free(labeler);
    sl_model_free(model);
    return status;
}
