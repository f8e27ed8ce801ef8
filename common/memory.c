/* How much memory this process may still take (common/memory.h). */
#include "common/memory.h"

#include <math.h>
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
        end += strspn(end, " \t\n");
        if (end != line && !*end)
            v = (double)n;
    }
    fclose(f);
    return v;
}

/* The file pages on the kernel's lists in a memory.stat file (bytes): its
 * `<cache>active_file` and `<cache>inactive_file` (cache: "" for cgroup v2,
 * "total_" for v1), in one reading; 0 where not there. */
static double file_pages(const char *path, const char *cache)
{
    FILE *f = fopen(path, "r");
    char line[256];
    double v = 0;
    const size_t cl = strlen(cache);
    while (f && fgets(line, sizeof line, f)) {
        const char *key = strncmp(line, cache, cl) ? NULL : line + cl;
        const char *rest = !key ? NULL
            : !strncmp(key, "active_file ", 12) ? key + 12
            : !strncmp(key, "inactive_file ", 14) ? key + 14 : NULL;
        if (rest)
            v += strtod(rest, NULL);
    }
    if (f)
        fclose(f);
    return v;
}

/* The least room left under a limit in root + group and each folder above
 * it, up to root: the limit in file `limit` less the use in file `used`, of
 * which the file pages on the kernel's active and inactive lists
 * (memory.stat's `<cache>active_file` and `<cache>inactive_file`) do not
 * count, as the kernel drops them before it fails an allocation (tmpfs's
 * pages do: only swap frees them); -1: no limit. (A group whose folder this
 * namespace cannot see is skipped: its limits show in the folders that are
 * seen, the root's.) */
