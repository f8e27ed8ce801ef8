/* The inputs of `seqlabel label`: files, standard input, and folders standing
 * for every audio file below them. */
#ifndef SL_INPUT_TREE_H
#define SL_INPUT_TREE_H

#include <stddef.h>

typedef struct {
    char *path; /* what is read ("-": standard input) */
    /* The output's name in an output folder, without extension: "x" for a file
     * x.wav given by itself ("stdin" for '-'), "spk1/001" for DIR/spk1/001.wav
     * found below a folder DIR given as input, so the outputs mirror the tree. */
    char *name;
} cli_input;

/* The inputs args stand for, in order; a folder's audio files (by extension:
 * sl_audio_name_known; with `raw`, for --raw-format, its .raw and .pcm files)
 * sorted by path, hidden files and folders left out, links to files followed
 * and links to folders not (as find(1) does), and the files of the output
 * folders named in `outputs` (n_outputs of them, NULL where none is given:
 * -o, --cut, --split; those
 * below a folder given, so that a rerun does not label its own outputs). 0 with
 * *inputs (free with cli_inputs_free) and *n set; 1 the same, where a part of
 * a folder could not be read, or a folder held no audio file (said: the rest
 * is labelled, as past a file that cannot be read); or -1 (said: out of
 * memory). */
int cli_inputs_expand(char *const *args, int n_args, int raw, const char *const *outputs,
                      int n_outputs, cli_input **inputs, int *n);
void cli_inputs_free(cli_input *inputs, int n);

/* Creates the folder dir and the folders above it that do not exist yet
 * (mkdir -p). 0, or -1 (said; also when dir is a file). */
int cli_make_dir(const char *dir);

/* Creates the folders of name (all but its last part) below the existing
 * folder dir, those that do not exist yet: "spk1/001" makes dir/spk1. 0, or
 * -1 (said). */
int cli_make_dirs_below(const char *dir, const char *name);

#endif
