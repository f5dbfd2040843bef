import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/*
 * Planted waste for `profdata waste`:
 * - 2,000 copies of one 40-character LATIN1 string (each String with its
 *   own byte[]), held in a list;
 * - 300 copies of one 12-character UTF16 string (coder 1: a character
 *   outside Latin-1), held in an array;
 * - 1,000 empty HashMaps (never written: their table is null);
 * - 500 ArrayLists of capacity 100 holding one element each;
 * - 3,000 Integers of one value outside the Integer cache (-128..127);
 * - 400 byte[64] arrays of one content (not all zero).
 *
 * Usage: java WasteFixture READY_FILE
 */
public class WasteFixture {
    static final String TEXT = "waste-fixture: one string, 2000 copies.";
    static final List<String> COPIES = new ArrayList<>();
    static final String[] WIDE = new String[300];
    static final List<Map<String, String>> EMPTY_MAPS = new ArrayList<>();
    static final List<List<Integer>> SPARSE_LISTS = new ArrayList<>();
    static final Integer[] BOXES = new Integer[3_000];
    static final byte[][] BLOCKS = new byte[400][];

    public static void main(String[] args) throws Exception {
        char[] text = (TEXT + "!").toCharArray();
        for (int i = 0; i < 2_000; i++)
            COPIES.add(new String(text));
        char[] wide = "snowman \u2603 ok".toCharArray();
        for (int i = 0; i < WIDE.length; i++)
            WIDE[i] = new String(wide);
        for (int i = 0; i < 1_000; i++)
            EMPTY_MAPS.add(new HashMap<>());
        for (int i = 0; i < 500; i++) {
            List<Integer> l = new ArrayList<>(100);
            l.add(i);
            SPARSE_LISTS.add(l);
        }
        for (int i = 0; i < BOXES.length; i++)
            BOXES[i] = Integer.valueOf(70_000 + i - i);
        for (int i = 0; i < BLOCKS.length; i++) {
            BLOCKS[i] = new byte[64];
            for (int k = 0; k < 64; k++)
                BLOCKS[i][k] = (byte) (k * 7 + 1);
        }
        Files.writeString(Path.of(args[0]), "ready\n");
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
