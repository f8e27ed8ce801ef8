#!/usr/bin/python3
"""Extract the recorded speech of Beneath a Steel Sky (CD, v0.0372) as mono 16-bit WAV files.

Usage: tools/corpus/sky_speech.py PKGDIR OUTDIR

PKGDIR is the unpacked Debian package `beneath-a-steel-sky` (as `dpkg -x` leaves it, e.g.
/work/cache/seqlabel/pkgs/beneath-a-steel-sky); sky.dnr and sky.dsk are looked up under it.
Writes OUTDIR/<group>/<fileno>.wav (11025 Hz, mono, 16 bit) and OUTDIR/index.tsv
(path relative to OUTDIR, file number, group, duration in seconds). Existing WAV files are
kept (idempotent); index.tsv is rewritten each run. Data preparation only: the product never
uses this script.

The format, as learnt from reading ScummVM's "sky" engine (engines/sky/disk.cpp, sound.cpp,
intro.cpp, struc.h, rnc_deco.cpp); this is an independent implementation:

* sky.dnr: uint32 LE entry count, then 8-byte entries: uint16 LE file number, 24-bit LE
  offset field (bit 23: offset is stored divided by 16; bits 0-22: offset), 24-bit LE flags
  field (bits 0-21: stored size; bit 22: the compressed stream also holds the 22-byte header;
  bit 23: stored uncompressed).
* Every file starts with a 22-byte header of eleven uint16 LE words; word 0 bit 7 marks RNC
  compression, word 6 holds the low 16 bits of the unpacked total size (header included) and
  the high byte of word 0 its bits 16-23.  When compressed, an "RNC\\x01" (ProPack method 1)
  stream follows the header.
* In-game speech: file 50000 + a per-section base (0, 600, 1100, 2430, 3380, 4530, 5080 for
  sections 0..6) + line number.  The CD intro's voice-over lines are files in 59500..59672
  (the CDV_nn files of intro.cpp; the other files there are pictures and palettes, and
  59494..59499 are background sound effects).  Samples follow the 22-byte header: 8-bit
  unsigned PCM, 11025 Hz, mono.
"""
import os
import struct
import sys
import wave

import numpy as np

RATE = 11025
HDR = 22                       # DataFileHeader: 11 x uint16
SPEECH_BASE = 50000
SECTION_BASE = (0, 600, 1100, 2430, 3380, 4530, 5080, 5230)   # last: end of section 6
# Voice-over files of the CD intro (CDV_00..CDV_87; CDV_28 and CDV_44 exist but the intro
# sequence never plays them; they are still speech and are kept).
INTRO_VOICE = (
    59500, 59504, 59505, 59507, 59508, 59510, 59511, 59513, 59514, 59515, 59518, 59520, 59523,
    59525, 59527, 59528, 59531, 59534, 59535, 59536, 59539, 59541, 59545, 59546, 59551, 59554,
    59556, 59558, 59561, 59562, 59563, 59565, 59566, 59567, 59568, 59570, 59574, 59576, 59579,
    59581, 59583, 59587, 59588, 59590, 59594, 59596, 59600, 59602, 59606, 59610, 59612, 59613,
    59614, 59615, 59616, 59618, 59621, 59622, 59624, 59627, 59628, 59629, 59630, 59631, 59632,
    59633, 59635, 59639, 59642, 59644, 59647, 59648, 59649, 59654, 59655, 59656, 59659, 59660,
    59663, 59664, 59665, 59666, 59667, 59668, 59669, 59670, 59671, 59672)


class FormatError(Exception):
    pass


def group_of(fileno):
    """Section of the game (s0..s6), 'intro' for the CD intro, None when not speech."""
    if fileno in INTRO_VOICE:
        return "intro"
    k = fileno - SPEECH_BASE
    for s in range(7):
        if SECTION_BASE[s] <= k < SECTION_BASE[s + 1]:
            return "s%d" % s
    if SECTION_BASE[7] <= k < 9000:
        return "other"          # in the speech range but past the last section's table
    return None


# ---------------------------------------------------------------------------------------------
# RNC ProPack method 1
_CRC_TABLE = []
for _b in range(256):
    _c = _b
    for _ in range(8):
        _c = (_c >> 1) ^ 0xA001 if _c & 1 else _c >> 1
    _CRC_TABLE.append(_c)


