# Sourced by scripts/load and scripts/soak: the load-report and soak-check tools are not in the
# gateway jar (they live in test scope, beside their tests). Sets LOOMGATE_TOOLS_CP to a classpath
# that holds them, compiling them first when they are missing or older than a source file.
# Needs loomgate_use_jdk25 and loomgate_mvn (scripts/lib/jdk.sh, scripts/lib/maven.sh).
loomgate_tools_classpath() {
  local root=$1 classes="$1/target/test-classes"
  if [ ! -f "$classes/io/loomgate/load/ReportMain.class" ] \
     || [ -n "$(find "$root/src" "$root/pom.xml" -newer "$classes/io/loomgate/load/ReportMain.class" -print -quit)" ]; then
    echo "loomgate: compiling the load tools (target/test-classes)" >&2
    (cd "$root" && loomgate_mvn -B -q -DskipTests test-compile) >&2 || { echo "loomgate: the build failed (see above)" >&2; return 1; }
  fi
  LOOMGATE_TOOLS_CP="$classes:$root/target/classes"
}
