#include "seqlabel.h"

#include <string.h>

void sl_feature_config_default(sl_feature_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->sample_rate = 16000;
    cfg->frame_length_ms = 25.0f;
    cfg->frame_shift_ms = 10.0f;
    cfg->num_mel_bins = 80;
    cfg->low_freq = 20.0f;
    cfg->high_freq = 0.0f;
    cfg->window = SL_WINDOW_POVEY;
    cfg->preemph = 0.97f;
    cfg->remove_dc = 1;
    cfg->energy_floor = 0.0f;
    cfg->raw_energy = 1;
    cfg->cepstral_lifter = 22.0f;
    cfg->input_scale = 32768.0f;
}