def crc16(data):
    """CRC-16 with the reflected polynomial 0xA001 and initial value 0 (as RNC uses)."""
    crc = 0
    tab = _CRC_TABLE
    for byte in data:
        crc = tab[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc


class _Bits:
    """LSB-first bit reader over 16-bit LE words.  `q` is the byte position of the next
    unread word; literal bytes are taken from `q` while the bits left in the current word
    stay pending."""

    def __init__(self, buf, pos):
        self.buf = buf
        self.q = pos
        self.cur = 0
        self.left = 0

    def _word(self, p):
        b = self.buf
        lo = b[p] if p < len(b) else 0
        hi = b[p + 1] if p + 1 < len(b) else 0
        return lo | (hi << 8)

    def peek16(self):
        v = self.cur | (self._word(self.q) << self.left) | (self._word(self.q + 2) << (self.left + 16))
        return v & 0xFFFF

    def skip(self, k):
        if k <= self.left:
            self.cur >>= k
            self.left -= k
        else:
            k -= self.left
            w = self._word(self.q)
            self.q += 2
            self.cur = w >> k
            self.left = 16 - k

    def read(self, k):
        v = self.peek16() & ((1 << k) - 1)
        self.skip(k)
        return v


def _read_table(bits, old):
    n = bits.read(5)
    if n == 0:
        return old              # an empty table keeps the previous one
    lengths = [bits.read(4) for _ in range(n)]
    maxlen = max(lengths)
    if maxlen == 0:
        raise FormatError("Huffman table without codes")
    size = 1 << maxlen
    lut = [None] * size
    code = 0                    # canonical code, MSB-first, left-aligned in 16 bits
    for length in range(1, 17):
        for sym in range(n):
            if lengths[sym] != length:
                continue
            c = code >> (16 - length)
            rev = int(format(c, "0%db" % length)[::-1], 2)   # the stream is LSB-first
            for j in range(rev, size, 1 << length):
                lut[j] = (sym, length)
            code += 1 << (16 - length)
    return (lut, size - 1)


def _value(bits, table):
    lut, mask = table
    hit = lut[bits.peek16() & mask]
    if hit is None:
        raise FormatError("bit pattern not in Huffman table")
    sym, length = hit
    bits.skip(length)
    if sym < 2:
        return sym
    return (1 << (sym - 1)) | bits.read(sym - 1)


def rnc1_unpack(buf):
    """Unpack an RNC method-1 stream starting at buf[0]; checks both CRCs."""
    if bytes(buf[:4]) != b"RNC\x01":
        raise FormatError("no RNC method-1 signature")
    unpacked_len, packed_len, crc_unpacked, crc_packed = struct.unpack_from(">IIHH", buf, 4)
    chunks = buf[17]
    packed = bytes(buf[18:18 + packed_len])
    if len(packed) != packed_len:
        raise FormatError("RNC stream truncated (%d of %d bytes)" % (len(packed), packed_len))
    if crc16(packed) != crc_packed:
        raise FormatError("RNC packed-data CRC mismatch")
    bits = _Bits(packed, 0)
    bits.skip(2)                # two flag bits (lock, key): unused here
    out = bytearray()
    tables = [None, None, None]
    for _ in range(chunks):
        tables = [_read_table(bits, t) for t in tables]
        raw, pos, lng = tables
        if raw is None or pos is None or lng is None:
            raise FormatError("RNC chunk without Huffman tables")
        count = bits.read(16)
        for i in range(count):
            n = _value(bits, raw)
            if n:
                if bits.q + n > len(packed):
                    raise FormatError("RNC literal run past the end of the stream")
                out += packed[bits.q:bits.q + n]
                bits.q += n
            if i + 1 < count:
                dist = _value(bits, pos) + 1
                length = _value(bits, lng) + 2
                if dist > len(out):
                    raise FormatError("RNC back-reference before the start of the output")
                start = len(out) - dist
                if dist >= length:
                    out += out[start:start + length]
                else:
                    pat = bytes(out[start:])
                    out += (pat * (length // dist + 1))[:length]
            if len(out) > unpacked_len:
                raise FormatError("RNC output longer than announced (%d)" % unpacked_len)
    if len(out) != unpacked_len:
        raise FormatError("RNC output %d bytes, announced %d" % (len(out), unpacked_len))
    if crc16(out) != crc_unpacked:
        raise FormatError("RNC unpacked-data CRC mismatch")
    return bytes(out)


# ---------------------------------------------------------------------------------------------
def find_data(pkgdir):
    for root, _dirs, files in os.walk(pkgdir):
        if "sky.dnr" in files and "sky.dsk" in files:
            return os.path.join(root, "sky.dnr"), os.path.join(root, "sky.dsk")
    sys.exit("sky_speech: no directory with sky.dnr and sky.dsk under %s" % pkgdir)


def read_dnr(path):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 4:
        raise FormatError("%s: shorter than its 4-byte entry count" % path)
    n = struct.unpack_from("<I", data, 0)[0]
    if len(data) != 4 + 8 * n:
        raise FormatError("%s: %d entries announced, so %d bytes expected, file has %d"
                          % (path, n, 4 + 8 * n, len(data)))
    entries = {}
    for i in range(n):
        e = data[4 + 8 * i:12 + 8 * i]
        fileno = e[0] | (e[1] << 8)
        off = e[2] | (e[3] << 8) | (e[4] << 16)
        flags = e[5] | (e[6] << 8) | (e[7] << 16)
        offset = (off & 0x7FFFFF) << 4 if off & 0x800000 else off & 0x7FFFFF
        entries.setdefault(fileno, (offset, flags & 0x3FFFFF, flags))
    return n, entries


def load_file(dsk, dsk_size, dsk_path, fileno, offset, size, flags):
    """The file as the engine sees it: 22-byte header + payload (unpacked when RNC)."""
    where = "%s file %d (offset %d, size %d)" % (dsk_path, fileno, offset, size)
    if offset + size > dsk_size or size < HDR:
        raise FormatError("%s: entry lies outside the data file or is shorter than its header"
                          % where)
    dsk.seek(offset)
    stored = dsk.read(size)
    flag, tot_lo = struct.unpack_from("<HxxxxxxxxxxH", stored, 0)
    total = ((flag >> 8) << 16) | tot_lo
    if (flags & 0x800000) or not (flag & 0x80):
        return stored, False
    try:
        unpacked = rnc1_unpack(stored[HDR:])
    except FormatError as e:
        raise FormatError("%s: %s" % (where, e)) from None
    full = unpacked if flags & 0x400000 else stored[:HDR] + unpacked
    if len(full) != total:
        raise FormatError("%s: unpacked %d bytes but the header announces %d"
                          % (where, len(full), total))
    return full, True


def wav_frames(path):
    try:
        with wave.open(path, "rb") as w:
            if w.getnchannels() == 1 and w.getsampwidth() == 2 and w.getframerate() == RATE:
                return w.getnframes()
    except (wave.Error, EOFError, OSError):
        pass
    return None


def write_wav(path, u8):
    pcm = ((u8.astype(np.int16) - 128) << 8).astype("<i2")
    tmp = path + ".part"
    with wave.open(tmp, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm.tobytes())
    os.replace(tmp, path)


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    pkgdir, outdir = argv[1], argv[2]
    dnr_path, dsk_path = find_data(pkgdir)
    try:
        n, entries = read_dnr(dnr_path)
    except FormatError as e:
        sys.exit("sky_speech: format error: %s" % e)
    if n != 5097:
        print("sky_speech: warning: %s has %d entries; 5097 is the CD version v0.0372 this was "
              "checked on" % (dnr_path, n), file=sys.stderr)
    speech = sorted(f for f in entries if group_of(f))
    if not speech:
        sys.exit("sky_speech: format error: %s lists no speech files (50000..55229, intro "
                 "59500..59672): not the CD version?" % dnr_path)
    dsk_size = os.path.getsize(dsk_path)
    rows, written, kept, not_rnc = [], 0, 0, 0
    with open(dsk_path, "rb") as dsk:
        for fileno in speech:
            group = group_of(fileno)
            rel = "%s/%d.wav" % (group, fileno)
            path = os.path.join(outdir, rel)
            frames = wav_frames(path) if os.path.exists(path) else None
            if frames is None:
                offset, size, flags = entries[fileno]
                try:
                    full, packed = load_file(dsk, dsk_size, dsk_path, fileno, offset, size, flags)
                except FormatError as e:
                    sys.exit("sky_speech: format error: %s" % e)
                not_rnc += not packed
                u8 = np.frombuffer(full, dtype=np.uint8)[HDR:]
                if u8.size == 0:
                    sys.exit("sky_speech: format error: %s file %d has no samples after its "
                             "header" % (dsk_path, fileno))
                os.makedirs(os.path.dirname(path), exist_ok=True)
                write_wav(path, u8)
                frames = u8.size
                written += 1
            else:
                kept += 1
            rows.append((rel, fileno, group, frames / RATE))
    tmp = os.path.join(outdir, "index.tsv.part")
    with open(tmp, "w") as f:
        f.write("path\tfileno\tgroup\tduration_s\n")
        for rel, fileno, group, dur in rows:
            f.write("%s\t%d\t%s\t%.3f\n" % (rel, fileno, group, dur))
    os.replace(tmp, os.path.join(outdir, "index.tsv"))
    total = sum(r[3] for r in rows)
    print("sky_speech: %d files (%d written, %d kept, %d of the written stored unpacked), "
          "%.1f min, index %s" % (len(rows), written, kept, not_rnc, total / 60,
                                  os.path.join(outdir, "index.tsv")))


if __name__ == "__main__":
    main(sys.argv)
