/* Text built into a caller's buffer the snprintf way: what does not fit is cut
 * off, and the length the whole text needs is counted, so a caller can grow its
 * buffer and format again. Internal to libseqlabel (label formats, metrics). */
#ifndef SL_COMMON_TEXT_H
#define SL_COMMON_TEXT_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    char *buf;
    size_t len;
    size_t pos; /* length needed so far */
} sl_text;

/* Formats in the C locale, whatever the process's (an application that called
 * setlocale for de_DE would otherwise get "1,500000" in JSON and label files);
 * a text with no buffer (buf NULL) only counts. */
__attribute__((format(printf, 2, 3))) void sl_text_put(sl_text *t, const char *fmt, ...);
/* strtod and strtof in the C locale: label files, durations and times are
 * written with a '.' whatever the locale of the program reading them. */
double sl_strtod_c(const char *s, char **end);
/* Whether s is a number as a person writes one, for strtod or strtol to read:
 * no blank first (they skip it, where a blank after it is refused) and no C
 * hex float (0x10 would be sixteen seconds). */
int sl_number_as_written(const char *s);
float sl_strtof_c(const char *s, char **end);
/* A JSON string of s: quotes, backslashes and control characters escaped,
 * and any byte that is not part of valid UTF-8 (a file name's Latin-1, a name
 * cut short) as \ufffd, the replacement character, so the JSON stays valid
 * (class names are valid UTF-8 already: the model loader checks). */
void sl_text_json_string(sl_text *t, const char *s);
/* A number as JSON has it, %.9g, or null where it is not defined (JSON has
 * no NaN or Inf). */
void sl_text_json_number(sl_text *t, int defined, double v);
/* "key":%.9g, or "key":null where the figure is undefined (an F1 of nothing,
 * an error rate without a reference). */
void sl_text_json_figure(sl_text *t, const char *key, int defined, double v);
/* The same after a ',': a member that follows another. */
void sl_text_json_next_figure(sl_text *t, const char *key, int defined, double v);
/* The same figure for a text table: %.4f, or "-" (into buf; returns buf). */
const char *sl_text_figure(char *buf, size_t n, int defined, double v);
/* s in a text table's field of `width` terminal columns (into buf of n bytes;
 * returns buf): padded with spaces after it (before it when right), and cut
 * to at most max columns (max > 0) before a character that does not fit
 * whole. Columns are wcwidth's in C.UTF-8 (CJK two, combining marks none), so
 * UTF-8 class names keep the columns in line, where printf's %-16s counts bytes. */
const char *sl_text_field(char *buf, size_t n, const char *s, int width, int max, int right);
/* The length of the UTF-8 character at s (1 to 4 of the len bytes there) and
 * its code point in *cp, or 0 when s holds none: RFC 3629, so no overlong
 * forms, surrogates or code points above U+10FFFF, and no sequence cut short. */
size_t sl_utf8_char(const char *s, size_t len, uint32_t *cp);
/* Whether code point cp is whitespace where readers that split at it split
 * (Python's str.split: ASCII's, U+001C-U+001F, U+0085, U+00A0, U+2000-U+200A,
 * U+3000, ...), or the invisible U+200B and U+FEFF, which no name should hold
 * unseen. */
int sl_is_space_char(uint32_t cp);
/* Whether code point cp is one of Unicode's invisible format characters (Cf):
 * the direction marks and the embeddings, overrides and isolates, which print
 * nothing yet reorder the rest of a terminal's line, the soft hyphen, the word
 * joiner, ...; but for the zero-width joiner and non-joiner, which emoji
 * sequences and Persian or Indic words need, the tag characters of flag
 * emoji, and the format characters that print (Arabic's number signs). */
int sl_is_invisible_format(uint32_t cp);
/* Whether a terminal shows code point cp as itself: no control character
 * (C0, DEL, C1) and no invisible format one (sl_is_invisible_format). */
int sl_shows_as_itself(uint32_t cp);
/* Whether a and b are the same text: the same bytes, or the same characters
 * in two Unicode forms (an é as one code point, NFC, as Linux and Windows
 * keep text, or as e + U+0301, NFD, as macOS names files), which print alike.
 * Bytes that are no UTF-8 compare as bytes. */
int sl_text_same(const char *a, const char *b);
/* s in Unicode's NFC (composed: an é as one code point), malloc'ed; s as it
 * is where it is ASCII or no UTF-8; NULL: out of memory. How label files'
 * names are kept, so that a label written on macOS (NFD) and one written on
 * Linux are one name, their bytes too. */
char *sl_text_nfc(const char *s);
/* The index of name in names[0..n): the one of its very bytes, else one that
 * is it in another Unicode form (sl_text_same); -1 when none is. */
int sl_text_index(const char *const *names, int n, const char *name);
/* One RTTM field made of s, in dst[size]: RTTM's fields are split at
 * whitespace, so each space (sl_is_space_char), other ASCII whitespace, each
 * byte that is not part of valid UTF-8 and a '"' at its start becomes '_'; cut, if it must be, before
 * a character that does not fit whole. The writer's file ids and class names
 * and eval's lookup of an audio file's id are made by this one rule. */
void sl_rttm_field(char *dst, size_t size, const char *s);
/* s past a UTF-8 byte order mark (EF BB BF) at its start, which Windows
 * editors write before a text file's first line; else s. */
char *sl_skip_bom(char *s);
/* s trimmed of ASCII whitespace at both ends, in place (its new start): how
 * label readers take a class name from free text (TextGrid, subtitles). */
char *sl_trim_space(char *s);
/* NUL-terminates (within len) and returns the length the whole text needs, or
 * SL_TEXT_TOO_LONG when that passes INT_MAX bytes. */
int sl_text_finish(sl_text *t);
/* Text read from a file as an error shows it, into buf of SL_SHOWN_LEN bytes:
 * its first 128 bytes ("..." after them when there are more), those that are
 * no UTF-8 and every byte of a control character or an invisible format
 * character (sl_is_invisible_format) as \xNN, so a terminal escape or a
 * right-to-left override in a label file never reaches the terminal, and Windows-1252's 'caf\xe9' says
 * what is wrong where a rule alone does not. 1 when a byte was no UTF-8 (text
 * in another encoding), else 0. */
#define SL_SHOWN_LEN (4 * 128 + 8)
int sl_text_shown(char *buf, const char *s);

#endif
