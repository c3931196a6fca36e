package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.CommandLine;
import io.loomgate.config.Flag;
import io.loomgate.edge.routing.Route;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README and the docs document what the code does: the README opens with the two commands, the
 * configuration page lists every flag with its real default, the HTTP API page every route, and
 * the route-file reference shows the built-in file verbatim.
 */
class ReadmeTest {

    private static String readme() throws Exception {
        return Files.readString(Path.of("README.md"));
    }

    private static String doc(String name) throws Exception {
        return Files.readString(Path.of("docs", name));
    }

    @Test
    void theFirstLinesShowTheTwoCommands() throws Exception {
        List<String> head = readme().lines().limit(10).toList();
        assertTrue(head.stream().anyMatch(l -> l.startsWith("scripts/run")), head.toString());
        assertTrue(head.stream().anyMatch(l -> l.startsWith("scripts/test")), head.toString());
    }

    @Test
    void everyFlagIsInTheTableWithItsDefault() throws Exception {
        String readme = doc("configuration.md");
        for (Flag f : Flag.values()) {
            Matcher m = Pattern.compile("^\\| `" + Pattern.quote(f.option()) + "` \\|([^|]*)\\|", Pattern.MULTILINE)
                    .matcher(readme);
            assertTrue(m.find(), "docs/configuration.md has no row for " + f.option());
            String documented = m.group(1).trim().replace("`", "");
            assertEquals(f.defaultValue(), documented, "default of " + f.option());
        }
    }

    @Test
    void theRouteFileSectionShowsTheBuiltInFileVerbatim() throws Exception {
        String builtIn = Files.readString(Path.of("src/main/resources/io/loomgate/demo/routes.json")).strip();
        assertTrue(doc("route-file.md").contains("```json\n" + builtIn + "\n```"),
                "docs/route-file.md's built-in route file differs from routes.json");
    }

    /** The rows of the table under "## Endpoints", and only that table: its first cells. */
    static List<String> endpointTableRows(String readme) {
        int section = readme.indexOf("\n## Endpoints\n");
        assertTrue(section >= 0, "the page has an Endpoints section");
        int tableStart = readme.indexOf("\n| path |", section);
        assertTrue(tableStart >= 0, "the Endpoints section has a table whose first column is 'path'");
        List<String> rows = new java.util.ArrayList<>();
        for (String line : readme.substring(tableStart + 1).lines().toList()) {
            if (!line.startsWith("|")) {
                break;
            }
            rows.add(line.split("\\|")[1].trim());
        }
        return rows.subList(2, rows.size());
    }

    @Test
    void everyRouteIsInTheEndpointTable() throws Exception {
        List<String> rows = endpointTableRows(doc("http-api.md"));
        try (Loomgate gate = Loomgate.start(CommandLine.config("--port", "0", "--debug-endpoints"))) {
            for (Route r : gate.server().routes()) {
                // A prefix route (/debug/requests/*) is documented with its parameter: /debug/requests/{id}.
                String documented = r.isPrefix() ? r.prefix() + "{" : r.path();
                assertTrue(rows.stream().anyMatch(cell -> cell.equals("`" + documented + "`")
                                || cell.startsWith("`" + documented + "?") || (r.isPrefix() && cell.startsWith("`" + documented))),
                        "docs/http-api.md's endpoint table lacks " + r.path() + "; it has " + rows);
            }
        }
    }

    @Test
    void theEndpointTableIsReadFromItsOwnSection() {
        String fake = "# x\n\n## Endpoints\n\n| path | a |\n|---|---|\n| `/one` | b |\n\nmore\n\n"
                + "## Load\n\n| endpoint | c |\n|---|---|\n| `/two` | d |\n";
        assertEquals(List.of("`/one`"), endpointTableRows(fake), "a route named only in another table does not count");
    }
}
