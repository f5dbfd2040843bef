import java.nio.file.Files;
import java.nio.file.Path;

/*
 * Heap content for jdk17-types.hprof: every field type, every array kind and
 * every static field type, with values that are easy to recognise in a hex
 * dump and in reader output (distinct constants per field, extremes of each
 * range, NaN, negative zero).
 *
 * Usage: java TypesFixture READY_FILE
 * The JVM stays alive until it is killed so that jcmd can attach.
 */
public class TypesFixture {
    /* One instance field per basic type; the order mixes sizes so that a
     * reader that pads or aligns field values in the instance data (HPROF
     * packs them) reads wrong values. */
    static class AllFields {
        boolean zTrue = true;
        boolean zFalse = false;
        char c = '\u20ac';
        float f = 1.5f;
        double d = -2.25;
        byte b = (byte) 0x80;
        short s = (short) 0x7fff;
        int i = 0x12345678;
        long j = 0x0123456789abcdefL;
        Object ref;
        Object nullRef = null;
        String str = "types-fixture-string";
        float fNaN = Float.NaN;
        double dNegZero = -0.0;
        long jMin = Long.MIN_VALUE;
        int iMin = Integer.MIN_VALUE;
    }

    /* Inheritance: a reader must add the superclass fields, which HotSpot
     * writes after the subclass fields in the instance data. */
    static class Base {
        int baseInt = 0x0badcafe;
        Object baseRef;
    }

    static class Derived extends Base {
        long derivedLong = 42L;
        byte derivedByte = 7;
    }

    static class Derived2 extends Derived {
        char derived2Char = 'Z';
    }

    /* No instance fields at all: the instance has only the object header. */
    static class Empty {
    }

    /* A cycle, so that graph walkers must track visited objects. */
    static class Node {
        Node next;
        int id;

        Node(int id) {
            this.id = id;
        }
    }

    enum Colour { RED, GREEN, BLUE }

    /* One static field per type, plus null and non-null references. */
    static class Statics {
        static boolean sZ = true;
        static char sC = 'q';
        static float sF = 3.25f;
        static double sD = 6.5e300;
        static byte sB = -1;
        static short sS = -12345;
        static int sI = 987654321;
        static long sJ = -1L;
        static Object sRef = new int[] {1, 2, 3};
        static Object sNull = null;
        static String sStr = "static-string";
        static final long sFinalLong = System.nanoTime() | 1L;
        static Colour sEnum = Colour.GREEN;
    }

    /* Holds everything live from a static root so that the full GC that
     * jcmd triggers keeps it. */
    static Object[] keep;

    public static void main(String[] args) throws Exception {
        AllFields a = new AllFields();
        a.ref = new AllFields();
        Derived2 d2 = new Derived2();
        d2.baseRef = a;
        Derived d = new Derived();

        Node n1 = new Node(1);
        Node n2 = new Node(2);
        Node n3 = new Node(3);
        n1.next = n2;
        n2.next = n3;
        n3.next = n1;

        boolean[] zArr = {true, false, true};
        char[] cArr = {'a', '\u00e9', '\uffff'};
        float[] fArr = {0.0f, -1.0f, Float.MAX_VALUE, Float.POSITIVE_INFINITY};
        double[] dArr = {Math.PI, Double.MIN_VALUE};
        byte[] bArr = {0, 1, -128, 127, 0x55};
        short[] sArr = {Short.MIN_VALUE, 0, Short.MAX_VALUE};
        int[] iArr = {0xdeadbeef, 1, 2, 3, 4, 5, 6};
        long[] jArr = {Long.MIN_VALUE, 0L, Long.MAX_VALUE};

        Object[] emptyPrims = {
            new boolean[0], new char[0], new float[0], new double[0],
            new byte[0], new short[0], new int[0], new long[0],
        };
        Object[] emptyObjArr = new Object[0];
        String[] strArr = {"alpha", null, "gamma"};
        Object[] mixedArr = {a, null, iArr, "mixed", Colour.BLUE, Statics.class};
        /* Rectangular, jagged and partly null multi-dimensional arrays. */
        int[][] int2d = new int[3][4];
        int2d[1][2] = 99;
        long[][][] long3d = new long[2][3][2];
        long3d[1][2][1] = 77L;
        String[][] jagged = {{"x"}, {"y", "z"}, null, {}};
        Object[][] objGrid = new Object[2][];
        objGrid[0] = new Object[] {d2, n1};
        byte[][] byteRows = {new byte[] {1, 2}, new byte[0]};
        Empty[] empties = {new Empty(), new Empty()};
        /* Large enough to show how a reader handles a big primitive array,
         * small enough to keep the dump small. */
        byte[] big = new byte[100000];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) i;
        }

        /* Touch the statics class so that it is initialised and its static
         * values are in the dump. */
        Object statics = Statics.sRef;

        keep = new Object[] {
            a, d2, d, n1, zArr, cArr, fArr, dArr, bArr, sArr, iArr, jArr,
            emptyPrims, emptyObjArr, strArr, mixedArr, int2d, long3d, jagged,
            objGrid, byteRows, empties, big, statics,
        };

        Files.writeString(Path.of(args[0]), "ready\n");
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
