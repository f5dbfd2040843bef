/* SPDX-License-Identifier: Apache-2.0 */
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import org.graalvm.visualvm.lib.jfluid.heap.FieldValue;
import org.graalvm.visualvm.lib.jfluid.heap.GCRoot;
import org.graalvm.visualvm.lib.jfluid.heap.Heap;
import org.graalvm.visualvm.lib.jfluid.heap.HeapFactory;
import org.graalvm.visualvm.lib.jfluid.heap.Instance;
import org.graalvm.visualvm.lib.jfluid.heap.JavaClass;
import org.graalvm.visualvm.lib.jfluid.heap.ObjectArrayInstance;
import org.graalvm.visualvm.lib.jfluid.heap.ObjectFieldValue;

/*
 * Retained sizes from VisualVM's own heap reader, for comparison with
 * libprofdata's dominator tree (heap-visualvm.sh).
 *
 * Usage:
 *   java -cp JARS:. VisualVMRetained --top N FILE.hprof
 *       ID<TAB>CLASS<TAB>SHALLOW<TAB>RETAINED for the N biggest objects by
 *       retained size (Heap.getBiggestObjectsByRetainedSize), biggest first
 *   java -cp JARS:. VisualVMRetained --all FILE.hprof
 *       the same line for every instance, then <TAB>ROOT (1 when a GC root)
 *       <TAB>NEAREST (the id of the nearest GC root pointer, 0 for none)
 *   java -cp JARS:. VisualVMRetained --class-objects FILE.hprof
 *       the --all line of every class object (java.lang.Class), then<TAB>NAME
 *   java -cp JARS:. VisualVMRetained --classes FILE.hprof
 *       CLASS<TAB>CLASS_ID<TAB>RETAINED_BY_CLASS for classes with instances
 *   java -cp JARS:. VisualVMRetained --check-paths FILE.hprof < PATHS
 *       each line of PATHS is a path (ids, root first); prints "ok" or
 *       "bad: why" per line: the first id must be a GC root and each next
 *       one a reference of the one before (field, array element, static,
 *       or the class connection: an instance to its class object)
 *   java -cp JARS:. VisualVMRetained --time N FILE.hprof
 *       as --top, then the elapsed seconds of load + top N on stderr
 * Ids are unsigned decimals.
 */
public final class VisualVMRetained {
    private VisualVMRetained() {
    }

    private static String line(Instance i) {
        return Long.toUnsignedString(i.getInstanceId()) + "\t" + i.getJavaClass().getName() + "\t" + i.getSize()
                + "\t" + i.getRetainedSize();
    }

    private static boolean holds(Heap heap, long from, long to) {
        Instance i = heap.getInstanceByID(from);
        JavaClass c = heap.getJavaClassByID(from);
        if (i instanceof ObjectArrayInstance) {
            for (Instance e : ((ObjectArrayInstance) i).getValues())
                if (e != null && e.getInstanceId() == to)
                    return true;
        }
        if (i != null)
            for (FieldValue f : i.getFieldValues())
                if (f instanceof ObjectFieldValue && ((ObjectFieldValue) f).getInstance() != null
                        && ((ObjectFieldValue) f).getInstance().getInstanceId() == to)
                    return true;
        if (c != null)
            for (FieldValue f : c.getStaticFieldValues())
                if (f instanceof ObjectFieldValue && ((ObjectFieldValue) f).getInstance() != null
                        && ((ObjectFieldValue) f).getInstance().getInstanceId() == to)
                    return true;
        // The class connection of VisualVM's nearest-GC-root search: an instance (a class object: an instance
        // of java.lang.Class) leads to its class's object.
        JavaClass of = i != null ? i.getJavaClass() : c != null ? heap.getJavaClassByName("java.lang.Class") : null;
        return of != null && of.getJavaClassId() == to;
    }

    private static String checkPath(Heap heap, Set<Long> roots, String line) {
        String[] ids = line.trim().split("\\s+");
        long first = Long.parseUnsignedLong(ids[0]);
        if (!roots.contains(first))
            return "bad: " + ids[0] + " is not a GC root";
        for (int k = 1; k < ids.length; k++)
            if (!holds(heap, Long.parseUnsignedLong(ids[k - 1]), Long.parseUnsignedLong(ids[k])))
                return "bad: " + ids[k - 1] + " does not refer to " + ids[k];
        return "ok";
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: VisualVMRetained --top N|--all|--classes|--time N FILE.hprof");
            System.exit(2);
        }
        long start = System.nanoTime();
        String mode = args[0];
        int n = mode.equals("--top") || mode.equals("--time") ? Integer.parseInt(args[1]) : 0;
        String path = args[args.length - 1];
        Heap heap = HeapFactory.createHeap(new File(path));
        StringBuilder out = new StringBuilder();
        if (mode.equals("--top") || mode.equals("--time")) {
            List<Instance> top = heap.getBiggestObjectsByRetainedSize(n);
            for (Instance i : top)
                out.append(line(i)).append('\n');
        } else if (mode.equals("--all")) {
            heap.getBiggestObjectsByRetainedSize(1);
            Iterator<Instance> it = heap.getAllInstancesIterator();
            while (it.hasNext()) {
                Instance i = it.next();
                Instance near = i.getNearestGCRootPointer();
                out.append(line(i)).append('\t').append(i.isGCRoot() ? 1 : 0).append('\t')
                        .append(near == null ? "0" : Long.toUnsignedString(near.getInstanceId())).append('\n');
            }
        } else if (mode.equals("--check-paths")) {
            Set<Long> roots = new HashSet<>();
            for (GCRoot r : heap.getGCRoots())
                if (r.getInstance() != null)
                    roots.add(r.getInstance().getInstanceId());
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
            for (String l; (l = in.readLine()) != null;)
                if (!l.trim().isEmpty())
                    out.append(checkPath(heap, roots, l)).append('\n');
        } else if (mode.equals("--class-objects")) {
            heap.getBiggestObjectsByRetainedSize(1);
            for (JavaClass c : heap.getAllClasses()) {
                Instance i = heap.getInstanceByID(c.getJavaClassId());
                if (i == null) {
                    out.append(Long.toUnsignedString(c.getJavaClassId())).append("\tnull\n");
                    continue;
                }
                Instance near = i.getNearestGCRootPointer();
                out.append(line(i)).append('\t').append(i.isGCRoot() ? 1 : 0).append('\t')
                        .append(near == null ? "0" : Long.toUnsignedString(near.getInstanceId())).append('\t')
                        .append(c.getName()).append('\n');
            }
        } else if (mode.equals("--classes")) {
            heap.getBiggestObjectsByRetainedSize(1);
            for (JavaClass c : heap.getAllClasses())
                if (c.getInstancesCount() > 0)
                    out.append(c.getName()).append('\t').append(Long.toUnsignedString(c.getJavaClassId()))
                            .append('\t').append(c.getRetainedSizeByClass()).append('\n');
        }
        System.out.print(out);
        if (mode.equals("--time"))
            System.err.printf("visualvm-seconds %.2f%n", (System.nanoTime() - start) / 1e9);
    }
}
