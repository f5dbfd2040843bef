// SPDX-License-Identifier: Apache-2.0
// The JDK's own reading of a recording (jdk.jfr.consumer.RecordingFile), for
// jfr-oracle.sh: every event counted by type name ("count NAME N"), and the
// events of one type summed per stack as folded stacks, root first, each
// frame `package.Class.method` ("stack FRAMES N"), named as our folded
// writer names frames (doc/formats-folded.md: no class, no "."; `;` and line
// ends in names as `_`). An event without a stack trace counts under the
// stack "[empty]". Each jdk.ActiveSetting as "setting EVENT.NAME<TAB>VALUE",
// EVENT the name of the event type it sets (a setting written twice: its
// last value; one without a value left out).
// Usage: java JfrStacks FILE EVENT-TYPE
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.EventType;
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
		Map<String, String> settings = new TreeMap<>();
		Map<Long, String> typeNames = new HashMap<>();
		try (RecordingFile rf = new RecordingFile(Path.of(args[0]))) {
			for (EventType t : rf.readEventTypes())
				typeNames.put(t.getId(), t.getName());
			while (rf.hasMoreEvents()) {
				RecordedEvent e = rf.readEvent();
				String name = e.getEventType().getName();
				counts.merge(name, 1L, Long::sum);
				if (name.equals("jdk.ActiveSetting") && e.getString("value") != null)
					settings.put(typeNames.get(e.getLong("id")) + "." + e.getString("name"), e.getString("value"));
				if (name.equals(args[1]))
					stacks.merge(folded(e.getStackTrace()), 1L, Long::sum);
			}
		}
		for (Map.Entry<String, Long> c : counts.entrySet())
			System.out.println("count " + c.getKey() + " " + c.getValue());
		for (Map.Entry<String, Long> s : stacks.entrySet())
			System.out.println("stack " + s.getKey() + " " + s.getValue());
		for (Map.Entry<String, String> s : settings.entrySet())
			System.out.println("setting " + s.getKey() + "\t" + s.getValue());
	}
}
