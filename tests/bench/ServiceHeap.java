/* SPDX-License-Identifier: Apache-2.0 */
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/*
 * A service-shaped heap for the heap-analysis benchmark: maps of records
 * holding strings, lists and small arrays, and trees of bounded depth, about
 * 7 million objects (a dump of about 440 MB from jcmd) at the default size.
 *
 * Usage: java ServiceHeap READY_FILE [CUSTOMERS]
 * Prints "objects N" (an estimate of what it keeps live), writes READY_FILE
 * and waits to be killed.
 */
public final class ServiceHeap {
    static final class Address {
        final String street, city;
        final int zip;

        Address(String street, String city, int zip) {
            this.street = street;
            this.city = city;
            this.zip = zip;
        }
    }

    static final class Order {
        final String sku;
        final long cents;
        final List<String> tags = new ArrayList<>(2);

        Order(String sku, long cents) {
            this.sku = sku;
            this.cents = cents;
        }
    }

    static final class Customer {
        final String name, email;
        final Address address;
        final List<Order> orders = new ArrayList<>(4);
        final int[] scores;

        Customer(String name, String email, Address address, int[] scores) {
            this.name = name;
            this.email = email;
            this.address = address;
            this.scores = scores;
        }
    }

    /* A category tree of bounded depth whose leaves point into the customers. */
    static final class Category {
        final String label;
        final Category[] children;
        final List<Customer> members = new ArrayList<>();

        Category(String label, Category[] children) {
            this.label = label;
            this.children = children;
        }
    }

    static Map<String, Customer> customers;
    static Category catalog;
    static final String[] TAGS = { "new", "gift", "express", "returned", "bulk" };

    static Category tree(int depth, String label, List<Category> leaves) {
        if (depth == 0) {
            Category leaf = new Category(label, new Category[0]);
            leaves.add(leaf);
            return leaf;
        }
        Category[] kids = new Category[4];
        for (int i = 0; i < kids.length; i++)
            kids[i] = tree(depth - 1, label + "/" + i, leaves);
        return new Category(label, kids);
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 240000;
        customers = new HashMap<>(n * 2);
        List<Category> leaves = new ArrayList<>();
        catalog = tree(7, "root", leaves);
        for (int i = 0; i < n; i++) {
            String name = "customer-" + i;
            Address a = new Address(i + " Main Street", "City " + (i % 977), 10000 + i % 89999);
            Customer c = new Customer(name, name + "@example.com", a, new int[] { i, i * 7, i % 13 });
            for (int k = 0; k < 3; k++) {
                Order o = new Order("SKU-" + (i * 3 + k), i * 100L + k);
                o.tags.add(TAGS[(i + k) % TAGS.length]);
                c.orders.add(o);
            }
            customers.put(name, c);
            leaves.get(i % leaves.size()).members.add(c);
        }
        System.out.println("objects " + (long) n * 29);
        Files.write(Path.of(args[0]), new byte[0]);
        Thread.sleep(Long.MAX_VALUE);
    }
}