static double group_room(const char *root, const char *group, const char *limit,
                         const char *used, const char *cache)
{
    size_t n = strlen(root) + strlen(group) + 64;
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
        snprintf(path + len, n - len, "/%s", limit);
        double v = limit_in(path);
        if (v >= 0) {
            snprintf(path + len, n - len, "/%s", used);
            double u = limit_in(path);
            snprintf(path + len, n - len, "/memory.stat");
            /* the file pages on the kernel's lists, not tmpfs's (shmem,
             * which only swap would free) */
            if (u >= 0)
                u -= file_pages(path, cache);
            v = u <= 0 ? v : u < v ? v - u : 0;
            if (low < 0 || v < low)
                low = v;
        }
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

/* MemAvailable in /proc/meminfo, in bytes; -1: not there. */
static double mem_available(const char *meminfo)
{
    FILE *f = fopen(meminfo, "r");
    char line[256];
    double v = -1;
    unsigned long long kb;
    while (f && v < 0 && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            v = (double)kb * 1024;
    if (f)
        fclose(f);
    return v;
}

double sl_memory_available_at(const char *meminfo, const char *proc_cgroup,
                              const char *sys_cgroup)
{
    double have = mem_available(meminfo);
    if (have < 0) {
        const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        have = pages > 0 && page > 0 ? (double)pages * page : -1;
    }
    FILE *f = fopen(proc_cgroup, "r");
    char line[4096], root[4096];
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        /* "ID:CONTROLLERS:PATH": v2's is "0::PATH", v1's memory one names it */
        char *c = strchr(line, ':'), *p = c ? strchr(c + 1, ':') : NULL;
        if (!p)
            continue;
        *p++ = '\0';
        const char *controllers = c + 1, *limit = NULL, *used = NULL, *cache = NULL;
        if (!*controllers) {
            snprintf(root, sizeof root, "%s", sys_cgroup);
            limit = "memory.max";
            used = "memory.current";
            cache = ""; /* active_file, inactive_file */
        } else {
            char *save = NULL; /* strtok_r: the caller's strtok, and other threads', untouched */
            for (char *tok = strtok_r(c + 1, ",", &save); tok && !limit;
                 tok = strtok_r(NULL, ",", &save))
                if (!strcmp(tok, "memory")) {
                    limit = "memory.limit_in_bytes";
                    used = "memory.usage_in_bytes";
                    cache = "total_"; /* total_active_file, ... */
                }
            snprintf(root, sizeof root, "%s/memory", sys_cgroup);
        }
        const double v = limit ? group_room(root, p, limit, used, cache) : -1;
        if (v >= 0 && (have < 0 || v < have))
            have = v;
    }
    if (f)
        fclose(f);
    return have;
}

double sl_memory_limit_setting(const char *text)
{
    /* by hand, not strtod: no locale's decimal comma, no 0x or exponent */
    const char *p = text;
    if (!p || *p < '0' || *p > '9')
        return -1;
    double v = 0, scale = 1;
    for (; *p >= '0' && *p <= '9'; p++)
        v = v * 10 + (*p - '0');
    if (*p == '.') {
        if (p[1] < '0' || p[1] > '9')
            return -1; /* "4." */
        for (p++; *p >= '0' && *p <= '9'; p++)
            v += (*p - '0') * (scale /= 10);
    }
    const char *units = "kKmMgGtT", *u = *p ? strchr(units, *p) : NULL;
    if (u) {
        const int power = (int)(u - units) / 2 + 1;
        const int binary = p[1] == 'i'; /* 4Gi, 4GiB: powers of 1024 */
        v *= pow(binary ? 1024.0 : 1000.0, power);
        p += 1 + binary;
        p += *p == 'B' || *p == 'b'; /* 4GB as 4G */
    } else if (*p == 'B' && !p[1]) {
        p++; /* 4096B */
    }
    return *p || !(v >= 1) || !isfinite(v) ? -1 : v;
}

/* The unit bytes reads in under 999.5 of (so three digits never round up
 * to an exponent, "1e+03 kB"): kB, MB, GB or TB. */
static double unit_of(double bytes, const char **unit)
{
    static const char *const units[] = {"kB", "MB", "GB", "TB"};
    double scale = 1e3;
    int k = 0;
    while (k < 3 && bytes >= 999.5 * scale) {
        scale *= 1e3;
        k++;
    }
    *unit = units[k];
    return scale;
}

const char *sl_memory_shown(char buf[SL_MEMORY_SHOWN], double bytes)
{
    if (!(bytes >= 0) || isinf(bytes)) { /* (no figure a request has) */
        snprintf(buf, SL_MEMORY_SHOWN, "%g bytes", bytes);
        return buf;
    }
    const char *unit;
    const double scale = unit_of(bytes, &unit);
    snprintf(buf, SL_MEMORY_SHOWN, "%.3g %s", bytes / scale, unit);
    return buf;
}

const char *sl_memory_shown_against(char buf[SL_MEMORY_SHOWN], double bytes, double other)
{
    if (!(bytes >= 0 && other >= 0) || isinf(bytes) || isinf(other))
        return sl_memory_shown(buf, bytes);
    /* both in the larger's unit, with as many decimals as it takes for the
     * two to read apart (down to the byte) */
    const char *unit;
    const double scale = unit_of(bytes > other ? bytes : other, &unit);
    const double top = (bytes > other ? bytes : other) / scale;
    char theirs[SL_MEMORY_SHOWN];
    int decimals = top >= 100 ? 0 : top >= 10 ? 1 : 2;
    for (;; decimals++) {
        snprintf(buf, SL_MEMORY_SHOWN, "%.*f", decimals, bytes / scale);
        snprintf(theirs, SL_MEMORY_SHOWN, "%.*f", decimals, other / scale);
        if (strcmp(buf, theirs) || decimals >= 12)
            break;
    }
    /* no zeros after the last digit that counts ("4 GB", not "4.00 GB") */
    size_t n = strlen(buf);
    while (strchr(buf, '.') && (buf[n - 1] == '0' || buf[n - 1] == '.'))
        buf[--n] = '\0';
    snprintf(buf + n, SL_MEMORY_SHOWN - n, " %s", unit);
    return buf;
}

double sl_memory_free(void)
{
    return sl_memory_available_at("/proc/meminfo", "/proc/self/cgroup", "/sys/fs/cgroup");
}

double sl_memory_available(void)
{
    double have = sl_memory_free();
    /* a cap on each request, not on the process: one weighed again later (a
     * validation's encoder) is weighed the same, whatever the heap kept */
    const double cap = sl_memory_limit_setting(getenv("SEQLABEL_MEMORY_LIMIT"));
    return cap > 0 && (have < 0 || cap < have) ? cap : have;
}
