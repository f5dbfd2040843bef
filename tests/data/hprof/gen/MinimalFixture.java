import java.nio.file.Files;
import java.nio.file.Path;

/*
 * The smallest dump the JDK makes: a program that only waits, so the dump
 * holds nothing but what the JVM itself keeps alive, plus one marker
 * object a test can look for.
 *
 * Usage: java MinimalFixture READY_FILE
 */
public class MinimalFixture {
    static class Marker {
        final long value = 0x4d494e494d414cL;
    }

    static final Marker MARKER = new Marker();

    public static void main(String[] args) throws Exception {
        Files.writeString(Path.of(args[0]), "ready\n");
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
