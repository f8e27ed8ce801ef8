/* A label file whose name differs from its audio's only in letter case or in
 * Unicode's normal form (Take1.wav beside take1.txt; café.wav as macOS writes
 * it, e + U+0301, beside café.txt). Windows and macOS, whose file systems
 * ignore both, match them; here they are two names, and a folder manifest
 * would take the audio for its folder's class alone without a word. */
#include <dirent.h>
#include <glib.h>
#include <string.h>

#include "model/label_files.h"

struct sl_label_near {
    GHashTable *folders; /* folder -> (its label files' stems, folded -> file name) */
};

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

/* The label files of a folder, by folded stem (the first of a stem kept). */
static GHashTable *label_stems(const char *folder)
{
    GHashTable *stems = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    DIR *d = opendir(folder[0] ? folder : ".");
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.' || !sl_label_name_known(e->d_name))
            continue;
        char *key = folded(e->d_name, (size_t)(sl_path_extension_at(e->d_name) - e->d_name));
        if (g_hash_table_contains(stems, key))
            g_free(key);
        else
            g_hash_table_insert(stems, key, g_strdup(e->d_name));
    }
    if (d)
        closedir(d);
    return stems;
}

sl_label_near *sl_label_near_new(void)
{
    sl_label_near *n = g_new0(sl_label_near, 1);
    n->folders = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                       (GDestroyNotify)g_hash_table_unref);
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
    GHashTable *stems = g_hash_table_lookup(n->folders, folder);
    if (!stems) {
        stems = label_stems(folder);
        g_hash_table_insert(n->folders, g_strdup(folder), stems);
    }
    char *key = folded(audio + folder_len, stem_len - folder_len);
    const char *name = g_hash_table_lookup(stems, key);
    char *path = name ? g_strconcat(folder, name, NULL) : NULL;
    g_free(key);
    g_free(folder);
    return path;
}
