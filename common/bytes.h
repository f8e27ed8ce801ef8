/* Integers stored in files in a fixed byte order (model files, WAV chunks,
 * MP3 and APE tags), read from bytes whatever the host's order. Internal to
 * libseqlabel. */
#ifndef SL_COMMON_BYTES_H
#define SL_COMMON_BYTES_H

#include <stdint.h>

static inline uint16_t sl_le16(const unsigned char *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint16_t sl_be16(const unsigned char *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t sl_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint32_t sl_be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline uint64_t sl_le64(const unsigned char *p)
{
    return (uint64_t)sl_le32(p) | (uint64_t)sl_le32(p + 4) << 32;
}

static inline uint64_t sl_be64(const unsigned char *p)
{
    return (uint64_t)sl_be32(p) << 32 | (uint64_t)sl_be32(p + 4);
}

#endif
