# Sourced by the scripts: the JVM flags loomgate runs with, in one place. scripts/run starts loomgate
# with them (plus --enable-preview); scripts/load starts loomgate through scripts/run, and the bare
# reference server with the same flags, so the comparison is fair. The "Performance notes" of docs/performance.md
# say what was measured before each flag was chosen (and why the default G1 stays).
LOOMGATE_JVM_FLAGS=()
