// SPDX-License-Identifier: Apache-2.0
// A small workload for a JFR recording (gen.sh): a few threads that
// compute, allocate and contend for one lock, for about two seconds, so
// that the recording holds execution samples of several distinct stacks,
// allocation samples and monitor events. With "rotate", a second
// recording starts after a second, so the recording holds two chunks.
// With "deep", one thread computes 80 calls deep and another 3 deep for a
// second: under a stack depth of 32 the first one's stacks are truncated.
// With "leak", the main thread fills a static map for two seconds and
// never lets go: the old object samples of the recording (with
// path-to-gc-roots=true) are its entries, on paths from the map's class.
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class Workload {
	static final Object LOCK = new Object();
	static volatile long sink;

	static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

	static long hashLoop(int rounds) {
		long h = 1469598103934665603L;
		for (int i = 0; i < rounds; i++) {
			h ^= i;
			h *= 1099511628211L;
		}
		return h;
	}

	static int allocate(int n) {
		List<int[]> keep = new ArrayList<>();
		for (int i = 0; i < n; i++)
			keep.add(new int[64 + (i % 512)]);
		return keep.size();
	}

	static void contend(long until) {
		while (System.nanoTime() < until) {
			synchronized (LOCK) {
				sink += hashLoop(200000);
			}
		}
	}

	static long descend(int depth, long until) {
		long h = 0;
		if (depth > 0)
			return descend(depth - 1, until) + 1;
		while (System.nanoTime() < until)
			h += hashLoop(100000);
		return h;
	}

	static void deep() throws Exception {
		long until = System.nanoTime() + 1_000_000_000L;
		Thread worker = new Thread(() -> sink += descend(80, until), "deep-worker");
		worker.start();
		sink += descend(3, until);
		worker.join();
	}

	static final Map<Integer, Object[]> CACHE = new HashMap<>();

	static void leak() throws Exception {
		long until = System.nanoTime() + 2_000_000_000L;
		for (int i = 0; System.nanoTime() < until; i++) {
			CACHE.put(i, new Object[] { new byte[256], "entry " + i });
			sink += new int[128].length; /* garbage beside the leak */
			if (i % 1000 == 999)
				Thread.sleep(1);
		}
	}

	public static void main(String[] args) throws Exception {
		if (args.length > 0 && args[0].equals("leak")) {
			leak();
			return;
		}
		if (args.length > 0 && args[0].equals("deep")) {
			deep();
			return;
		}
		long until = System.nanoTime() + 2_000_000_000L;
		if (args.length > 0 && args[0].equals("rotate")) {
			// a second recording starting rotates the chunk: the first one's file then holds two chunks
			Thread.sleep(1000);
			new jdk.jfr.Recording().start();
		}
		Thread[] workers = new Thread[3];
		workers[0] = new Thread(() -> { while (System.nanoTime() < until) sink += fib(24); }, "fib-worker");
		workers[1] = new Thread(() -> { while (System.nanoTime() < until) sink += allocate(2000); }, "alloc-worker");
		workers[2] = new Thread(() -> contend(until), "lock-worker");
		for (Thread t : workers)
			t.start();
		contend(until);
		for (Thread t : workers)
			t.join();
	}
}
