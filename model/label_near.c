/* A label file whose name differs from its audio's only in letter case or in
 * Unicode's normal form (Take1.wav beside take1.txt; café.wav as macOS writes
 * it, e + U+0301, beside café.txt). Windows and macOS, whose file systems
 * ignore both, match them; here they are two names, and a folder manifest
 * would take the audio for its folder's class alone without a word. */
#include <dirent.h>
#include <glib.h>
#include <string.h>
#include <sys/stat.h>

#include "seqlabel.h"
#include "model/label_files.h"

struct sl_label_near {
    GHashTable *folders; /* folder -> its label files */
};

/* A folder's label files (regular files: a link to nothing, or a folder named
 * x.txt, is none) by folded stem, the first of a stem kept; and its audio
 * files' stems as written, whose own label file (take1.txt of take1.wav
 * beside Take1.wav) is theirs, not another's of another case. */
typedef struct {
    GHashTable *labels; /* folded stem -> file name */
    GHashTable *audio;  /* stem -> itself */
} folder_names;

static void folder_names_free(folder_names *f)
{
    g_hash_table_unref(f->labels);
    g_hash_table_unref(f->audio);
    g_free(f);
}

/* A name as both systems compare it: NFC, case folded (malloc'ed by glib). */
static char *folded(const char *s, size_t n)
{
    char *nfc = g_utf8_normalize(s, (gssize)n, G_NORMALIZE_NFC);
    if (!nfc) /* not UTF-8: its bytes, ASCII letters in lower case */
        return g_ascii_strdown(s, (gssize)n);
    char *f = g_utf8_casefold(nfc, -1);
    g_free(nfc);
    return f;
}

static folder_names *read_folder(const char *folder)
{
    folder_names *f = g_new0(folder_names, 1);
    f->labels = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    f->audio = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    DIR *d = opendir(folder[0] ? folder : ".");
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        const size_t stem = (size_t)(sl_path_extension_at(e->d_name) - e->d_name);
        if (e->d_name[0] == '.')
            continue;
        if (sl_audio_name_known(e->d_name)) {
            g_hash_table_add(f->audio, g_strndup(e->d_name, stem));
            continue;
        }
        char *path = g_strconcat(folder, e->d_name, NULL);
        struct stat st;
        const int file = stat(path, &st) == 0 && S_ISREG(st.st_mode);
        g_free(path);
        if (!file || !sl_label_name_known(e->d_name))
            continue;
        char *key = folded(e->d_name, stem);
        if (g_hash_table_contains(f->labels, key))
            g_free(key);
        else
            g_hash_table_insert(f->labels, key, g_strdup(e->d_name));
    }
    if (d)
        closedir(d);
    return f;
}

sl_label_near *sl_label_near_new(void)
{
    sl_label_near *n = g_new0(sl_label_near, 1);
    n->folders = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                       (GDestroyNotify)folder_names_free);
    return n;
}

void sl_label_near_free(sl_label_near *n)
{
    if (!n)
        return;
    g_hash_table_unref(n->folders);
    g_free(n);
}

char *sl_label_near_of(sl_label_near *n, const char *audio, size_t stem_len)
{
    const char *slash = memrchr(audio, '/', stem_len);
    const size_t folder_len = slash ? (size_t)(slash - audio) + 1 : 0;
    char *folder = g_strndup(audio, folder_len);
    folder_names *f = g_hash_table_lookup(n->folders, folder);
    if (!f) {
        f = read_folder(folder);
        g_hash_table_insert(n->folders, g_strdup(folder), f);
    }
    char *key = folded(audio + folder_len, stem_len - folder_len);
    const char *name = g_hash_table_lookup(f->labels, key);
    char *stem = name ? g_strndup(name, (size_t)(sl_path_extension_at(name) - name)) : NULL;
    /* the label file of another audio file, whose name it is */
    char *path = name && !g_hash_table_contains(f->audio, stem) ? g_strconcat(folder, name, NULL)
                                                                : NULL;
    g_free(stem);
    g_free(key);
    g_free(folder);
    return path;
}
