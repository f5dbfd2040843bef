/* SPDX-License-Identifier: Apache-2.0 */
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.graalvm.visualvm.lib.jfluid.heap.Heap;
import org.graalvm.visualvm.lib.jfluid.heap.HeapFactory;
import org.graalvm.visualvm.lib.jfluid.heap.Instance;
import org.graalvm.visualvm.lib.jfluid.heap.JavaClass;
import org.graalvm.visualvm.lib.jfluid.heap.PrimitiveArrayInstance;

/*
 * Duplicate strings computed over VisualVM's heap reader, apart from
 * libprofdata (waste-visualvm.sh): every java.lang.String a GC root reaches
 * (a root, or one VisualVM finds a nearest GC root pointer for), its
 * contents read from its value field through VisualVM (a char[]; or a
 * byte[] and the coder field: 0 LATIN1, 1 UTF16 little-endian; an offset
 * and a count when the class has them), grouped by contents. A group's
 * bytes: VisualVM's shallow size of each String, and of each distinct
 * value array its copies hold; its waste: those bytes less the cheapest
 * copy's String and whole array.
 *
 * Usage: java -cp JARS:. VisualVMStrings FILE.hprof
 *   first line: STRINGS<TAB>GROUPS<TAB>COPIES<TAB>WASTED
 *   then per group of two copies or more: COUNT<TAB>WASTED<TAB>LENGTH<TAB>HEX
 *   where HEX is the UTF-8 of the first 100 characters (code points; an
 *   unpaired surrogate as U+FFFD), in hexadecimal.
 */
public final class VisualVMStrings {
    private VisualVMStrings() {
    }

    private static final class Group {
        long count, bytes, first = Long.MAX_VALUE;
        final Set<Long> arrays = new HashSet<>();
    }

    private static int field(Instance s, String name, int absent) {
        Object v = s.getValueOfField(name);
        return v instanceof Number ? ((Number) v).intValue() : absent;
    }

    /* The characters of s, or null when its value is no char[] or byte[]. */
    private static String contents(Instance s, PrimitiveArrayInstance a) {
        List<String> values = a.getValues();
        String type = a.getJavaClass().getName();
        StringBuilder b = new StringBuilder();
        if (type.equals("char[]")) {
            for (String c : values)
                b.append(c.charAt(0));
        } else if (type.equals("byte[]")) {
            if (field(s, "coder", 0) == 1) {
                for (int k = 0; k + 1 < values.size(); k += 2)
                    b.append((char) ((Integer.parseInt(values.get(k)) & 0xff)
                            | (Integer.parseInt(values.get(k + 1)) & 0xff) << 8));
            } else {
                for (String c : values)
                    b.append((char) (Integer.parseInt(c) & 0xff));
            }
        } else {
            return null;
        }
        int offset = field(s, "offset", -1), count = field(s, "count", -1);
        if (offset >= 0 && count >= 0)
            return b.substring(offset, offset + count);
        return b.toString();
    }

    private static String hex(String text) {
        StringBuilder cut = new StringBuilder();
        int chars = 0;
        for (int k = 0; k < text.length() && chars < 100; chars++) {
            int cp = text.codePointAt(k);
            k += Character.charCount(cp);
            cut.appendCodePoint(cp >= 0xd800 && cp < 0xe000 ? 0xfffd : cp);
        }
        StringBuilder h = new StringBuilder();
        for (byte x : cut.toString().getBytes(StandardCharsets.UTF_8))
            h.append(String.format("%02x", x & 0xff));
        return h.toString();
    }

    public static void main(String[] args) throws Exception {
        Heap heap = HeapFactory.createHeap(new File(args[0]));
        JavaClass string = heap.getJavaClassByName("java.lang.String");
        Map<String, Group> groups = new HashMap<>();
        long strings = 0;
        for (Instance s : string.getInstances()) {
            if (!s.isGCRoot() && s.getNearestGCRootPointer() == null)
                continue;
            Object v = s.getValueOfField("value");
            if (!(v instanceof PrimitiveArrayInstance))
                continue;
            PrimitiveArrayInstance a = (PrimitiveArrayInstance) v;
            String text = contents(s, a);
            if (text == null)
                continue;
            strings++;
            Group g = groups.computeIfAbsent(text, k -> new Group());
            g.count++;
            g.bytes += s.getSize() + (g.arrays.add(a.getInstanceId()) ? a.getSize() : 0);
            g.first = Math.min(g.first, s.getSize() + a.getSize());
        }
        StringBuilder out = new StringBuilder();
        long ngroups = 0, copies = 0, wasted = 0;
        for (Map.Entry<String, Group> e : groups.entrySet()) {
            Group g = e.getValue();
            if (g.count < 2)
                continue;
            ngroups++;
            copies += g.count;
            wasted += g.bytes - g.first;
            out.append(g.count).append('\t').append(g.bytes - g.first).append('\t').append(e.getKey().length())
                    .append('\t').append(hex(e.getKey())).append('\n');
        }
        System.out.print(strings + "\t" + ngroups + "\t" + copies + "\t" + wasted + "\n" + out);
    }
}
