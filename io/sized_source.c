/* A file whose header's data size is a placeholder 0 (a recorder stopped
 * before it wrote the length), read by libsndfile through its virtual I/O:
 * every byte as on disk but the size field's, which claims the bytes there
 * (io/header_length.c, sl_header_zero_size), so the samples are those of the
 * same file with a correct header. */
#include "io/io_internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

struct sl_sized_source {
    int fd;
    sf_count_t length; /* the file's bytes */
    sf_count_t pos;
    sf_count_t at;      /* where the size field is */
    int len;            /* its bytes */
    unsigned char size[8]; /* what it says instead */
};

/* The file's bytes from pos, the size field's as it should be. */
static sf_count_t vio_read(void *ptr, sf_count_t count, void *user)
{
    sl_sized_source *s = user;
    unsigned char *out = ptr;
    sf_count_t done = 0;
    while (done < count) {
        ssize_t n = pread(s->fd, out + done, (size_t)(count - done), (off_t)(s->pos + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; /* the end, or a read error: the reader's length check reports either */
        done += n;
    }
    const sf_count_t end = s->pos + done;
    for (sf_count_t i = s->at > s->pos ? s->at : s->pos; i < s->at + s->len && i < end; i++)
        out[i - s->pos] = s->size[i - s->at];
    s->pos += done;
    return done;
}

static sf_count_t vio_seek(sf_count_t offset, int whence, void *user)
{
    sl_sized_source *s = user;
    sf_count_t target = whence == SEEK_SET ? offset : whence == SEEK_CUR ? s->pos + offset
                                                                        : s->length + offset;
    if (target < 0)
        return -1;
    return s->pos = target;
}

static sf_count_t vio_length(void *user) { return ((sl_sized_source *)user)->length; }
static sf_count_t vio_tell(void *user) { return ((sl_sized_source *)user)->pos; }

void sl_sized_source_free(sl_sized_source *s)
{
    if (!s)
        return;
    close(s->fd);
    free(s);
}

SNDFILE *sl_sized_open(int fd, const sl_size_field *field, SF_INFO *info, sl_sized_source **src)
{
    *src = NULL;
    struct stat st;
    sl_sized_source *s = calloc(1, sizeof *s);
    if (!s || fstat(fd, &st) != 0 || field->len < 1 || field->len > (int)sizeof s->size) {
        free(s);
        close(fd);
        return NULL;
    }
    *s = (sl_sized_source){.fd = fd, .length = st.st_size, .at = (sf_count_t)field->at,
                           .len = field->len};
    for (int i = 0; i < field->len; i++) /* the file's own byte order */
        s->size[field->be ? field->len - 1 - i : i] = (unsigned char)(field->bytes >> (8 * i));
    SF_VIRTUAL_IO vio = {vio_length, vio_seek, vio_read, NULL, vio_tell};
    sl_sf_failure failed;
    sl_sf_open_begin(1);
    SNDFILE *sf = sl_sf_open_end(sf_open_virtual(&vio, SFM_READ, info, s), &failed, 1);
    if (!sf) {
        sl_sized_source_free(s);
        return NULL;
    }
    *src = s;
    return sf;
}
