# SPDX-License-Identifier: Apache-2.0
# Sourced by the VisualVM checks: visualvm_heap_jar prints the path of
# VisualVM's heap library, or returns 1 when it is not installed;
# visualvm_require DIR JAVA_SOURCE... sets $heap_jar and compiles the
# sources into DIR, or exits 77 (skipped) without Java, python3 or VisualVM. The heap
# library has carried this file name since VisualVM moved to the
# org.graalvm.visualvm packages (2.0); the directory depends on the
# distribution and version, so it is searched for rather than assumed.
visualvm_jar_name=org-graalvm-visualvm-lib-jfluid-heap.jar
visualvm_heap_jar() {
    local dir found
    for dir in ${VISUALVM_HOME:+"$VISUALVM_HOME"} /usr/share/visualvm /usr/lib/visualvm \
        /usr/local/share/visualvm /usr/local/visualvm /opt/visualvm* "$HOME"/visualvm*; do
        [ -d "$dir" ] || continue
        found=$(find "$dir" -name "$visualvm_jar_name" -type f 2>/dev/null | sort | head -n 1)
        if [ -n "$found" ]; then
            echo "$found"
            return 0
        fi
    done
    return 1
}

visualvm_require() {
    local dir=$1 tool
    shift
    for tool in java javac python3; do
        command -v "$tool" >/dev/null 2>&1 || { echo "skipped: $tool not found"; exit 77; }
    done
    heap_jar=$(visualvm_heap_jar) ||
        { echo "skipped: VisualVM's heap library ($visualvm_jar_name) is not installed"; exit 77; }
    javac -nowarn -cp "$heap_jar" -d "$dir" "$@"
}
