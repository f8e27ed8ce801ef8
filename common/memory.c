/* How much memory this process may use (common/memory.h). */
#include "common/memory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The number in path (a limit in bytes), or -1: none (cgroup v2's "max", no
 * such file, anything else). */
static double limit_in(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[64];
    double v = -1;
    if (fgets(line, sizeof line, f)) {
        char *end;
        unsigned long long n = strtoull(line, &end, 10);
        if (end != line && (*end == '\n' || !*end))
            v = (double)n;
    }
    fclose(f);
    return v;
}

/* The lowest limit named `file` in root + group and each folder above it, up
 * to root; -1: none. (A group whose folder this namespace cannot see is
 * skipped: its limits show in the folders that are seen, the root's.) */
static double group_limit(const char *root, const char *group, const char *file)
{
    size_t n = strlen(root) + strlen(group) + strlen(file) + 3;
    char *path = malloc(n);
    if (!path)
        return -1;
    double low = -1;
    size_t root_len = strlen(root);
    snprintf(path, n, "%s%s", root, group);
    for (;;) {
        size_t len = strlen(path);
        while (len > root_len && path[len - 1] == '/')
            path[--len] = '\0';
        snprintf(path + len, n - len, "/%s", file);
        const double v = limit_in(path);
        if (v >= 0 && (low < 0 || v < low))
            low = v;
        path[len] = '\0';
        if (len <= root_len)
            break;
        char *slash = strrchr(path + root_len, '/');
        if (!slash)
            break;
        *slash = '\0';
    }
    free(path);
    return low;
}

double sl_memory_available_at(const char *proc_cgroup, const char *sys_cgroup)
{
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    double have = pages > 0 && page > 0 ? (double)pages * page : 0;
    FILE *f = fopen(proc_cgroup, "r");
    char line[4096], root[4096];
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        /* "ID:CONTROLLERS:PATH": v2's is "0::PATH", v1's memory one names it */
        char *c = strchr(line, ':'), *p = c ? strchr(c + 1, ':') : NULL;
        if (!p)
            continue;
        *p++ = '\0';
        const char *controllers = c + 1, *file = NULL;
        if (!*controllers) {
            snprintf(root, sizeof root, "%s", sys_cgroup);
            file = "memory.max";
        } else {
            for (char *tok = strtok(c + 1, ","); tok && !file; tok = strtok(NULL, ","))
                if (!strcmp(tok, "memory"))
                    file = "memory.limit_in_bytes";
            snprintf(root, sizeof root, "%s/memory", sys_cgroup);
        }
        const double v = file ? group_limit(root, p, file) : -1;
        if (v > 0 && (have <= 0 || v < have))
            have = v;
    }
    if (f)
        fclose(f);
    return have;
}

double sl_memory_available(void)
{
    return sl_memory_available_at("/proc/self/cgroup", "/sys/fs/cgroup");
}
