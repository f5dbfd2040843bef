// SPDX-License-Identifier: Apache-2.0
// The JDK's own reading of a recording (jdk.jfr.consumer.RecordingFile), for
// jfr-oracle.sh: every event counted by type name ("count NAME N"), and the
// events of one type summed per stack as folded stacks, root first, each
// frame `package.Class.method` ("stack FRAMES N"), named as our folded
// writer names frames (doc/formats-folded.md: no class, no "."; `;` and line
// ends in names as `_`). An event without a stack trace counts under the
// stack "[empty]".
// Usage: java JfrStacks FILE EVENT-TYPE
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

public class JfrStacks {
	static String folded(RecordedStackTrace st) {
		if (st == null || st.getFrames().isEmpty())
			return "[empty]";
		List<RecordedFrame> frames = st.getFrames();
		StringBuilder b = new StringBuilder();
		for (int i = frames.size() - 1; i >= 0; i--) {
			RecordedFrame f = frames.get(i);
			if (b.length() > 0)
				b.append(';');
			String type = f.getMethod().getType().getName();
			String name = (type.isEmpty() ? "" : type + ".") + f.getMethod().getName();
			b.append(name.replaceAll("[;\r\n]", "_"));
		}
		return b.toString();
	}

	public static void main(String[] args) throws Exception {
		Map<String, Long> counts = new TreeMap<>();
		Map<String, Long> stacks = new TreeMap<>();
		try (RecordingFile rf = new RecordingFile(Path.of(args[0]))) {
			while (rf.hasMoreEvents()) {
				RecordedEvent e = rf.readEvent();
				String name = e.getEventType().getName();
				counts.merge(name, 1L, Long::sum);
				if (name.equals(args[1]))
					stacks.merge(folded(e.getStackTrace()), 1L, Long::sum);
			}
		}
		for (Map.Entry<String, Long> c : counts.entrySet())
			System.out.println("count " + c.getKey() + " " + c.getValue());
		for (Map.Entry<String, Long> s : stacks.entrySet())
			System.out.println("stack " + s.getKey() + " " + s.getValue());
	}
}
