/* How much memory this process may use: what the labeler weighs a model's
 * buffers against before it touches them. */
#ifndef SL_COMMON_MEMORY_H
#define SL_COMMON_MEMORY_H

/* Bytes: the machine's physical memory, or less where a control group's
 * limit on this process (cgroup v2's memory.max, v1's memory.limit_in_bytes,
 * of its group or any above it) is lower: a container's. 0: unknown. */
double sl_memory_available(void);
/* The same with /proc/self/cgroup and /sys/fs/cgroup elsewhere (tests). */
double sl_memory_available_at(const char *proc_cgroup, const char *sys_cgroup);

#endif
