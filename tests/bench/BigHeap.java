/* SPDX-License-Identifier: Apache-2.0 */
import java.nio.file.Files;
import java.nio.file.Path;

/*
 * Fills the heap with tens of millions of small live objects for a
 * benchmark heap dump. The mix is chosen so that the HotSpot dump averages
 * about 48 bytes per object record, as real application heaps of small
 * objects do: instances with primitive and reference fields, Strings with
 * their byte[] values, small long[] arrays, and Object[] blocks that hold
 * everything live.
 *
 * Usage: java BigHeap READY_FILE [TARGET_OBJECTS]
 * Prints "objects N" (the objects this program allocated and keeps live;
 * the JDK's own objects come on top), then writes READY_FILE and waits to be
 * killed.
 */
public final class BigHeap {
    static final class Item {
        final int id;
        final long value;
        final double weight;
        Item next;
        final Object payload;

        Item(int id, long value, double weight, Object payload) {
            this.id = id;
            this.value = value;
            this.weight = weight;
            this.payload = payload;
        }
    }

    static final class Pair {
        final Object left;
        final Object right;

        Pair(Object left, Object right) {
            this.left = left;
            this.right = right;
        }
    }

    /* One cycle allocates: Item+String+byte[], Item+long[], Pair. */
    static final int OBJECTS_PER_CYCLE = 6;
    /* Each block of this many cycles is held by one Object[] of Pairs. */
    static final int BLOCK = 1000;

    static Object[][] blocks;

    /* Distinct 20-character Latin-1 strings, so they are neither interned
     * nor shared and each has its own byte[]. */
    static String label(long n) {
        char[] c = new char[20];
        c[0] = 'i';
        c[1] = 't';
        c[2] = 'e';
        c[3] = 'm';
        c[4] = '-';
        for (int k = 19; k >= 5; k--) {
            c[k] = (char) ('0' + (n % 10));
            n /= 10;
        }
        return new String(c);
    }

    public static void main(String[] args) throws Exception {
        long target = args.length > 1 ? Long.parseLong(args[1]) : 37_000_000L;
        /* Per block: BLOCK cycles plus the block's own Object[]. */
        long perBlock = (long) BLOCK * OBJECTS_PER_CYCLE + 1;
        int nBlocks = (int) Math.max(1, (target + perBlock / 2) / perBlock);

        blocks = new Object[nBlocks][];
        long objects = 1;
        long serial = 0;
        for (int b = 0; b < nBlocks; b++) {
            Object[] block = new Object[BLOCK];
            objects++;
            Item prev = null;
            for (int i = 0; i < BLOCK; i++, serial++) {
                Item a = new Item((int) serial, serial * 31, serial * 0.5, label(serial));
                Item c = new Item((int) ~serial, -serial, 1.0 / (serial + 1),
                        new long[] {serial, serial + 1, serial + 2});
                /* Chains stay within a block: long enough to exercise
                 * reference walking, short enough not to demand deep
                 * recursion from a reader that walks the graph. */
                a.next = prev;
                c.next = a;
                prev = c;
                block[i] = new Pair(a, c);
                objects += OBJECTS_PER_CYCLE;
            }
            blocks[b] = block;
        }

        System.out.println("objects " + objects);
        System.out.flush();
        Files.writeString(Path.of(args[0]), "ready\n");
        Thread.sleep(Long.MAX_VALUE);
    }
}
