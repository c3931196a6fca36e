package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the README and the docs resolves: the file or directory exists, and an
 * anchor names a heading of the page it points into (GitHub's way of turning a heading into an id).
 * Links out of the repository ({@code https://...}) are not followed.
 */
class DocLinksTest {

    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$");

    /** The lines outside fenced code blocks. */
    private static List<String> outsideCode(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        boolean code = false;
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith("```")) {
                code = !code;
            } else if (!code) {
                lines.add(line);
            }
        }
        return lines;
    }

    /** Markdown where a link can be: outside code blocks and code spans. */
    private static List<String> prose(Path file) throws IOException {
        return outsideCode(file).stream().map(l -> l.replaceAll("`[^`]*`", "")).toList();
    }

    static String slug(String heading) {
        return heading.strip().toLowerCase(Locale.ROOT).replace("`", "").replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
    }

    private static Set<String> anchors(Path file) throws IOException {
        Set<String> anchors = new HashSet<>();
        for (String line : outsideCode(file)) {
            Matcher m = HEADING.matcher(line);
            if (m.matches()) {
                anchors.add(slug(m.group(1)));
            }
        }
        return anchors;
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.walk(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    @Test
    void everyRelativeLinkResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : pages()) {
            for (String line : prose(page)) {
                Matcher m = LINK.matcher(line);
                while (m.find()) {
                    String target = m.group(1);
                    if (target.matches("^[a-z]+:.*")) {
                        continue;
                    }
                    checked++;
                    int hash = target.indexOf('#');
                    String file = hash < 0 ? target : target.substring(0, hash);
                    Path resolved = file.isEmpty() ? page : page.toAbsolutePath().getParent().resolve(file).normalize();
                    if (!Files.exists(resolved)) {
                        broken.add(page + ": " + target + " (no such file)");
                    } else if (hash >= 0 && (!resolved.toString().endsWith(".md")
                            || !anchors(resolved).contains(target.substring(hash + 1)))) {
                        broken.add(page + ": " + target + " (no such heading)");
                    }
                }
            }
        }
        System.out.println("checked " + checked + " relative links in " + pages().size() + " pages");
        assertTrue(checked > 50, "the README and docs link to each other: " + checked + " links");
        assertEquals(List.of(), broken);
    }

    @Test
    void theSlugIsGitHubs() {
        assertEquals("prometheus-buckets-chosen-for-histogram_quantile", slug("Prometheus buckets, chosen for `histogram_quantile`"));
        assertEquals("from-jdk-21s-structuredtaskscope-to-jdk-25s", slug("From JDK 21's StructuredTaskScope to JDK 25's"));
        assertEquals("kind-http", slug("kind: http"));
        assertEquals("at-saturation-the-cost-per-request-c10000-and-startup", slug("At saturation: the cost per request, c=10,000, and startup"));
    }

    @Test
    void everyDocPageSaysWhatItCoversFirst() throws IOException {
        for (Path page : pages()) {
            if (page.startsWith("docs")) {
                List<String> lines = Files.readAllLines(page);
                assertTrue(lines.getFirst().startsWith("# "), page + " starts with its title");
                String opening = lines.get(2);
                assertTrue(opening.startsWith("This page") || opening.startsWith("This record"),
                        page + " says what it covers first: " + opening);
            }
        }
    }
}
