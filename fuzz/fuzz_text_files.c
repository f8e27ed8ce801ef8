/* libFuzzer target: the text files and strings a user hands the trainer and the
 * labeler: a training manifest (audio<TAB>labels[<TAB>split]), an Audacity
 * label track, a Praat TextGrid (its first interval tier, and one by name), an
 * RTTM file (one file's turns by name, and all as one class), subtitles
 * (WebVTT, SubRip), JSON Lines segments, a CSV table, a UEM file's regions (eval --uem), a
 * min-durations spec ("speech=0.2,music=0.5", the element's
 * property and the command's option) checked against the default model's
 * classes, a class list (--skip/--only, skip-classes/only-classes), and a
 * moment (--time-origin, time-origin) put to use in a JSON line far into a stream. */
#include <seqlabel.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/label_files.h"

/* The model whose classes min-durations names: the source tree's default model. */
static sl_model *default_model(void)
{
    static sl_model *m;
    if (!m) {
        char err[512];
        m = sl_model_load(sl_source_model_path(), err, sizeof err);
        if (!m) {
            fprintf(stderr, "%s\n", err);
            abort();
        }
    }
    return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], err[512];
    snprintf(path, sizeof path, "/tmp/seqlabel-fuzz-%d.txt", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    sl_manifest man;
    sl_label_segment *segs;
    int n;
    if (sl_manifest_load(path, &man, err, sizeof err) == 0) {
        sl_manifest_hold_out(&man, 0.5);
        for (int i = 0; i < man.n; i++) /* whole-file labels (=NAME) read no file */
            if (man.entries[i].labels[0] == '=' &&
                sl_manifest_entry_segments(&man.entries[i], &segs, &n, err, sizeof err) == 0)
                sl_label_segments_free(segs, n);
        sl_manifest_free(&man);
    }
    if (sl_audacity_read(path, &segs, &n, err, sizeof err) == 0)
        sl_label_segments_free(segs, n);
    if (sl_textgrid_read(path, NULL, &segs, &n, err, sizeof err) == 0)
        sl_label_segments_free(segs, n);
    if (sl_textgrid_read(path, "words", &segs, &n, err, sizeof err) == 0)
        sl_label_segments_free(segs, n);
    if (sl_rttm_read(path, "one", NULL, &segs, &n, err, sizeof err) == 0)
        sl_label_segments_free(segs, n);
    if (sl_rttm_read(path, NULL, "speech", &segs, &n, err, sizeof err) == 0)
        sl_label_segments_free(segs, n);
    if (sl_subtitles_read(path, &segs, &n, err, sizeof err) == 0)
        sl_label_segments_free(segs, n);
    if (sl_jsonl_read(path, &segs, &n, err, sizeof err) == 0)
        sl_label_segments_free(segs, n);
    if (sl_csv_read(path, &segs, &n, err, sizeof err) == 0)
        sl_label_segments_free(segs, n);
    sl_uem *uem = sl_uem_read(path, err, sizeof err);
    if (uem) { /* file "one"'s regions over 5 s of frames */
        int32_t labels[500] = {0};
        sl_uem_crop(uem, "/x/one.wav", labels, 500, 160, 16000, err, sizeof err);
        sl_uem_free(uem);
    }
    unlink(path);

    char *spec = malloc(size + 1);
    memcpy(spec, data, size);
    spec[size] = '\0';
    sl_decoder_config dc;
    sl_decoder_config_default(&dc);
    sl_decoder_parse_min_durations(&dc, default_model(), spec, err, sizeof err);
    /* the class lists of --skip/--only and the element's skip-classes */
    sl_label_writer w;
    sl_label_writer_init(&w, SL_FORMAT_AUDACITY, default_model(), NULL);
    sl_label_writer_set_skip(&w, spec, (int)(size & 1), err, sizeof err);
    int64_t origin;
    if (sl_parse_utc(spec, &origin) == 0) {
        static const float probs[SL_MAX_CLASSES];
        char line[1024];
        sl_label_writer_init(&w, SL_FORMAT_JSONL, default_model(), NULL);
        w.utc_origin_us = origin;
        w.has_utc_origin = 1;
        sl_label_format_frame(&w, line, sizeof line, (int64_t)size << 32, 0, 0.5f, probs);
    }
    free(spec);
    return 0;
}
