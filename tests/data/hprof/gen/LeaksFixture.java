import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/*
 * Planted leaks for the leak suspects (profdata suspects):
 * - CACHE, a static HashMap of 5,000 entries, each a Long key and a 200-byte
 *   array: one object suspect, the class LeaksFixture (its static field),
 *   whose memory gathers in the map's table of HashMap$Node entries;
 * - 1,000 Session objects, each held by a static list and by a list in
 *   main's frame (a GC root of its own), so that no one object dominates
 *   any of them, only the roots do; each holds a 500-byte array: one class
 *   suspect of 1,000 instances, none a suspect alone.
 *
 * Usage: java LeaksFixture READY_FILE
 */
public class LeaksFixture {
    static final Map<Long, byte[]> CACHE = new HashMap<>();

    static class Session {
        final byte[] state = new byte[500];
        final long id;

        Session(long id) {
            this.id = id;
        }
    }

    static class Registry {
        static final List<Session> BY_USER = new ArrayList<>();
    }

    public static void main(String[] args) throws Exception {
        for (long i = 0; i < 5_000; i++)
            CACHE.put(i, new byte[200]);
        List<Session> byTime = new ArrayList<>();
        for (long i = 0; i < 1_000; i++) {
            Session s = new Session(i);
            Registry.BY_USER.add(s);
            byTime.add(s);
        }
        Files.writeString(Path.of(args[0]), "ready\n");
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
        System.out.println(byTime.size()); // keeps the list alive in the frame while main sleeps
    }
}
