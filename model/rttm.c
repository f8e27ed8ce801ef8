/* RTTM files as training labels: the speaker turns of diarization and speech
 * activity corpora (NIST's Rich Transcription Time Marked format, as pyannote,
 * DIHARD, VoxConverse and AMI give them, and as `seqlabel label --format rttm`
 * writes them). A line "SPEAKER <file> <channel> <start> <duration> <NA> <NA>
 * <name> <NA> <NA>" is a segment of class <name>, or of one class for every
 * turn (x.rttm#speech), which is what a voice activity labeler learns from. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seqlabel.h"
#include "common/errors.h"
#include "model/label_files.h"
#include "common/text.h"

/* The digits after the point of a plain decimal ("1.235": 3), or -1 for any
 * other form (an exponent). */
static int decimals(const char *s)
{
    const char *dot = strchr(s, '.');
    if (strspn(s, "0123456789.") != strlen(s))
        return -1;
    return dot ? (int)strlen(dot + 1) : 0;
}

/* A turn's end, start + duration, as the decimal they add up to: 0.085 + 0.070
 * in binary is 0.15500000000000003, past the centre 0.155 of a frame that the
 * same turn written as "0.085 0.155" (an Audacity file, a TextGrid) ends
 * before. With d decimals the sum is a whole number of 10^-d, and that number
 * over 10^d rounds to the double nearest the decimal, as strtod reads it. */
static double turn_end(const char *start_text, double start, const char *dur_text, double dur)
{
    int da = decimals(start_text), db = decimals(dur_text), d = da > db ? da : db;
    double sum = start + dur;
    if (da < 0 || db < 0 || d > 9 || sum >= 1e6)
        return sum;
    double scale = pow(10.0, d);
    return nearbyint(sum * scale) / scale;
}

/* The channels an RTTM file names, each once, in the order first seen. */
typedef struct {
    char **name;
    int n;
} channels;

/* The index of channel c in ch, added if new; -1: out of memory. */
static int channel_index(channels *ch, const char *c)
{
    for (int i = 0; i < ch->n; i++)
        if (!strcmp(ch->name[i], c))
            return i;
    char **grown = realloc(ch->name, sizeof *grown * (size_t)(ch->n + 1));
    if (!grown)
        return -1;
    ch->name = grown;
    return (ch->name[ch->n] = strdup(c)) ? ch->n++ : -1;
}

static void channels_free(channels *ch)
{
    for (int i = 0; i < ch->n; i++)
        free(ch->name[i]);
    free(ch->name);
}

/* Every SPEAKER line of `path` as a segment, unsorted; mine[i]: whether turn i
 * is file_id's; chan[i]: its channel's index in ch. *many: whether the file
 * names more than one file. */
static int read_turns(const char *path, const char *file_id, const char *as_class,
                      sl_label_segment **segs, int *n, unsigned char **mine, int **chan,
                      channels *ch, int *many, char *err, size_t errlen)
{
    /* the whole text, as the other label readers read it (BOM, CR-only lines) */
    size_t len;
    char *text = sl_read_text(path, &len, err, errlen);
    if (!text)
        return -1;
    char first_id[256] = "", *p = text, *line;
    int line_no = 0, cap = 0, rc = 0;
    while (rc == 0 && (line = sl_next_line(&p)) != NULL) {
        line_no++;
        char *f[10], *save = NULL;
        int nf = 0;
        for (char *tok = strtok_r(line, " \t\r\n", &save);
             tok && nf < 10;
             tok = strtok_r(NULL, " \t\r\n", &save))
            f[nf++] = tok;
        if (nf == 0 || !strncmp(f[0], ";;", 2) || strcmp(f[0], "SPEAKER"))
            continue; /* blank, a comment, or another kind of line (SPKR-INFO, ...) */
        if (nf < 8) {
            rc = sl_fail(err, errlen, "%s:%d: expected SPEAKER <file> <channel> <start> "
                         "<duration> <NA> <NA> <name> ...", path, line_no);
            break;
        }
        if (!*first_id)
            snprintf(first_id, sizeof first_id, "%s", f[1]);
        else if (strcmp(first_id, f[1]))
            *many = 1;
        double start, dur;
        if (sl_parse_seconds(f[3], &start) || sl_parse_seconds(f[4], &dur)) {
            rc = sl_fail_bad_time(err, errlen, path, line_no,
                                  sl_parse_seconds(f[3], &start) ? f[3] : f[4]);
            break;
        }
        const char *name = as_class ? as_class : f[7];
        if (sl_label_name_unfit(path, line_no, name, err, errlen)) {
            rc = -1;
            break;
        }
        unsigned char *m = realloc(*mine, (size_t)*n + 1);
        if (m)
            *mine = m;
        int *c = realloc(*chan, sizeof *c * ((size_t)*n + 1));
        if (c)
            *chan = c;
        const int ci = m && c ? channel_index(ch, f[2]) : -1;
        if (ci < 0 || sl_segments_push(segs, n, &cap, start, turn_end(f[3], start, f[4], dur),
                                       name, line_no)) {
            rc = sl_fail(err, errlen, "%s: out of memory", path);
            break;
        }
        m[*n - 1] = !file_id || sl_text_same(f[1], file_id); /* (NFD: a macOS file's) */
        c[*n - 1] = ci;
    }
    free(text);
    return rc;
}

