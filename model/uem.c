/* NIST UEM files: the regions of each file that scoring looks at, as md-eval,
 * dscore and pyannote.metrics take them, so that seqlabel eval scores a corpus
 * (DIHARD, AMI, VoxConverse) on the very time its published figures cover. A
 * line "<file-id> <channel> <onset> <offset>" is one region, in seconds; ';;'
 * begins a comment. Regions of one file may overlap (their union counts). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "seqlabel.h"
#include "common/errors.h"
#include "common/output_file.h"
#include "common/text.h"
#include "model/label_files.h"
#include "model/trainer_internal.h"

typedef struct {
    char *id;
    double onset, offset;
} uem_region;

struct sl_uem {
    char *path;
    uem_region *r; /* sorted by id */
    size_t n;
};

void sl_uem_free(sl_uem *u)
{
    if (!u)
        return;
    for (size_t i = 0; i < u->n; i++)
        free(u->r[i].id);
    free(u->r);
    free(u->path);
    free(u);
}

static int by_id(const void *a, const void *b)
{
    return strcmp(((const uem_region *)a)->id, ((const uem_region *)b)->id);
}

/* One line's fields into r; 0, 1 for a line without a region, or -1. */
static int parse_line(char *line, const char *path, int line_no, uem_region *r, char *err,
                      size_t errlen)
{
    char *f[5], *save = NULL;
    int nf = 0;
    for (char *tok = strtok_r(line, " \t", &save); tok && nf < 5;
         tok = strtok_r(NULL, " \t", &save))
        f[nf++] = tok;
    if (nf == 0 || !strncmp(f[0], ";;", 2))
        return 1;
    if (nf != 4)
        return sl_fail(err, errlen, "%s:%d: expected <file-id> <channel> <onset> <offset> (a "
                       "UEM line: four fields)", path, line_no);
    if (sl_parse_seconds(f[2], &r->onset) || sl_parse_seconds(f[3], &r->offset))
        return sl_fail_bad_time(err, errlen, path, line_no,
                                sl_parse_seconds(f[2], &r->onset) ? f[2] : f[3]);
    if (r->offset < r->onset)
        return sl_fail(err, errlen, "%s:%d: the region ends (%s) before it begins (%s)", path,
                       line_no, f[3], f[2]);
    if (!(r->id = strdup(f[0])))
        return sl_fail(err, errlen, "out of memory");
    return 0;
}

sl_uem *sl_uem_read(const char *path, char *err, size_t errlen)
{
    size_t len;
    char *text = sl_read_text(path, &len, err, errlen);
    if (!text)
        return NULL;
    sl_uem *u = calloc(1, sizeof *u);
    int rc = u && (u->path = strdup(path)) ? 0 : sl_fail(err, errlen, "out of memory");
    size_t cap = 0;
    char *p = text, *line;
    for (int line_no = 1; rc == 0 && (line = sl_next_line(&p)) != NULL; line_no++) {
        uem_region r = {0};
        int got = parse_line(line, path, line_no, &r, err, errlen);
        if (got)
            rc = got < 0 ? -1 : 0;
        else if (u->n == cap) {
            uem_region *grown = realloc(u->r, (cap = cap ? 2 * cap : 64) * sizeof *grown);
            if (grown)
                u->r = grown;
            else
                rc = sl_fail(err, errlen, "out of memory");
        }
        if (got == 0 && rc == 0)
            u->r[u->n++] = r;
        else if (got == 0)
            free(r.id);
    }
    free(text);
    if (rc == 0 && u->n == 0)
        rc = sl_fail(err, errlen, "%s: holds no region (a UEM line: <file-id> <channel> "
                     "<onset> <offset>)", path);
    if (rc) {
        sl_uem_free(u);
        return NULL;
    }
    qsort(u->r, u->n, sizeof *u->r, by_id);
    return u;
}

/* Audio's regions: the first, *first, and how many; its file id into *id
 * (malloc'ed). -1 naming the UEM file and the audio when it has none. */
