/* Models shared by the seqlabel elements of a process: every element that
 * names the same file uses one loaded copy (the weights are only read while
 * labelling), so a server with a stream per call holds the model once. The
 * file is known by its identity (device and inode), not by how its path is
 * spelt: `m.slm`, `./m.slm`, `dir/../m.slm` and a symlink to it are one file.
 * A file replaced on disk is loaded anew for the elements that start after
 * it; those running keep theirs. Replaced: another inode, size, modification
 * or status change time. The last is the kernel's own, which no copy sets:
 * a file of the same size and modification time (cp -p, tar, rsync -t) that
 * takes a deleted one's inode, or is written over it in place, has another. */
#include "gstseqlabel.h"

#include <sys/stat.h>

typedef struct {
  struct stat st;               /* the file as it was loaded: its identity */
  sl_model *model;
  guint refs;
} SharedModel;

static GMutex models_lock;
static GList *models;           /* of SharedModel */

static gboolean
same_file (const struct stat *a, const struct stat *b)
{
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size
      && a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec
      && a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

const sl_model *
gst_seqlabel_model_get (const gchar * path, char *err, size_t errlen)
{
  struct stat st;
  SharedModel *s = NULL;
  sl_model *m;

  if (stat (path, &st) != 0) {
    /* the loader says why, in its words */
    sl_model_free (sl_model_load (path, err, errlen));
    return NULL;
  }
  g_mutex_lock (&models_lock);
  for (GList * l = models; l != NULL; l = l->next) {
    SharedModel *c = l->data;
    /* the same file by any path (the spelling is no part of the key) */
    if (same_file (&c->st, &st)) {
      s = c;
      break;
    }
  }
  if (s == NULL && (m = sl_model_load (path, err, errlen)) != NULL) {
    s = g_new0 (SharedModel, 1);
    s->st = st;
    s->model = m;
    models = g_list_prepend (models, s);
  }
  if (s != NULL)
    s->refs++;
  g_mutex_unlock (&models_lock);
  return s ? s->model : NULL;
}

void
gst_seqlabel_model_release (const sl_model * model)
{
  if (model == NULL)
    return;
  g_mutex_lock (&models_lock);
  for (GList * l = models; l != NULL; l = l->next) {
    SharedModel *s = l->data;
    if (s->model == model) {
      if (--s->refs == 0) {
        models = g_list_delete_link (models, l);
        sl_model_free (s->model);
        g_free (s);
      }
      break;
    }
  }
  g_mutex_unlock (&models_lock);
}
