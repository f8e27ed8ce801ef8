/* The data size a header of fixed fields claims (io/header_claim.h): Sun/NeXT
 * AU. */
#include "io/header_claim.h"
#include "common/bytes.h"

#include <string.h>
#include <unistd.h>

/* Sun/NeXT AU (".snd", big-endian; "dns.", little-endian, as libsndfile reads
 * it): the header's data size. 0xFFFFFFFF is AU's own "unknown" (sox's, to a
 * pipe); it, 0 and sizes from 0x7FFF0000 up promise nothing. */
int sl_au_claim(int fd, sl_claim *cl)
{
    unsigned char head[12];
    if (pread(fd, head, 12, 0) != 12)
        return -1;
    const int be = !memcmp(head, ".snd", 4);
    if (!be && memcmp(head, "dns.", 4))
        return -1;
    const uint32_t offset = be ? sl_be32(head + 4) : sl_le32(head + 4);
    const uint32_t size = be ? sl_be32(head + 8) : sl_le32(head + 8);
    cl->start = offset;
    cl->bytes = size;
    return size > 0 && size < 0x7FFF0000u ? 0 : -1;
}
