/* How much memory this process may still take: what the labeler, the encoder
 * and the trainer weigh a model's buffers against before they touch them. */
#ifndef SL_COMMON_MEMORY_H
#define SL_COMMON_MEMORY_H

/* Bytes: the kernel's estimate of the memory available without swapping
 * (MemAvailable: free memory and the caches it can drop), or less where a
 * control group that holds this process (a container) has less room left
 * under its limit (cgroup v2's memory.max less memory.current, v1's
 * memory.limit_in_bytes less memory.usage_in_bytes, its file pages on the
 * kernel's lists not counted as use; of its group or any above it); the
 * machine's physical memory when the kernel gives no MemAvailable. -1:
 * unknown (nothing is then refused). 0: none. */
double sl_memory_available(void);
/* The same without $SEQLABEL_MEMORY_LIMIT: what several requests together
 * are weighed against (label --jobs). */
double sl_memory_free(void);
/* $SEQLABEL_MEMORY_LIMIT, where set to a number of bytes (digits, a '.' and
 * digits or not; a suffix k, M, G or T in any case, powers of 1000, or with
 * an i after it (Gi) powers of 1024; a B after it or not, or a B alone; at
 * least 1 byte), is a cap of the user's own on each request (a labeler, an
 * encoder, a training step's activations, the rest of training's buffers),
 * not on the process: what a shared machine's user sets aside for a model. */
/* The bytes that text gives as that setting; -1: not such a number (the
 * setting is then passed over). */
double sl_memory_limit_setting(const char *text);
/* bytes as an error message shows them, in the unit that fits: "512 kB",
 * "1.74 MB", "2.35 GB" (powers of 1000); returns buf. */
#define SL_MEMORY_SHOWN 32
const char *sl_memory_shown(char buf[SL_MEMORY_SHOWN], double bytes);
/* The same in as many more digits as it takes not to read as other does,
 * up to the byte: what "needs X, more than the Y" shows, where X and Y would
 * both read "115 kB" (each of the two figures shown against the other). */
const char *sl_memory_shown_against(char buf[SL_MEMORY_SHOWN], double bytes, double other);
/* The same with /proc/meminfo, /proc/self/cgroup and /sys/fs/cgroup elsewhere
 * (tests). */
double sl_memory_available_at(const char *meminfo, const char *proc_cgroup,
                              const char *sys_cgroup);

#endif
