package io.loomgate.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.api.Endpoints;
import io.loomgate.config.AddressRanges;
import io.loomgate.demo.SimulatedKind;
import io.loomgate.module.RouteFileException;
import io.loomgate.upstream.http.HttpKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** ${NAME} and ${NAME:-default} in a route file's strings, and file names found beside the file. */
class VariablesTest {

    private static final Map<String, String> ENV = Map.of("BACKEND", "10.0.0.7:8080", "EMPTY", "", "TOKEN", "a$b");

    private static Object expand(Object tree) throws RouteFileException {
        return Variables.expand(tree, "routes.json", ENV::get);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            http://${BACKEND}/api              | http://10.0.0.7:8080/api
            http://${MISSING:-127.0.0.1:9090}/ | http://127.0.0.1:9090/
            http://${BACKEND:-127.0.0.1:9090}/ | http://10.0.0.7:8080/
            `x${EMPTY:-d}y`                    | xy
            `${MISSING:-}`                     | ``
            costs $$5                          | costs $5
            `$$${BACKEND}`                     | $10.0.0.7:8080
            ends in $                          | ends in $
            $BACKEND stays                     | $BACKEND stays
            ${TOKEN}                           | a$b
            no variables                       | no variables
            """)
    void aStringIsExpandedOnce(String in, String out) throws Exception {
        assertEquals(out, expand(in));
    }

    @Test
    void everyStringValueIsExpandedAtAnyDepthButNotFieldNamesOrOtherValues() throws Exception {
        Object tree = Map.of("${BACKEND}", List.of(Map.of("url", "${BACKEND}", "n", 3, "on", true)));
        assertEquals(Map.of("${BACKEND}", List.of(Map.of("url", "10.0.0.7:8080", "n", 3, "on", true))), expand(tree));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            http://${MISSING}/             | routes.json: upstreams[1].url uses ${MISSING}, which is not set in the environment (set it, or give a default: ${MISSING:-value})
            http://${BACKEND/              | routes.json: upstreams[1].url has '${' without its '}' (write $$ for a literal dollar)
            `${}`                          | routes.json: upstreams[1].url names a variable ''; a name is letters, digits and _, not starting with a digit (write ${NAME} or ${NAME:-default})
            `${1X}`                        | routes.json: upstreams[1].url names a variable '1X'; a name is letters, digits and _, not starting with a digit (write ${NAME} or ${NAME:-default})
            `${$(rm -rf /)}`               | routes.json: upstreams[1].url names a variable '$(rm -rf /)'; a name is letters, digits and _, not starting with a digit (write ${NAME} or ${NAME:-default})
            `${A:-${BACKEND}}`             | routes.json: upstreams[1].url nests a variable in ${A}'s default; variables do not nest
            """)
    void aBadOrUnsetVariableNamesTheFileAndTheJsonPath(String value, String message) {
        Object tree = Map.of("upstreams", List.of(Map.of(), Map.of("url", value)));
        assertEquals(message, assertThrows(RouteFileException.class, () -> expand(tree)).getMessage());
    }

    private final SimulatedKind simulated = new SimulatedKind();
    private final HttpKind http = new HttpKind(AddressRanges.NONE);

    @TempDir
    Path dir;

    @AfterEach
    void close() throws Exception {
        simulated.close();
        http.close();
    }

    @Test
    void aRouteFileReadsItsVariablesFromTheEnvironmentItIsGiven() throws Exception {
        Path file = dir.resolve("routes.json");
        Files.writeString(file, """
                {"upstreams": [{"id": "api", "kind": "http", "url": "http://${BACKEND:-127.0.0.1:9090}/"}],
                 "routes": [{"path": "${ROUTE:-/api}/*", "policy": "proxy", "upstreams": ["api"]}]}""");
        Plan plan = PlanReader.read(file, io.loomgate.Modules.of(simulated, http), Endpoints.OPERATOR_PATHS, ENV::get);
        String upstream = PlanJson.upstream(plan.upstreams().getFirst());
        assertTrue(upstream.contains("\"http://10.0.0.7:8080/\""), upstream);
        assertEquals("/api/*", plan.routes().getFirst().path());
    }

    @Test
    void aRelativeFileNameIsFoundBesideTheRouteFileAndAMissingOneShowsWhereItWasLooked() throws Exception {
        Path sub = Files.createDirectories(dir.resolve("conf"));
        Path file = sub.resolve("routes.json");
        Files.writeString(file, """
                {"upstreams": [{"id": "api", "kind": "http", "url": "https://127.0.0.1:9443/", "caFile": "${CA:-ca.pem}"}],
                 "routes": [{"path": "/api/*", "policy": "proxy", "upstreams": ["api"]}]}""");
        RouteFileException e = assertThrows(RouteFileException.class,
                () -> PlanReader.read(file, io.loomgate.Modules.of(simulated, http), Endpoints.OPERATOR_PATHS, ENV::get));
        assertTrue(e.getMessage().contains(sub.resolve("ca.pem").toAbsolutePath().toString()), e.getMessage());
    }
}
