/* What a training run writes, checked before it reads any audio: the model and
 * the checkpoint need a folder to be written in (or are a device or FIFO),
 * may not be files the user may not write, and neither may be a file the run
 * reads (its manifests, their audio and labels, the model it starts from, its
 * teachers, its noise list) or the other one. Otherwise an hour of training
 * could end in an error at the first save, or in a model written over the data. */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/label_files.h"
#include "model/trainer_internal.h"
#include "common/errors.h"
#include "common/output_file.h"

/* The folder `path` is written in exists and takes new files. */
static int check_folder(const char *what, const char *path, char *err, size_t errlen)
{
    char *copy = strdup(path);
    if (!copy)
        return sl_fail(err, errlen, "out of memory");
    const char *dir = dirname(copy);
    struct stat st;
    int rc = 0;
    if (stat(dir, &st) != 0)
        rc = sl_fail(err, errlen, "%s %s: its folder %s: %s", what, path, dir, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        rc = sl_fail(err, errlen, "%s %s: %s is not a folder", what, path, dir);
    else if (access(dir, W_OK | X_OK) != 0)
        rc = sl_fail(err, errlen, "%s %s: cannot write in its folder %s: %s", what, path, dir,
                     strerror(errno));
    free(copy);
    return rc;
}

/* `out` is none of the manifest's audio or label files. */
static int check_entries(const char *what, const char *out, const sl_manifest *man, char *err,
                         size_t errlen)
{
    for (int i = 0; man && i < man->n; i++) {
        const sl_manifest_entry *e = &man->entries[i];
        int hit = sl_same_file(out, e->audio);
        if (!hit && e->labels[0] != '=') { /* x.TextGrid#tier, x.rttm#class: the file */
            const char *selector;
            const size_t len = sl_label_path_split(e->labels, &selector);
            char *labels = selector ? strndup(e->labels, len) : NULL;
            if (selector && !labels)
                return sl_fail(err, errlen, "out of memory");
            hit = sl_same_file(out, labels ? labels : e->labels);
            free(labels);
        }
        if (hit)
            return sl_fail(err, errlen, "%s %s: is a file of %s (line %d); not writing over it",
                           what, out, man->path, e->line);
    }
    return 0;
}

/* `out` can be written as sl_model_save writes it: not a folder, nor a file
 * this user may not write; a temporary file can be made beside it, or beside
 * the file its links lead to (a device or FIFO is written in place). */
static int check_writable(const char *what, const char *out, char *err, size_t errlen)
{
    char why[SL_ERR_LEN];
    sl_output o;
    int rc = sl_output_plan(&o, out, why, sizeof why);
    if (rc)
        sl_fail(err, errlen, "%s %s", what, why);
    else if (o.tmp)
        rc = check_folder(what, o.target, err, errlen);
    sl_output_free(&o);
    return rc;
}

/* `out` is none of the noise list's files. */
static int check_noise_files(const char *what, const char *out, const char *list, char *err,
                             size_t errlen)
{
    size_t len;
    char *text = list ? sl_read_text(list, &len, NULL, 0) : NULL, *at = text;
    if (!text) /* no list, or one that cannot be read: said when it is loaded */
        return 0;
    char path[8300];
    int line_no = 0, rc = 0;
    while (rc == 0 && sl_noise_list_next(&at, list, path, sizeof path, &line_no) > 0)
        if (sl_same_file(out, path))
            rc = sl_fail(err, errlen, "%s %s: is a file of the noise list %s (line %d); not "
                         "writing over it", what, out, list, line_no);
    free(text);
    return rc;
}

static int check_output(const char *what, const char *out, const sl_train_config *c,
                        const sl_manifest *train, const sl_manifest *valid, char *err,
                        size_t errlen)
{
    if (check_writable(what, out, err, errlen))
        return -1;
    const char *inputs[4 + SL_MAX_TEACHERS] = {c->train_manifest, c->valid_manifest,
                                               c->init_path, c->noise_list};
    for (int t = 0; t < c->n_teachers; t++)
        inputs[4 + t] = c->teacher_paths[t];
    for (int k = 0; k < 4 + c->n_teachers; k++)
        if (inputs[k] && sl_same_file(out, inputs[k]))
            return sl_fail(err, errlen, "%s %s: is an input of the run (%s); not writing over it",
                           what, out, inputs[k]);
    if (access(out, F_OK) != 0) /* a file that does not exist yet is none of them */
        return 0;
    if (check_entries(what, out, train, err, errlen) ||
        check_entries(what, out, valid, err, errlen))
        return -1;
    return check_noise_files(what, out, c->noise_list, err, errlen);
}

int sl_train_check_outputs(const sl_train_config *c, const sl_manifest *train,
                           const sl_manifest *valid, char *err, size_t errlen)
{
    if (check_output("the model", c->out_path, c, train, valid, err, errlen))
        return -1;
    if (c->checkpoint_path &&
        check_output("the checkpoint", c->checkpoint_path, c, train, valid, err, errlen))
        return -1;
    if (c->checkpoint_path && sl_same_file(c->out_path, c->checkpoint_path))
        return sl_fail(err, errlen, "the model and the checkpoint are one file, %s: give each "
                       "its own", c->out_path);
    /* a run that forgot --resume would write over the one it was to continue
     * at its first checkpoint, hours of training lost unsaid */
    struct stat st;
    if (c->checkpoint_path && !c->resume && stat(c->checkpoint_path, &st) == 0 &&
        S_ISREG(st.st_mode))
        return sl_fail(err, errlen, "the checkpoint %s is there already, an earlier run's: "
                       "--resume continues that run; to start afresh, remove it or name "
                       "another", c->checkpoint_path);
    if (c->cache_dir && stat(c->cache_dir, &st) == 0 && !S_ISDIR(st.st_mode))
        return sl_fail(err, errlen, "the feature cache %s is a file, not a folder", c->cache_dir);
    return 0;
}