static int regions_of(const sl_uem *u, const char *audio, size_t *first, size_t *count,
                      char **id, char *err, size_t errlen)
{
    if (!(*id = sl_rttm_file_id(audio)))
        return sl_fail(err, errlen, "out of memory");
    size_t lo = 0, hi = u->n; /* (sorted by id: the first of its own) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(u->r[mid].id, *id) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < u->n && !strcmp(u->r[end].id, *id))
        end++;
    *first = lo;
    *count = end - lo;
    if (*count == 0)
        return sl_fail(err, errlen, "%s: no region for %s (file id '%s': its name without "
                       "folder and extension); every scored file needs its own", u->path, audio,
                       *id);
    return 0;
}

int sl_uem_crop(const sl_uem *u, const char *audio, int32_t *labels, int64_t n, int hop,
                int rate, char *err, size_t errlen)
{
    size_t first, count;
    char *id = NULL;
    int rc = regions_of(u, audio, &first, &count, &id, err, errlen);
    free(id);
    unsigned char *in = rc == 0 ? calloc((size_t)(n ? n : 1), 1) : NULL;
    if (rc == 0 && !in)
        rc = sl_fail(err, errlen, "out of memory");
    for (size_t i = first; rc == 0 && i < first + count; i++) {
        /* a frame is in when its centre is; from a frame just before the onset */
        double from = floor(u->r[i].onset * rate / hop - 0.5) - 1.0;
        int64_t k = from > 0 ? (int64_t)(from < (double)n ? from : (double)n) : 0;
        for (; k < n; k++) {
            double t = ((double)k + 0.5) * hop / rate;
            if (t >= u->r[i].offset)
                break;
            if (u->r[i].onset <= t)
                in[k] = 1;
        }
    }
    for (int64_t k = 0; k < n && rc == 0; k++)
        if (!in[k])
            labels[k] = -1;
    free(in);
    return rc;
}

int sl_uem_for_manifest(const char *path, const sl_manifest *man, unsigned mask, int with_events,
                        sl_uem **out, char *err, size_t errlen)
{
    *out = NULL;
    if (!path)
        return 0;
    /* sed_eval's events have no scoring regions: cropped events would be new ones */
    if (with_events)
        return sl_fail(err, errlen, "%s: a UEM file's regions apply to frame figures, not to "
                       "events", path);
    sl_uem *u = sl_uem_read(path, err, errlen);
    if (!u)
        return -1;
    /* every file's regions known before any file's features are computed; two
     * audio files of one id (a/x.wav, b/x.wav) would both take its regions */
    sl_keyed_entry *ids = malloc(sizeof *ids * (size_t)(man->n ? man->n : 1));
    int n = 0, rc = ids ? 0 : sl_fail(err, errlen, "out of memory");
    for (int i = 0; i < man->n && rc == 0; i++) {
        const sl_manifest_entry *e = &man->entries[i];
        size_t first, count;
        if (!(mask & SL_SPLIT_BIT(e->split)))
            continue;
        ids[n].e = e;
        rc = regions_of(u, e->audio, &first, &count, &ids[n++].key, err, errlen);
        if (rc)
            rc = sl_blame_entry(man, e, err, errlen);
    }
    if (rc == 0 && n > 1)
        qsort(ids, (size_t)n, sizeof *ids, sl_keyed_entry_cmp);
    for (int k = 1; rc == 0 && k < n; k++)
        if (!strcmp(ids[k].key, ids[k - 1].key) && !sl_same_file(ids[k].e->audio, ids[k - 1].e->audio))
            rc = sl_fail(err, errlen, "%s: %s and %s would both take the regions of file id '%s' "
                         "(its audio's name without folder and extension): score them apart",
                         path, ids[k - 1].e->audio, ids[k].e->audio, ids[k].key);
    for (int k = 0; k < n; k++)
        free(ids[k].key);
    free(ids);
    if (rc) {
        sl_uem_free(u);
        return -1;
    }
    *out = u;
    return 0;
}
