# Sourced by the scripts: the JVM flags loomgate runs with, in one place. scripts/run starts loomgate
# with them (plus --enable-preview); scripts/load starts loomgate through scripts/run, and the bare
# reference server with the same flags, so the comparison is fair. The "Performance notes" of docs/performance.md
# say what was measured before each flag was chosen (and why the default G1 stays).
#
# The heap is capped whatever the host: left alone, the JVM takes a quarter of the machine's RAM as
# its ceiling (32 GB on a 128 GB host) and grows into it under load (1.4 to 2.3 GB of RSS for the
# proxy at c=2000). 256 MB keeps that run's RSS under 400 MB (docs/operations.md#memory). An
# operator raises it with LOOMGATE_JAVA_OPTS=-Xmx1g: scripts/run gives those options after these,
# and the last -Xmx wins.
#
# It starts at 32 MB and grows as the load asks: started at its ceiling, the collector let the young
# generation take up to 60% of it, and a burst of 10,000 first requests on new connections touched
# 124 to 152 MB of heap that stayed resident while the connections idled (72 to 95 MB in 7 runs with -Xms32m;
# docs/performance.md#idle-connections-and-the-initial-heap). An operator's own heap size (-Xmx,
# -Xms, -XX:MaxHeapSize, -XX:InitialHeapSize) drops the 32 MB start, so a ceiling below it still starts.
LOOMGATE_JVM_FLAGS=(-Xmx256m -Xms32m)
case " ${LOOMGATE_JAVA_OPTS:-} " in
  *" -Xmx"* | *" -Xms"* | *"HeapSize="*) LOOMGATE_JVM_FLAGS=(-Xmx256m) ;;
esac
