/* SPDX-License-Identifier: Apache-2.0 */
import java.io.File;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.logging.ConsoleHandler;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.graalvm.visualvm.lib.jfluid.heap.Heap;
import org.graalvm.visualvm.lib.jfluid.heap.FieldValue;
import org.graalvm.visualvm.lib.jfluid.heap.HeapFactory;
import org.graalvm.visualvm.lib.jfluid.heap.Instance;
import org.graalvm.visualvm.lib.jfluid.heap.JavaClass;
import org.graalvm.visualvm.lib.jfluid.heap.ObjectFieldValue;

/*
 * Reference class histogram from VisualVM's own heap reader, so that the C
 * library's histogram can be compared with what users see in VisualVM.
 *
 * Usage:
 *   java -cp JARS:. VisualVMHisto [--verbose] FILE.hprof
 *       NAME<TAB>INSTANCES<TAB>SHALLOW_BYTES, one line per class with
 *       instances, sorted by name (then count, then bytes, because classes
 *       of the same name from different loaders are separate lines)
 *   java -cp JARS:. VisualVMHisto [--verbose] --class-sizes FILE.hprof
 *       NAME<TAB>INSTANCE_SIZE for every class, instances or not
 *       (-1 for array classes, as VisualVM reports it)
 *   java -cp JARS:. VisualVMHisto [--verbose] --fields FILE.hprof
 *       ID<TAB>FIELD<TAB>VALUE_ID (hex ids) for every non-null reference
 *       field of every instance, in the order VisualVM lists them (its
 *       class's own fields first, then its superclasses')
 *   java -cp JARS:. VisualVMHisto [--verbose] --time FILE.hprof
 *       loads the heap and counts instances per class, prints only the
 *       elapsed seconds (to stderr) and the totals (to stdout)
 *
 * --verbose turns on the reader's CONFIG logging, which is where it says
 * which oop size and minimum instance size it settled on for this dump.
 */
public final class VisualVMHisto {
    private VisualVMHisto() {
    }

    private static void usage() {
        System.err.println("usage: VisualVMHisto [--verbose] [--time|--class-sizes|--fields] FILE.hprof");
        System.exit(2);
    }

    private static void enableConfigLogging() {
        Logger log = Logger.getLogger("org.graalvm.visualvm.lib.jfluid.heap");
        log.setLevel(Level.CONFIG);
        ConsoleHandler handler = new ConsoleHandler();
        handler.setLevel(Level.CONFIG);
        log.addHandler(handler);
        log.setUseParentHandlers(false);
    }

    public static void main(String[] args) throws Exception {
        String mode = "histo";
        String path = null;
        for (String a : args) {
            switch (a) {
                case "--time":
                    mode = "time";
                    break;
                case "--class-sizes":
                    mode = "class-sizes";
                    break;
                case "--fields":
                    mode = "fields";
                    break;
                case "--verbose":
                    enableConfigLogging();
                    break;
                default:
                    if (a.startsWith("--") || path != null) {
                        usage();
                    }
                    path = a;
            }
        }
        if (path == null) {
            usage();
        }

        long start = System.nanoTime();
        Heap heap = HeapFactory.createHeap(new File(path));
        List<JavaClass> classes = heap.getAllClasses();

        if (mode.equals("time")) {
            /* Asking for one count makes the reader index every object
             * record, which is the work a histogram needs; asking for
             * sizes as well would not add another pass. */
            long objects = 0;
            for (JavaClass c : classes) {
                objects += c.getInstancesCount();
            }
            double secs = (System.nanoTime() - start) / 1e9;
            System.out.println("classes\t" + classes.size());
            System.out.println("instances\t" + objects);
            System.err.printf("elapsed %.3f s%n", secs);
            return;
        }

        if (mode.equals("fields")) {
            printFields(classes);
            return;
        }
        List<JavaClass> sorted = new ArrayList<>(classes);
        StringBuilder out = new StringBuilder();
        if (mode.equals("class-sizes")) {
            sorted.sort(Comparator.comparing(JavaClass::getName)
                    .thenComparingInt(JavaClass::getInstanceSize));
            for (JavaClass c : sorted) {
                out.append(c.getName()).append('\t').append(c.getInstanceSize()).append('\n');
            }
        } else {
            sorted.removeIf(c -> c.getInstancesCount() == 0);
            sorted.sort(Comparator.comparing(JavaClass::getName)
                    .thenComparingInt(JavaClass::getInstancesCount)
                    .thenComparingLong(JavaClass::getAllInstancesSize));
            for (JavaClass c : sorted) {
                out.append(c.getName()).append('\t')
                        .append(c.getInstancesCount()).append('\t')
                        .append(c.getAllInstancesSize()).append('\n');
            }
        }
        System.out.print(out);
        System.out.flush();
    }

    private static void printFields(List<JavaClass> classes) {
        StringBuilder out = new StringBuilder();
        for (JavaClass c : classes) {
            if (c.isArray()) {
                continue;
            }
            for (Instance i : c.getInstances()) {
                for (FieldValue v : i.getFieldValues()) {
                    if (!(v instanceof ObjectFieldValue)) {
                        continue;
                    }
                    Instance to = ((ObjectFieldValue) v).getInstance();
                    if (to != null) {
                        out.append(Long.toHexString(i.getInstanceId())).append('\t')
                                .append(v.getField().getName()).append('\t')
                                .append(Long.toHexString(to.getInstanceId())).append('\n');
                    }
                }
            }
        }
        System.out.print(out);
        System.out.flush();
    }
}
