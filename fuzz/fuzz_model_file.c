/* libFuzzer target: model files (docs/model-format.md). The trailing CRC is
 * recomputed on every input so that mutations reach the parser instead of the
 * checksum; a file the loader accepts is then run: a labeler on it labels a
 * second of fixed audio, so a header that passes validation but disagrees with
 * the tensors shows up as a memory error, not only a bad parse. */
#include <seqlabel.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static int count_frame(void *user, int64_t index, int label, float confidence,
                       const float *probs, int n_classes)
{
    (void)index, (void)label, (void)confidence, (void)probs, (void)n_classes;
    ++*(int64_t *)user;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    uint8_t *b = malloc(size);
    memcpy(b, data, size);
    uint32_t crc = (uint32_t)crc32(crc32(0, Z_NULL, 0), b, (uInt)(size - 4));
    for (int i = 0; i < 4; i++)
        b[size - 4 + i] = (uint8_t)(crc >> (8 * i));
    char err[512];
    sl_model *m = sl_model_load_memory(b, size, "fuzz.slm", err, sizeof err);
    free(b);
    if (!m)
        return 0;
    sl_labeler_config cfg;
    sl_labeler_config_default(&cfg);
    sl_labeler *l = sl_labeler_new(m, &cfg, err, sizeof err);
    if (l) {
        int rate = sl_model_feature_config(m)->sample_rate;
        size_t n = rate > 0 && rate <= 48000 ? (size_t)rate : 16000;
        float *pcm = malloc(n * sizeof *pcm);
        uint32_t x = 12345;
        for (size_t i = 0; i < n; i++) {
            x = x * 1664525u + 1013904223u;
            pcm[i] = (float)((int32_t)x) / 4294967296.0f;
        }
        int64_t frames = 0;
        sl_label_sink sink = {.user = &frames, .on_frame = count_frame};
        if (sl_labeler_push(l, pcm, n, &sink, err, sizeof err) == 0)
            sl_labeler_finish(l, &sink, err, sizeof err);
        free(pcm);
        sl_labeler_free(l);
    }
    sl_model_free(m);
    return 0;
}
