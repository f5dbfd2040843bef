# SPDX-License-Identifier: Apache-2.0
"""The binding's own PEP 517 build backend: it writes the wheel of one pure
module with the standard library alone, so that `pip install
--no-build-isolation ./bindings/python` works in a fresh venv with no package
index (setuptools 66, Debian 12's, needs the `wheel` package for that, which
a venv lacks) and writes nothing into the source folder.

The wheel's profdata.py records the libraries of the Meson build trees found
beside the source (SOURCE_ROOT/*/meson-info): where `meson install` puts each
one, then the build tree's own file. profdata.py tries them after
PROFDATA_LIBRARY (see README.md for the whole order).
"""
import base64
import glob
import hashlib
import io
import json
import os
import tarfile
import zipfile
from typing import Any, Dict, List, Optional, Tuple

try:
    import tomllib  # Python 3.11
except ImportError:  # pragma: no cover - older Pythons with tomli installed
    import tomli as tomllib  # type: ignore[no-redef]

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE = "profdata.py"
RECORDED = ("_INSTALLED_LIBRARIES", "_BUILD_TREE_LIBRARIES")  # lines of profdata.py
SONAME_PREFIX = "libprofdata.so."


def _project() -> Dict[str, Any]:
    with open(os.path.join(HERE, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]


def _dist_name() -> Tuple[str, str]:
    p = _project()
    return p["name"], p["version"]


def _metadata() -> str:
    p = _project()
    lines = ["Metadata-Version: 2.1", "Name: " + p["name"], "Version: " + p["version"],
             "Summary: " + p["description"], "License: " + p["license"]["text"],
             "Requires-Python: " + p["requires-python"]]
    lines += ["Classifier: " + c for c in p.get("classifiers", [])]
    lines.append("Description-Content-Type: text/markdown")
    with open(os.path.join(HERE, p["readme"]), encoding="utf-8") as f:
        return "\n".join(lines) + "\n\n" + f.read()


def built_libraries(source_root: str) -> Tuple[List[str], List[str]]:
    """The shared libraries of the Meson build trees directly under source_root
    (newest build first): where `meson install` puts them, and the build trees' own."""
    installed: List[str] = []
    built: List[str] = []
    infos = glob.glob(os.path.join(source_root, "*", "meson-info", "intro-installed.json"))
    for info in sorted(infos, key=os.path.getmtime, reverse=True):
        try:
            with open(info, encoding="utf-8") as f:
                targets = json.load(f)
        except (OSError, ValueError):
            continue
        for src, dst in sorted(targets.items()):
            if os.path.basename(src).startswith(SONAME_PREFIX) and os.path.isfile(src):
                installed.append(dst)
                built.append(src)
    return installed, built


def _module_text() -> str:
    with open(os.path.join(HERE, MODULE), encoding="utf-8") as f:
        text = f.read()
    found = built_libraries(os.path.dirname(os.path.dirname(HERE)))
    for name, paths in zip(RECORDED, found):
        line = "%s: List[str] = []" % name
        if text.count(line) != 1:
            raise RuntimeError("%s: no single line %r to record the libraries in" % (MODULE, line))
        text = text.replace(line, "%s: List[str] = %r" % (name, paths))
    return text


def _record_row(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (name, digest, len(data))


def _dist_info_files() -> Dict[str, bytes]:
    wheel = "Wheel-Version: 1.0\nGenerator: profdata build_backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    return {"METADATA": _metadata().encode(), "WHEEL": wheel.encode()}


def _dist_info_dir() -> str:
    name, version = _dist_name()
    return "%s-%s.dist-info" % (name, version)


# ---- PEP 517 hooks ----

def get_requires_for_build_wheel(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def prepare_metadata_for_build_wheel(metadata_directory: str,
                                     config_settings: Optional[Dict[str, Any]] = None) -> str:
    info = os.path.join(metadata_directory, _dist_info_dir())
    os.makedirs(info, exist_ok=True)
    for name, data in _dist_info_files().items():
        with open(os.path.join(info, name), "wb") as f:
            f.write(data)
    return os.path.basename(info)


def build_wheel(wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None,
                metadata_directory: Optional[str] = None) -> str:
    name, version = _dist_name()
    info = _dist_info_dir()
    files = {MODULE: _module_text().encode()}
    files.update({info + "/" + k: v for k, v in _dist_info_files().items()})
    record = "".join(_record_row(k, v) + "\n" for k, v in files.items()) + info + "/RECORD,,\n"
    files[info + "/RECORD"] = record.encode()
    wheel_name = "%s-%s-py3-none-any.whl" % (name, version)
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as z:
        for arcname, data in files.items():
            z.writestr(zipfile.ZipInfo(arcname, (1980, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return wheel_name


def build_sdist(sdist_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    name, version = _dist_name()
    base = "%s-%s" % (name, version)
    members = {"PKG-INFO": _metadata().encode()}
    for f in (MODULE, "build_backend.py", "pyproject.toml", "README.md"):
        with open(os.path.join(HERE, f), "rb") as src:
            members[f] = src.read()
    path = os.path.join(sdist_directory, base + ".tar.gz")
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for arcname, data in members.items():
            ti = tarfile.TarInfo(base + "/" + arcname)
            ti.size, ti.mode = len(data), 0o644
            tar.addfile(ti, io.BytesIO(data))
    return base + ".tar.gz"
