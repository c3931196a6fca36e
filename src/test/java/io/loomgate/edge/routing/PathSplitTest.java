package io.loomgate.edge.routing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

/** A path as segments, empty ones kept: {@code /a//b/} is {@code [a, "", b, ""]}, as the router matches them. */
class PathSplitTest {

    @Test
    void everySlashStartsASegmentAndEmptyOnesAreKept() {
        assertArrayEquals(new String[] {""}, PathPattern.split("/"));
        assertArrayEquals(new String[] {""}, PathPattern.split(""));
        assertArrayEquals(new String[] {"api"}, PathPattern.split("/api"));
        assertArrayEquals(new String[] {"api", ""}, PathPattern.split("/api/"));
        assertArrayEquals(new String[] {"api", "data"}, PathPattern.split("/api/data"));
        assertArrayEquals(new String[] {"", ""}, PathPattern.split("//"));
        assertArrayEquals(new String[] {"a", "", "b", ""}, PathPattern.split("/a//b/"));
        assertArrayEquals(new String[] {"", "", ""}, PathPattern.split("///"));
    }
}