int sl_rttm_read(const char *path, const char *file_id, const char *as_class,
                 sl_label_segment **segs, int *n, char *err, size_t errlen)
{
    return sl_rttm_read_ex(path, file_id, as_class, 0, segs, n, err, errlen);
}

int sl_rttm_read_ex(const char *path, const char *file_id, const char *as_class, int by_id,
                    sl_label_segment **segs, int *n, char *err, size_t errlen)
{
    *segs = NULL;
    *n = 0;
    unsigned char *mine = NULL;
    int *chan = NULL, many = 0;
    channels ch = {NULL, 0};
    int rc = read_turns(path, file_id, as_class, segs, n, &mine, &chan, &ch, &many, err, errlen);
    /* the audio's turns; one file's turns under another id (a renamed
     * recording) are its too, unless lines go by id alone */
    int kept = 0;
    for (int i = 0; i < *n; i++)
        kept += mine[i];
    if (rc == 0 && kept == 0 && *n > 0 && many && !by_id)
        rc = sl_fail(err, errlen, "%s: no SPEAKER line of file '%s' among the files it holds",
                     path, file_id);
    /* labels are one channel's: turns of a file's two channels (a call, one
     * speaker a side) would be scored as one sequence, the second's speech
     * where the first is silent */
    const int all = kept == 0 && !by_id;
    for (int i = 0, first = -1; rc == 0 && i < *n; i++) {
        if (!all && !mine[i])
            continue;
        if (first < 0)
            first = i;
        else if (chan[i] != chan[first])
            rc = sl_fail(err, errlen, "%s:%d: channel %s, where line %d of the same file is "
                         "channel %s: a file's labels are one channel's; keep one channel's lines "
                         "(seqlabel label --channel N writes channel N's)", path, (*segs)[i].line,
                         ch.name[chan[i]], (*segs)[first].line, ch.name[chan[first]]);
    }
    free(chan);
    channels_free(&ch);
    if (rc == 0 && kept < *n && (kept > 0 || by_id)) {
        int out = 0;
        for (int i = 0; i < *n; i++) {
            if (mine[i])
                (*segs)[out++] = (*segs)[i];
            else
                free((*segs)[i].name);
        }
        *n = out;
    }
    free(mine);
    if (rc == 0 && *n > 1)
        qsort(*segs, (size_t)*n, sizeof **segs, sl_segment_cmp);
    /* turns of one class that overlap or touch are one segment (two people
     * talking at once is speech); turns of two classes may not overlap. Ends
     * are start + duration, so turns that touch may miss by a rounding: a
     * microsecond is no overlap. */
    const double eps = 1e-6;
    int out = 0, i = 0;
    for (; rc == 0 && i < *n; i++) {
        sl_label_segment *s = &(*segs)[i], *last = out ? &(*segs)[out - 1] : NULL;
        if (last && s->start < last->end - eps && strcmp(s->name, last->name)) {
            char a[SL_SHOWN_LEN], b[SL_SHOWN_LEN];
            sl_text_shown(a, s->name);
            sl_text_shown(b, last->name);
            rc = sl_fail(err, errlen, "%s:%d: '%s' (%.12g-%.12g s) overlaps '%s' of line %d; "
                         "for speech activity name one class for all: %s#speech", path,
                         s->line, a, s->start, s->end, b, last->line, path);
            break;
        }
        if (last && s->start <= last->end + eps && !strcmp(s->name, last->name)) {
            if (s->end > last->end)
                last->end = s->end;
            free(s->name);
        } else {
            if (last && s->start < last->end)
                last->end = s->start; /* touching, but for the rounding */
            (*segs)[out++] = *s;
        }
    }
    if (rc) { /* the names still owned: the kept ones, and those not reached */
        for (int k = 0; k < out; k++)
            free((*segs)[k].name);
        for (int k = i; k < *n; k++)
            free((*segs)[k].name);
        free(*segs);
        *segs = NULL;
        *n = 0;
        return -1;
    }
    *n = out;
    return 0;
}
