import java.io.File;
import java.util.HashMap;
import java.util.Map;

/*
 * A planted growth between two heap dumps of one process (profdata diff):
 * ORDERS, a static HashMap, holds 1,000 GrowthFixture$Order objects when
 * the first dump is taken and 4,000 when the second is: 3,000 more Orders
 * (64 bytes each with compressed oops: a 12-byte header, six long fields
 * and a reference), each with a long[4] (48 bytes), a HashMap$Node and an
 * Integer key; the map's table grows from 2,048 to 8,192 slots. Nothing
 * else of the program's changes between the dumps.
 *
 * Usage: java GrowthFixture READY_FILE
 * writes READY_FILE when the first state is built, waits for READY_FILE.go,
 * grows the map, then writes READY_FILE.2 and sleeps until killed.
 */
public class GrowthFixture {
    static final Map<Integer, Order> ORDERS = new HashMap<>();

    static class Order {
        final long id, customer, placed, shipped, amount, tax;
        final long[] lines = new long[4];

        Order(long id) {
            this.id = id;
            this.customer = 7;
            this.placed = 1_700_000_000L;
            this.shipped = 0;
            this.amount = 100;
            this.tax = 20;
        }
    }

    static void grow(int from, int to) {
        for (int i = from; i < to; i++)
            ORDERS.put(i, new Order(i));
    }

    public static void main(String[] args) throws Exception {
        File go = new File(args[0].concat(".go"));
        grow(0, 1_000);
        new File(args[0]).createNewFile();
        while (!go.exists())
            Thread.sleep(20);
        grow(1_000, 4_000);
        new File(args[0].concat(".2")).createNewFile();
        Thread.sleep(Long.MAX_VALUE);
    }
}
