package fixture.plugin;

/*
 * Compiled into its own directory, outside the application class path, and
 * loaded by several class loaders of LoadersFixture: the dump then holds
 * several distinct classes with the same name, told apart only by their
 * class loader id.
 */
public class Plugin {
    /* Static state is per loaded class, so each copy has its own value. */
    static int loadCount;
    static String lastLoader;

    final String tag;
    final int serial;
    final PluginPart part;

    public Plugin(String tag) {
        loadCount++;
        this.tag = tag;
        this.serial = loadCount;
        this.part = new PluginPart(this);
        lastLoader = String.valueOf(getClass().getClassLoader());
    }

    /* A second class from the same loader, referenced from Plugin. */
    public static class PluginPart {
        final Plugin owner;
        final long[] data = {1L, 2L, 3L};

        PluginPart(Plugin owner) {
            this.owner = owner;
        }
    }
}
