#!/bin/sh
# Run by `meson install` (meson.build): refreshes the dynamic linker's cache
# after an install as root onto this system, so that programs linked against
# libseqlabel find it in /usr/local or another prefix ld.so.conf lists. Nothing
# to do for a staging install (DESTDIR) or as another user.
[ -z "${DESTDIR:-}" ] || exit 0
[ "$(id -u)" = 0 ] || exit 0
for ldconfig in /sbin/ldconfig /usr/sbin/ldconfig; do
    [ -x "$ldconfig" ] && exec "$ldconfig"
done
exit 0
