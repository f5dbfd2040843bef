import java.io.IOException;
import java.lang.reflect.Constructor;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/*
 * Heap content for jdk17-loaders.hprof: the class fixture.plugin.Plugin (and
 * its nested PluginPart) loaded three times, by two URLClassLoaders and by a
 * loader that defines the class from bytes, each with live instances. A
 * reader that keys classes by name alone merges them; the CLASS DUMP records
 * differ in their class loader id.
 *
 * Usage: java LoadersFixture READY_FILE PLUGIN_CLASSES_DIR
 */
public class LoadersFixture {
    /* Defines classes from .class files itself instead of delegating, so it
     * appears in the dump as a loader of its own class type. */
    static class BytesLoader extends ClassLoader {
        private final Path root;

        BytesLoader(String name, Path root) {
            super(name, ClassLoader.getPlatformClassLoader());
            this.root = root;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            Path file = root.resolve(name.replace('.', '/').concat(".class"));
            try {
                byte[] bytes = Files.readAllBytes(file);
                return defineClass(name, bytes, 0, bytes.length);
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }
    }

    static final List<Object> keep = new ArrayList<>();

    static void makeInstances(ClassLoader loader, String tagPrefix, int count) throws Exception {
        Class<?> cls = Class.forName("fixture.plugin.Plugin", true, loader);
        Constructor<?> ctor = cls.getConstructor(String.class);
        for (int i = 0; i < count; i++) {
            /* concat() rather than '+': string '+' compiles to invokedynamic,
             * which would load java.lang.invoke and bloat the dump. */
            keep.add(ctor.newInstance(tagPrefix.concat("-").concat(Integer.toString(i))));
        }
    }

    public static void main(String[] args) throws Exception {
        Path pluginDir = Path.of(args[1]).toAbsolutePath();
        URL[] urls = {pluginDir.toUri().toURL()};
        /* The platform loader as parent keeps the application loader (which
         * does not see the plugin directory anyway) out of delegation. */
        ClassLoader parent = ClassLoader.getPlatformClassLoader();
        URLClassLoader urlA = new URLClassLoader("fixture-url-A", urls, parent);
        URLClassLoader urlB = new URLClassLoader("fixture-url-B", urls, parent);
        BytesLoader bytes = new BytesLoader("fixture-bytes", pluginDir);

        makeInstances(urlA, "A", 2);
        makeInstances(urlB, "B", 3);
        makeInstances(bytes, "C", 4);
        keep.add(urlA);
        keep.add(urlB);
        keep.add(bytes);

        Files.writeString(Path.of(args[0]), "ready\n");
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
