/* What an encoder and a labeler say they allocate (sl_encoder_memory_bytes,
 * sl_labeler_memory_bytes) against what the C library's allocator hands out
 * while they are made (mallinfo2: the heap's bytes in use plus the mapped
 * chunks), and a labeler bigger than the machine refused before it allocates. */
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/memory.h"
#include "seqlabel.h"

/* Each allocation may take up to a page more than asked (mapped chunks are
 * whole pages); FFTW's plan is not counted. */
#define PAGE_SLACK(n) ((size_t)(n) * 4096)

#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

/* AddressSanitizer's and valgrind's allocators replace the C library's, which
 * then counts nothing: theirs count instead (ASan's runtime's total, for which
 * Debian ships no header; valgrind's every block still allocated, reachable or
 * not, found by a leak check) */
#if defined(__SANITIZE_ADDRESS__)
size_t __sanitizer_get_current_allocated_bytes(void);
#endif
static size_t heap_bytes(void)
{
#if defined(__SANITIZE_ADDRESS__)
    return __sanitizer_get_current_allocated_bytes();
#endif
#ifdef VALGRIND_COUNT_LEAKS
    if (RUNNING_ON_VALGRIND) {
        unsigned long leaked = 0, dubious = 0, reachable = 0, suppressed = 0;
        VALGRIND_DO_QUICK_LEAK_CHECK; /* a summary in the log */
        VALGRIND_COUNT_LEAKS(leaked, dubious, reachable, suppressed);
        return leaked + dubious + reachable + suppressed;
    }
#endif
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

static sl_model *model_of(int d_model, int d_ff, int n_classes, int band, int window)
{
    sl_model_config c;
    sl_model_config_default(&c);
    sl_feature_config f;
    sl_feature_config_default(&f);
    c.n_features = sl_feature_dim(&f);
    c.d_model = d_model;
    c.n_heads = 4;
    c.n_layers = 2;
    c.d_ff = d_ff;
    c.n_classes = n_classes;
    c.band_left = c.band_right = band;
    c.max_window = c.stream_window = window;
    c.stream_left = window / 4;
    c.stream_lookahead = window / 8;
    const char *names[SL_MAX_CLASSES];
    static char text[SL_MAX_CLASSES][8];
    for (int k = 0; k < n_classes; k++) {
        snprintf(text[k], sizeof text[k], "c%d", k);
        names[k] = text[k];
    }
    char err[SL_ERR_LEN];
    sl_model *m = sl_model_create(&c, &f, NULL, NULL, names, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    sl_model_init_params(m, 1);
    return m;
}

/* Whole-window and banded attention (the packed keys and values shared only in
 * the first), with every buffer far above the slack, so that one left out of
 * the account shows. */
static void test_encoder_as_allocated(void **state)
{
    (void)state;
    const int bands[] = {-1, 16};
    for (int b = 0; b < 2; b++) {
        sl_model *m = model_of(64, 256, 64, bands[b], 2048);
        char err[SL_ERR_LEN];
        for (int T = 1000; T <= 2000; T += 1000) {
            const size_t said = sl_encoder_memory_bytes(m, T);
            const size_t before = heap_bytes();
            sl_encoder *e = sl_encoder_new(m, T, err, sizeof err);
            assert_non_null(e);
            const size_t used = heap_bytes() - before;
            print_message("band %d, window %d: said %zu bytes, allocated %zu\n", bands[b], T,
                          said, used);
            assert_true(used >= said - PAGE_SLACK(1));
            assert_true(used <= said + PAGE_SLACK(16));
            /* by hand, the activations alone: pe, x, h, ao (T x 64), qkv twice
             * (T x 192), ff (T x 256), logits (T x 64) */
            assert_true(said >= (size_t)T * 4 * (4 * 64 + 2 * 192 + 256 + 64));
            sl_encoder_free(e);
        }
        assert_int_equal(sl_encoder_memory_bytes(m, 0), 0);
        assert_int_equal(sl_encoder_memory_bytes(m, 2049), 0);
        sl_model_free(m);
    }
}

static void test_labeler_as_allocated(void **state)
{
    (void)state;
    sl_model *m = model_of(64, 256, 64, -1, 1024);
    /* FFTW keeps tables from its first plan for later ones: not the labeler's */
    sl_labeler_free(sl_labeler_new(m, NULL, NULL, 0));
    for (int threads = 1; threads <= 3; threads += 2) {
        sl_labeler_config cfg;
        sl_labeler_config_default(&cfg);
        cfg.num_threads = threads;
        char err[SL_ERR_LEN];
        const size_t before = heap_bytes();
        sl_labeler *l = sl_labeler_new(m, &cfg, err, sizeof err);
        assert_non_null(l);
        const size_t used = heap_bytes() - before, said = sl_labeler_memory_bytes(l);
        print_message("%d thread(s): said %zu bytes, allocated %zu\n", threads, said, used);
        assert_true(said >= threads * sl_encoder_memory_bytes(m, 1024));
        assert_true(used >= said - PAGE_SLACK(1));
        assert_true(used <= said + PAGE_SLACK(8));
        sl_labeler_free(l);
    }
    sl_model_free(m);
}

/* A model of a megabyte whose window asks gigabytes per thread: a labeler,
 * or an encoder, or encoder threads, beyond what the process may still take
 * are refused, saying why, before anything is allocated (else the pages
 * touched bring the OOM killer). The machine's own memory is capped here
 * with SEQLABEL_MEMORY_LIMIT, so that the same holds on any machine. */
static void test_more_than_there_is(void **state)
{
    (void)state;
    sl_model *m = model_of(8, 8192, 2, -1, 65536);
    const size_t one = sl_encoder_memory_bytes(m, 65536);
    print_message("an encoder of window 65536 with d_ff 8192: %zu bytes\n", one);
    assert_true(one > (size_t)2e9); /* T x d_ff alone: 65536 x 8192 floats */
    setenv("SEQLABEL_MEMORY_LIMIT", "4G", 1);
    assert_true(sl_memory_available() <= 4e9);
    sl_labeler_config cfg;
    sl_labeler_config_default(&cfg);
    cfg.num_threads = 2;
    char err[SL_ERR_LEN] = "";
    assert_null(sl_labeler_new(m, &cfg, err, sizeof err));
    print_message("%s\n", err);
    assert_non_null(strstr(err, "labeler: a window of 65536 frames on 2 threads needs 4."));
    assert_non_null(strstr(err, " GB, more than the 4 GB of memory it may take"));
    setenv("SEQLABEL_MEMORY_LIMIT", "1G", 1);
    assert_null(sl_encoder_new(m, 65536, err, sizeof err));
    print_message("%s\n", err);
    assert_non_null(strstr(err, "an encoder of window 65536 needs 2."));
    assert_non_null(strstr(err, " GB, more than the 1 GB of memory it may take"));
    /* threads: each more one's attention scratch (a block of queries by 4096
     * keys: 1.6 MB each), 63 more asked of a cap of 50 MB (the cap weighs each
     * request alone, as the machine's free memory does once the encoder's
     * pages are taken) */
    unsetenv("SEQLABEL_MEMORY_LIMIT");
    sl_encoder *e = sl_encoder_new(m, 4096, err, sizeof err);
    assert_non_null(e);
    setenv("SEQLABEL_MEMORY_LIMIT", "50M", 1);
    assert_int_equal(sl_encoder_set_threads(e, 64, err, sizeof err), -1);
    assert_non_null(strstr(err, "64 encoder threads need "));
    assert_int_equal(sl_encoder_threads(e), 1);
    sl_encoder_free(e);
    unsetenv("SEQLABEL_MEMORY_LIMIT");
    sl_model_free(m);
}

/* The setting's forms: bytes, or with k, M, G or T (powers of 1000), a B or
 * not; anything else is no setting (the command refuses it). */
static void test_limit_setting(void **state)
{
    (void)state;
    assert_true(sl_memory_limit_setting("4000000000") == 4e9);
    assert_true(sl_memory_limit_setting("4G") == 4e9);
    assert_true(sl_memory_limit_setting("4gb") == 4e9);
    assert_true(sl_memory_limit_setting("512M") == 512e6);
    assert_true(sl_memory_limit_setting("1.5k") == 1500);
    assert_true(sl_memory_limit_setting("2T") == 2e12);
    assert_true(sl_memory_limit_setting("4GiB") == 4.0 * 1024 * 1024 * 1024);
    assert_true(sl_memory_limit_setting("512Mi") == 512.0 * 1024 * 1024);
    assert_true(sl_memory_limit_setting("4096B") == 4096);
    const char *bad[] = {NULL, "", "G", "-1", "0", "0.5", "4x", "4 G", " 4G", "4GBs", "nan",
                         "1e9", "0x40000000", "1,5k", "4iG", "4Gi B", "4.", "4.G", "4BG"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (sl_memory_limit_setting(bad[i]) != -1)
            fail_msg("'%s' read as %g", bad[i] ? bad[i] : "(null)",
                     sl_memory_limit_setting(bad[i]));
}

/* Figures as messages show them: three digits in the unit that fits, more
 * where two compared would read alike, up to the byte. */
static void test_figures_shown(void **state)
{
    (void)state;
    char a[SL_MEMORY_SHOWN], b[SL_MEMORY_SHOWN];
    assert_string_equal(sl_memory_shown(a, 114893), "115 kB");
    assert_string_equal(sl_memory_shown(a, 2.35e9), "2.35 GB");
    assert_string_equal(sl_memory_shown(a, 999999), "1 MB"); /* not 1e+03 kB */
    assert_string_equal(sl_memory_shown_against(a, 114893, 114892), "114.893 kB");
    assert_string_equal(sl_memory_shown_against(b, 114892, 114893), "114.892 kB");
    assert_string_equal(sl_memory_shown_against(a, 200e6, 10e6), "200 MB");
    assert_string_equal(sl_memory_shown_against(b, 10e6, 200e6), "10 MB");
    /* across a unit's edge, both in the larger's unit */
    assert_string_equal(sl_memory_shown_against(a, 1000000, 999999), "1 MB");
    assert_string_equal(sl_memory_shown_against(b, 999999, 1000000), "0.999999 MB");
    assert_string_equal(sl_memory_shown_against(a, 1.5004e6, 1.5e6), "1.5004 MB");
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void write_in(const char *root, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, name);
    write_text(path, text);
}

/* The memory this process may still take: the kernel's MemAvailable, or less
 * where a control group over it (its own or one above, cgroup v1's and v2's)
 * has less room left under its limit, the file pages the kernel can drop not
 * counted as use;
 * read from copies of /proc/meminfo, /proc/self/cgroup and /sys/fs/cgroup
 * made here. */
static void test_memory_available(void **state)
{
    (void)state;
    const double machine = (double)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE);
    char root[] = "/tmp/sl-cgroup-XXXXXX", sys[256], proc[256], meminfo[256], cmd[512];
    assert_non_null(mkdtemp(root));
    snprintf(proc, sizeof proc, "%s/cgroup", root);
    snprintf(meminfo, sizeof meminfo, "%s/meminfo", root);
    snprintf(sys, sizeof sys, "%s/sys", root);
    snprintf(cmd, sizeof cmd, "mkdir -p %s/sys/memory/a/b %s/sys/c/d", root, root);
    assert_int_equal(system(cmd), 0);
    write_in(root, "meminfo", "MemTotal:       24683772 kB\nMemFree:  100 kB\n"
                              "MemAvailable:    8000000 kB\n");
    /* no limit anywhere ("max", v1's huge number): MemAvailable */
    write_text(proc, "4:memory:/a/b\n0::/c/d\n");
    write_in(root, "sys/memory/memory.limit_in_bytes", "9223372036854771712\n");
    write_in(root, "sys/memory/memory.usage_in_bytes", "873250816\n");
    write_in(root, "sys/c/d/memory.max", "max\n");
    assert_true(sl_memory_available_at(meminfo, proc, sys) == 8000000.0 * 1024);
    /* v1: 3 GB less 1 GB used of which 0.5 page cache: 2.5 GB; above it 2 GB
     * less 1.5 GB of which 1 GB page cache: 1.5 GB, the least (a limit file
     * with a space after its number too) */
    write_in(root, "sys/memory/a/b/memory.limit_in_bytes", "3000000000\n");
    write_in(root, "sys/memory/a/b/memory.usage_in_bytes", "1000000000\n");
    write_in(root, "sys/memory/a/b/memory.stat", "cache 1\ninactive_file 1\n"
                                                 "total_cache 900000000\n"
                                                 "total_shmem 400000000\n"
                                                 "total_active_file 300000000\n"
                                                 "total_inactive_file 200000000\n");
    write_in(root, "sys/memory/a/memory.limit_in_bytes", "2000000000 \n");
    write_in(root, "sys/memory/a/memory.usage_in_bytes", "1500000000\n");
    write_in(root, "sys/memory/a/memory.stat", "total_inactive_file 1000000000\n");
    assert_true(sl_memory_available_at(meminfo, proc, sys) == 1.5e9);
    /* v2, less still in the group itself (1 GB less 0.4 used, of which 0.1
     * page cache); a v1 line of other controllers */
    write_in(root, "sys/c/d/memory.max", "1000000000\n");
    write_in(root, "sys/c/d/memory.current", "400000000\n");
    write_in(root, "sys/c/d/memory.stat", "anon 300000000\nfile 100000000\nshmem 0\n"
                                          "active_file 60000000\ninactive_file 40000000\n");
    write_text(proc, "3:cpu,cpuacct:/x\n4:blkio,memory:/a/b\n0::/c/d\n");
    assert_true(sl_memory_available_at(meminfo, proc, sys) == 7e8);
    /* a group at its limit, none of it file pages the kernel can drop (tmpfs's
     * are not), leaves nothing; so does a MemAvailable of 0 */
    write_in(root, "sys/c/d/memory.current", "1100000000\n");
    write_in(root, "sys/c/d/memory.stat", "file 500000000\nshmem 500000000\n");
    assert_true(sl_memory_available_at(meminfo, proc, sys) == 0);
    write_in(root, "meminfo", "MemAvailable:          0 kB\n");
    snprintf(cmd, sizeof cmd, "%s/none", root);
    assert_true(sl_memory_available_at(meminfo, cmd, sys) == 0);
    /* none of it there: the machine's physical memory */
    assert_true(sl_memory_available_at(cmd, cmd, sys) == machine);
    assert_true(sl_memory_available() > 0 && sl_memory_available() <= machine);
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encoder_as_allocated),
        cmocka_unit_test(test_labeler_as_allocated),
        cmocka_unit_test(test_more_than_there_is),
        cmocka_unit_test(test_limit_setting),
        cmocka_unit_test(test_figures_shown),
        cmocka_unit_test(test_memory_available),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
