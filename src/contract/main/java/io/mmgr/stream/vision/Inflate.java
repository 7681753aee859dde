package io.mmgr.stream.vision;

/**
 * A zlib stream (RFC 1950) inflated (RFC 1951) into an output of known size, for {@link PngDecoder}.
 * A rendered maze compresses some hundred to one, almost all of it into long matches, which this
 * copies with {@link System#arraycopy} where zlib copies byte by byte behind a call per row; the
 * Huffman codes are read through one table per code.
 *
 * <p>It answers only for streams it reads in full the way zlib would: anything zlib might reject,
 * or that this does not handle (a preset dictionary, an incomplete or over-subscribed code, a stream
 * ending early), makes {@link #into} return false, and the caller decodes with
 * {@link java.util.zip.Inflater} again, which then fails or succeeds with zlib's own words.
 */
final class Inflate {

    private static final int[] LENGTH_BASE = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
        67, 83, 99, 115, 131, 163, 195, 227, 258};
    private static final int[] LENGTH_EXTRA = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
        5, 5, 5, 5, 0};
    private static final int[] DIST_BASE = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513,
        769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
    private static final int[] DIST_EXTRA = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10,
        11, 11, 12, 12, 13, 13};
    /** The order in which a dynamic block lists its code-length code lengths. */
    private static final int[] CLEN_ORDER = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    /** A longest match of every byte value, to copy a run from in one go (the client compiler fills byte by byte). */
    private static final byte[][] RUNS = new byte[256][258];
    private static final Code FIXED_LITLEN;
    private static final Code FIXED_DIST;

    static {
        for (int v = 0; v < 256; v++) {
            java.util.Arrays.fill(RUNS[v], (byte) v);
        }
        byte[] l = new byte[288];
        java.util.Arrays.fill(l, 0, 144, (byte) 8);
        java.util.Arrays.fill(l, 144, 256, (byte) 9);
        java.util.Arrays.fill(l, 256, 280, (byte) 7);
        java.util.Arrays.fill(l, 280, 288, (byte) 8);
        FIXED_LITLEN = Code.of(l, 0, 288);
        // 32 codes, of which 30 and 31 never occur in valid data
        byte[] d = new byte[32];
        java.util.Arrays.fill(d, (byte) 5);
        FIXED_DIST = Code.of(d, 0, 32);
    }

    private final byte[] in;
    private int pos;
    private final int end;
    private long bits;
    private int count;

    private Inflate(byte[] in, int from, int length) {
        this.in = in;
        this.pos = from;
        this.end = from + length;
    }

    /**
     * Fills {@code out[0 .. size)} from the zlib stream {@code in[from .. from + length)}; false when
     * the stream is not one read here in full (see the class comment), with {@code out} then undefined.
     */
    static boolean into(byte[] in, int from, int length, byte[] out, int size) {
        try {
            return new Inflate(in, from, length).run(out, size);
        } catch (Malformed e) {
            return false;
        }
    }

    /** A Huffman code as a table indexed by the next input bits ({@code & mask}): symbol << 4 | code length. */
    private record Code(int[] table, int mask) {

        /** The canonical code of {@code n} lengths from {@code lengths[from]}; null when incomplete or over-subscribed. */
        static Code of(byte[] lengths, int from, int n) {
            int[] perLength = new int[16];
            int max = 0;
            for (int i = 0; i < n; i++) {
                perLength[lengths[from + i]]++;
                max = Math.max(max, lengths[from + i]);
            }
            perLength[0] = 0;
            int left = 1;
            for (int len = 1; len <= 15; len++) {
                left = (left << 1) - perLength[len];
                if (left < 0) {
                    return null;
                }
            }
            if (left != 0 || max == 0) {
                return null;
            }
            int[] next = new int[16];
            for (int len = 1, c = 0; len <= 15; len++) {
                c = (c + perLength[len - 1]) << 1;
                next[len] = c;
            }
            int[] table = new int[1 << max];
            for (int s = 0; s < n; s++) {
                int len = lengths[from + s];
                if (len == 0) {
                    continue;
                }
                // deflate sends a code's bits most significant first into a least-significant-first stream
                int reversed = Integer.reverse(next[len]++) >>> (32 - len);
                for (int k = reversed; k < table.length; k += 1 << len) {
                    table[k] = s << 4 | len;
                }
            }
            return new Code(table, table.length - 1);
        }
    }

    /** Anything this does not read as zlib would. */
    private static final class Malformed extends Exception {
        Malformed() {
            super(null, null, false, false);
        }
    }

    private static final Malformed MALFORMED = new Malformed();

    private boolean run(byte[] out, int size) throws Malformed {
        int cmf = byteAt();
        int flg = byteAt();
        if ((cmf & 0x0F) != 8 || (cmf >> 4) > 7 || ((cmf << 8) | flg) % 31 != 0 || (flg & 0x20) != 0) {
            return false;
        }
        int o = 0;
        boolean last = false;
        Code lit = null;
        Code dist = null;
        // blocks are read until the output is full; zlib then goes on reading up to where it would
        // next write, so what it would reject there is checked too (see after)
        while (true) {
            if (last) {
                return false; // the stream ends before the image does
            }
            last = take(1) == 1;
            int type = take(2);
            if (type == 0) {
                int n = stored();
                int copy = Math.min(n, size - o);
                System.arraycopy(in, pos, out, o, copy);
                pos += copy;
                o += copy;
                if (o == size) {
                    return copy < n || after(out, size, last, null, null);
                }
                continue;
            } else {
                Code[] codes = codes(type);
                if (codes == null) {
                    return false;
                }
                lit = codes[0];
                dist = codes[1];
            }
            while (true) {
                int sym = decode(lit);
                if (sym < 256) {
                    out[o++] = (byte) sym;
                    if (o == size) {
                        return after(out, size, last, lit, dist);
                    }
                    continue;
                }
                if (sym == 256) {
                    break;
                }
                sym -= 257;
                if (sym >= 29) {
                    return false;
                }
                int length = LENGTH_BASE[sym] + take(LENGTH_EXTRA[sym]);
                int d = decode(dist);
                if (d >= 30) {
                    return false;
                }
                int distance = DIST_BASE[d] + take(DIST_EXTRA[d]);
                if (distance > o) {
                    return false;
                }
                int n = Math.min(length, size - o);
                copy(out, o, distance, n);
                o += n;
                if (o == size) {
                    return n < length || after(out, size, last, lit, dist);
                }
            }
        }
    }

    /**
     * The output is full where a symbol or a block ends: zlib reads on until it would write again,
     * through ends of blocks and headers, and checks the Adler-32 sum when the stream ends there.
     * Whatever it might reject on that way is left to it (false); a stream that stops short is fine,
     * zlib would wait for more. {@code lit} null: at a block header.
     */
    private boolean after(byte[] out, int size, boolean last, Code lit, Code dist) throws Malformed {
        while (true) {
            if (lit != null) {
                int sym = next(lit);
                if (sym < 0 || sym < 256) {
                    return true;
                }
                if (sym > 256) {
                    sym -= 257;
                    if (sym >= 29) {
                        return false;
                    }
                    if (!enough(LENGTH_EXTRA[sym])) {
                        return true;
                    }
                    take(LENGTH_EXTRA[sym]);
                    int d = next(dist);
                    return d < 30;
                }
                lit = null;
            }
            if (last) {
                align();
                if (!enough(32)) {
                    return true;
                }
                int sum = (take(8) << 24) | (take(8) << 16) | (take(8) << 8) | take(8);
                return sum == adler32(out, size);
            }
            if (!enough(3)) {
                return true;
            }
            last = take(1) == 1;
            int type = take(2);
            if (type == 0) {
                align();
                if (!enough(32)) {
                    return true;
                }
                int len = take(16);
                if ((take(16) ^ 0xFFFF) != len) {
                    return false;
                }
                if (len > 0) {
                    return true;
                }
            } else {
                Code[] codes = codes(type);
                if (codes == null) {
                    return false;
                }
                lit = codes[0];
                dist = codes[1];
            }
        }
    }

    /** The next symbol, or -1 when its bits are not all there (the codes are complete: every bit pattern is some symbol). */
    private int next(Code code) {
        if (count < 15) {
            refill();
        }
        int e = code.table()[(int) bits & code.mask()];
        int len = e & 15;
        if (len > count) {
            return -1;
        }
        bits >>>= len;
        count -= len;
        return e >>> 4;
    }

    private static int adler32(byte[] b, int size) {
        java.util.zip.Adler32 a = new java.util.zip.Adler32();
        a.update(b, 0, size);
        return (int) a.getValue();
    }

    /**
     * Copies {@code n} bytes from {@code distance} back: a match longer than its distance repeats
     * the bytes behind it, so the copied stretch doubles each time.
     */
    private static void copy(byte[] out, int o, int distance, int n) {
        if (distance >= n) {
            System.arraycopy(out, o - distance, out, o, n);
            return;
        }
        if (distance == 1) {
            // a run of one byte value (most of a rendered image: white, black, grey channels)
            System.arraycopy(RUNS[out[o - 1] & 0xFF], 0, out, o, n);
            return;
        }
        int done = 0;
        int span = distance;
        while (done < n) {
            int c = Math.min(span, n - done);
            System.arraycopy(out, o - distance, out, o + done, c);
            done += c;
            span = distance + done;
            // the stretch behind o is now distance + done long and repeats with the period distance
            span -= span % distance;
        }
    }

    /** A stored block's length, with the bit reader moved onto its first byte. */
    private int stored() throws Malformed {
        align();
        int len = take(16);
        if ((take(16) ^ 0xFFFF) != len) {
            throw MALFORMED;
        }
        // the bytes still buffered go back to the input
        pos -= count >> 3;
        bits = 0;
        count = 0;
        if (len > end - pos) {
            throw MALFORMED;
        }
        return len;
    }

    /** A dynamic block's literal/length and distance codes. */
    private Code[] dynamic() throws Malformed {
        int nlen = take(5) + 257;
        int ndist = take(5) + 1;
        int ncode = take(4) + 4;
        if (nlen > 286 || ndist > 30) {
            throw MALFORMED;
        }
        byte[] clen = new byte[19];
        for (int i = 0; i < ncode; i++) {
            clen[CLEN_ORDER[i]] = (byte) take(3);
        }
        Code lengths = Code.of(clen, 0, 19);
        if (lengths == null) {
            throw MALFORMED;
        }
        byte[] l = new byte[nlen + ndist];
        for (int i = 0; i < l.length; ) {
            int sym = decode(lengths);
            if (sym < 16) {
                l[i++] = (byte) sym;
                continue;
            }
            int repeat;
            byte value = 0;
            if (sym == 16) {
                if (i == 0) {
                    throw MALFORMED;
                }
                value = l[i - 1];
                repeat = 3 + take(2);
            } else if (sym == 17) {
                repeat = 3 + take(3);
            } else {
                repeat = 11 + take(7);
            }
            if (i + repeat > l.length) {
                throw MALFORMED;
            }
            java.util.Arrays.fill(l, i, i + repeat, value);
            i += repeat;
        }
        if (l[256] == 0) {
            throw MALFORMED;
        }
        Code lit = Code.of(l, 0, nlen);
        Code dist = Code.of(l, nlen, ndist);
        if (lit == null || dist == null) {
            throw MALFORMED;
        }
        return new Code[] {lit, dist};
    }

    private int decode(Code code) throws Malformed {
        if (count < 15) {
            refill();
        }
        int e = code.table()[(int) bits & code.mask()];
        int len = e & 15;
        if (len > count) {
            throw MALFORMED;
        }
        bits >>>= len;
        count -= len;
        return e >>> 4;
    }

    /** The next {@code n} bits (n at most 16), least significant first. */
    private int take(int n) throws Malformed {
        if (count < n) {
            refill();
            if (count < n) {
                throw MALFORMED;
            }
        }
        int v = (int) bits & ((1 << n) - 1);
        bits >>>= n;
        count -= n;
        return v;
    }

    /** Drops the bits up to the next byte boundary. */
    private void align() {
        int k = count & 7;
        bits >>>= k;
        count -= k;
    }

    /** Whether {@code n} more bits are there. */
    private boolean enough(int n) {
        if (count < n) {
            refill();
        }
        return count >= n;
    }

    private void refill() {
        while (count <= 56 && pos < end) {
            bits |= (in[pos++] & 0xFFL) << count;
            count += 8;
        }
    }

    private int byteAt() throws Malformed {
        if (pos >= end) {
            throw MALFORMED;
        }
        return in[pos++] & 0xFF;
    }

    /** The literal/length and distance codes of a compressed block of this type (1 fixed, 2 dynamic), or null for type 3. */
    private Code[] codes(int type) throws Malformed {
        if (type == 1) {
            return new Code[] {FIXED_LITLEN, FIXED_DIST};
        }
        return type == 2 ? dynamic() : null;
    }
}
