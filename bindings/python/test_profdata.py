"""Tests of the Python binding against the built library (run by meson test)."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import profdata  # noqa: E402

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data")


class BindingTest(unittest.TestCase):
    def test_version(self):
        self.assertRegex(profdata.version(), r"^\d+\.\d+\.\d+$")

    def test_missing_file_raises_with_its_name(self):
        with self.assertRaises(profdata.Error) as cm:
            profdata.Profile.read("/nonexistent/dump.hprof")
        self.assertIn("/nonexistent/dump.hprof", str(cm.exception))

    def test_unknown_bytes_raise_with_offset(self):
        with tempfile.NamedTemporaryFile(suffix=".bin") as f:
            f.write(b"not a profile at all\n")
            f.flush()
            with self.assertRaises(profdata.Error) as cm:
                profdata.Profile.read(f.name)
            self.assertEqual(cm.exception.offset, 0)

    def test_biggest_objects_by_retained_size(self):
        path = os.path.join(DATA, "hprof", "jdk17-minimal.hprof")
        if "hprof" not in [f[0] for f in profdata.formats()]:
            self.skipTest("no hprof codec in this build")
        with profdata.Profile.read(path) as p:
            top = profdata.biggest_objects(p, 3)
        # as VisualVM lists them (tests/interop/heap-visualvm.sh): java.lang.System's class first
        self.assertEqual(top[0], (4272557776, 72, 35424, True))
        self.assertEqual(top[1], (4272851848, 64, 33936, False))
        self.assertEqual(len(top), 3)

    def test_formats_are_listed(self):
        names = [n for n, _, _ in profdata.formats()]
        self.assertEqual(len(names), len(set(names)))

    def test_read_histogram_convert_when_hprof_is_built(self):
        if ("hprof", True, True) not in profdata.formats():
            self.skipTest("this build has no hprof codec")
        dump = os.path.join(DATA, "hprof", "jdk17-minimal.hprof")
        with profdata.Profile.read(dump) as p:
            self.assertEqual(p.format, "hprof")
            self.assertGreater(p.count("objects"), 1000)
            self.assertGreater(p.references(), 0)
            objects = p.count("objects")
            functions = p.functions()
            self.assertEqual(len(functions), p.count("functions"))
            self.assertTrue(all(name for name, _, _, _ in functions))
        histo = profdata.histogram(dump)
        self.assertEqual(sum(i for _, i, _ in histo), objects)
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "copy.hprof")
            profdata.convert(dump, out, "hprof")
            with profdata.Profile.read(out) as q:
                self.assertEqual(q.count("objects"), objects)


if __name__ == "__main__":
    unittest.main()
