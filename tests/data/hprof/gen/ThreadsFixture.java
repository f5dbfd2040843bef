import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/*
 * Heap content for jdk17-threads.hprof: named threads in nested thread
 * groups, parked in different states, each holding objects that are reachable
 * only from its own stack. That gives the dump ROOT THREAD OBJECT and ROOT
 * JAVA FRAME records, STACK TRACE / STACK FRAME records for each thread, and
 * thread objects whose names a reader can resolve. (HotSpot 17 writes no
 * ROOT MONITOR USED or ROOT JNI LOCAL records for these.)
 *
 * Usage: java ThreadsFixture READY_FILE
 */
public class ThreadsFixture {
    /* Recognisable type for objects kept alive only by a stack frame. */
    static class StackLocal {
        final String owner;
        final int depth;

        StackLocal(String owner, int depth) {
            this.owner = owner;
            this.depth = depth;
        }
    }

    static final Object LOCK = new Object();
    static final CountDownLatch started = new CountDownLatch(5);
    static final CountDownLatch never = new CountDownLatch(1);

    /* Recursion gives a thread several frames, each with its own local,
     * so frame numbers in ROOT JAVA FRAME differ. */
    static void deep(String name, int depth, Runnable atBottom) {
        StackLocal local = new StackLocal(name, depth);
        if (depth == 0) {
            atBottom.run();
        } else {
            deep(name, depth - 1, atBottom);
        }
        /* Keeps 'local' live in the frame until the call returns. */
        if (local.depth < 0) {
            System.out.println(local.owner);
        }
    }

    static void awaitForever() {
        started.countDown();
        try {
            never.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /* Named Runnable classes rather than lambdas: a lambda pulls the whole
     * java.lang.invoke machinery into the heap and the dump grows by
     * hundreds of classes. */
    static final class DeepThenPark implements Runnable {
        private final String name;
        private final int depth;

        DeepThenPark(String name, int depth) {
            this.name = name;
            this.depth = depth;
        }

        @Override
        public void run() {
            deep(name, depth, new Runnable() {
                @Override
                public void run() {
                    awaitForever();
                }
            });
        }
    }

    static final class DeepThenSleep implements Runnable {
        @Override
        public void run() {
            deep("worker-2", 1, new Runnable() {
                @Override
                public void run() {
                    /* TIMED_WAITING in sleep rather than parked on a latch. */
                    started.countDown();
                    try {
                        Thread.sleep(Long.MAX_VALUE);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
        }
    }

    /* Owns a monitor and waits on it: a thread state (WAITING on an object
     * monitor) that the other threads do not show. */
    static final class MonitorWaiter implements Runnable {
        @Override
        public void run() {
            synchronized (LOCK) {
                started.countDown();
                try {
                    LOCK.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /* A busy thread: its stack is captured in whatever frame it is in. */
    static final class Busy implements Runnable {
        volatile long sink;

        @Override
        public void run() {
            started.countDown();
            long x = 0;
            StackLocal busyLocal = new StackLocal("busy", 0);
            while (!Thread.currentThread().isInterrupted()) {
                x += busyLocal.depth + 1;
                if ((x & 0xfffff) == 0) {
                    sink = x;
                    /* Sleeping often keeps the fixture from eating a core. */
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }
    }

    public static void main(String[] args) throws Exception {
        ThreadGroup workers = new ThreadGroup("fixture-workers");
        ThreadGroup inner = new ThreadGroup(workers, "fixture-inner");
        ThreadGroup other = new ThreadGroup("fixture-other");

        Thread t1 = new Thread(workers, new DeepThenPark("worker-1", 3), "fixture-worker-1");
        Thread t2 = new Thread(workers, new DeepThenSleep(), "fixture-worker-2");
        Thread t3 = new Thread(inner, new MonitorWaiter(), "fixture-inner-waiter");
        /* Non-ASCII name: thread names are Java strings, not HPROF UTF-8
         * strings, so this checks that a reader decodes the char[]/byte[]. */
        Thread t4 = new Thread(other, new DeepThenPark("daemon", 2), "fixture-daemon \u00e9\u4e2d");
        t4.setDaemon(true);
        Thread t5 = new Thread(other, new Busy(), "fixture-busy");
        t5.setDaemon(true);
        t5.setPriority(Thread.MIN_PRIORITY);

        for (Thread t : new Thread[] {t1, t2, t3, t4, t5}) {
            t.start();
        }
        started.await();
        /* Give t3 time to reach LOCK.wait() after counting down. */
        Thread.sleep(200);

        StackLocal mainLocal = new StackLocal("main", 0);
        Files.writeString(Path.of(args[0]), "ready\n");
        System.out.println("READY");
        System.out.flush();
        while (mainLocal.depth == 0) {
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
