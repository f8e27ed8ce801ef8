#ifndef SL_BENCH_H
#define SL_BENCH_H
#include <stdio.h>

/* argv[0] is the bench name; returns the exit code. */
int bench_features(int argc, char **argv);
int bench_encoder(int argc, char **argv);
int bench_label(int argc, char **argv);
int bench_train(int argc, char **argv);
/* Each benchmark's description and options, a section of `seqlabel bench --help`. */
void bench_features_help(FILE *fp);
void bench_encoder_help(FILE *fp);
void bench_label_help(FILE *fp);
void bench_train_help(FILE *fp);
#endif
