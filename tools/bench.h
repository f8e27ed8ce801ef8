#ifndef SL_BENCH_H
#define SL_BENCH_H
/* argv[0] is the bench name; returns the exit code. */
int bench_features(int argc, char **argv);
int bench_encoder(int argc, char **argv);
int bench_label(int argc, char **argv);
int bench_train(int argc, char **argv);
#endif
