/* Label formats against hand-written expected text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "seqlabel.h"

static void writer(sl_label_writer *w, sl_label_format f)
{
    memset(w, 0, sizeof *w);
    w->format = f;
    w->skip_label = -1;
    w->sample_rate = 16000;
    w->hop = 160;
    w->n_classes = 3;
    w->class_names[0] = "silence";
    w->class_names[1] = "speech";
    w->class_names[2] = "say \"hi\"\\";
    strcpy(w->file_id, "my_file");
}

static const float probs[3] = {0.125f, 0.75f, 0.125f};

static void test_parse(void **state)
{
    (void)state;
    sl_label_format f;
    assert_int_equal(sl_label_format_parse("audacity", &f), 0);
    assert_int_equal(f, SL_FORMAT_AUDACITY);
    assert_int_equal(sl_label_format_parse("rttm", &f), 0);
    assert_int_equal(f, SL_FORMAT_RTTM);
    assert_int_equal(sl_label_format_parse("frames", &f), 0);
    assert_int_equal(f, SL_FORMAT_FRAMES);
    assert_int_equal(sl_label_format_parse("jsonl", &f), 0);
    assert_int_equal(f, SL_FORMAT_JSONL);
    assert_int_equal(sl_label_format_parse("csv", &f), -1);
    assert_string_equal(sl_label_format_name(SL_FORMAT_JSONL), "jsonl");
}

static void test_audacity(void **state)
{
    (void)state;
    sl_label_writer w;
    writer(&w, SL_FORMAT_AUDACITY);
    char buf[256];
    assert_int_equal(sl_label_format_header(&w, buf, sizeof buf), 0);
    assert_int_equal(sl_label_format_frame(&w, buf, sizeof buf, 5, 1, 0.75f, probs), 0);
    assert_false(sl_label_format_is_per_frame(&w));
    int n = sl_label_format_segment(&w, buf, sizeof buf, 12, 150, 1, 0.5f);
    assert_string_equal(buf, "0.120000\t1.500000\tspeech\n");
    assert_int_equal(n, (int)strlen(buf));
    w.skip_label = 1;
    assert_int_equal(sl_label_format_segment(&w, buf, sizeof buf, 12, 150, 1, 0.5f), 0);
    /* Truncation follows snprintf: the needed length comes back. */
    w.skip_label = -1;
    char small[8];
    assert_int_equal(sl_label_format_segment(&w, small, sizeof small, 12, 150, 1, 0.5f), 25);
    assert_string_equal(small, "0.12000");
    assert_int_equal(sl_label_format_segment(&w, buf, sizeof buf, 12, 150, 3, 0.5f), -1);
}

static void test_frames(void **state)
{
    (void)state;
    sl_label_writer w;
    writer(&w, SL_FORMAT_FRAMES);
    char buf[256];
    sl_label_format_header(&w, buf, sizeof buf);
    assert_string_equal(buf, "frame\ttime\tlabel\tconfidence\tsilence\tspeech\tsay \"hi\"\\\n");
    assert_true(sl_label_format_is_per_frame(&w));
    sl_label_format_frame(&w, buf, sizeof buf, 7, 1, 0.75f, probs);
    assert_string_equal(buf, "7\t0.070000\tspeech\t0.75\t0.125\t0.75\t0.125\n");
    /* Full precision: 0.1f prints as the float it is. */
    const float p2[3] = {0.1f, 0.2f, 0.7f};
    sl_label_format_frame(&w, buf, sizeof buf, 100, 2, 0.7f, p2);
    assert_string_equal(buf, "100\t1.000000\tsay \"hi\"\\\t0.699999988\t0.100000001\t0.200000003\t0.699999988\n");
    assert_int_equal(sl_label_format_segment(&w, buf, sizeof buf, 0, 10, 0, 0.5f), 0);
}

static void test_jsonl(void **state)
{
    (void)state;
    sl_label_writer w;
    writer(&w, SL_FORMAT_JSONL);
    char buf[256];
    assert_int_equal(sl_label_format_header(&w, buf, sizeof buf), 0);
    sl_label_format_frame(&w, buf, sizeof buf, 7, 2, 0.125f, probs);
    assert_string_equal(buf, "{\"frame\":7,\"time\":0.070000,\"label\":\"say \\\"hi\\\"\\\\\","
                             "\"confidence\":0.125,\"probs\":{\"silence\":0.125,\"speech\":0.75,"
                             "\"say \\\"hi\\\"\\\\\":0.125}}\n");
    w.jsonl_segments = 1;
    assert_int_equal(sl_label_format_frame(&w, buf, sizeof buf, 7, 2, 0.125f, probs), 0);
    sl_label_format_segment(&w, buf, sizeof buf, 12, 150, 0, 0.5f);
    assert_string_equal(buf, "{\"start\":0.120000,\"end\":1.500000,\"label\":\"silence\","
                             "\"confidence\":0.5,\"start_frame\":12,\"end_frame\":150}\n");
}

static void test_rttm(void **state)
{
    (void)state;
    sl_label_writer w;
    writer(&w, SL_FORMAT_RTTM);
    char buf[256];
    sl_label_format_segment(&w, buf, sizeof buf, 12, 150, 1, 0.5f);
    assert_string_equal(buf, "SPEAKER my_file 1 0.120000 1.380000 <NA> <NA> speech <NA> <NA>\n");
    assert_int_equal(sl_label_format_frame(&w, buf, sizeof buf, 5, 1, 0.75f, probs), 0);
    sl_label_format_segment(&w, buf, sizeof buf, 0, 1, 2, 0.5f);
    assert_string_equal(buf, "SPEAKER my_file 1 0.000000 0.010000 <NA> <NA> say_\"hi\"\\ <NA> <NA>\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),   cmocka_unit_test(test_audacity),
        cmocka_unit_test(test_frames),  cmocka_unit_test(test_jsonl),
        cmocka_unit_test(test_rttm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
