package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.CommandLine;
import io.loomgate.config.Flag;
import io.loomgate.routing.Route;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The README documents what the code does: every flag with its real default, every route. */
class ReadmeTest {

    private static String readme() throws Exception {
        return Files.readString(Path.of("README.md"));
    }

    @Test
    void theFirstLinesShowTheTwoCommands() throws Exception {
        List<String> head = readme().lines().limit(10).toList();
        assertTrue(head.stream().anyMatch(l -> l.startsWith("scripts/run")), head.toString());
        assertTrue(head.stream().anyMatch(l -> l.startsWith("scripts/test")), head.toString());
    }

    @Test
    void everyFlagIsInTheTableWithItsDefault() throws Exception {
        String readme = readme();
        for (Flag f : Flag.values()) {
            Matcher m = Pattern.compile("^\\| `" + Pattern.quote(f.option()) + "` \\|([^|]*)\\|", Pattern.MULTILINE)
                    .matcher(readme);
            assertTrue(m.find(), "README has no row for " + f.option());
            String documented = m.group(1).trim().replace("`", "");
            assertEquals(f.defaultValue(), documented, "default of " + f.option());
        }
    }

    @Test
    void everyRouteIsInTheEndpointTable() throws Exception {
        String readme = readme();
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0"))) {
            for (Route r : gate.server().routes()) {
                assertTrue(readme.contains("| `" + r.path() + "`") || readme.contains("| `" + r.path() + "?"),
                        "README's endpoint table lacks " + r.path());
            }
        }
    }
}
