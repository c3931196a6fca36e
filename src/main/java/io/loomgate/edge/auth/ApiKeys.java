package io.loomgate.edge.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The API keys of {@code --api-keys}, read once at start: one {@code NAME SHA256-HEX} per line
 * ({@code #} starts a comment). Only the SHA-256 of each key is held. A presented key is hashed and
 * compared with every stored hash in constant time ({@link MessageDigest#isEqual}), all of them every
 * time, so neither the comparison nor the search says how close a guess came.
 *
 * <pre>{@code
 * # make a key and its line:
 * key=$(openssl rand -hex 24); echo "mobile-app $(printf %s "$key" | sha256sum | cut -d' ' -f1)" >> keys.txt
 * }</pre>
 */
public final class ApiKeys {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern HASH = Pattern.compile("[0-9a-fA-F]{64}");

    private record Entry(String name, byte[] hash) {
    }

    private final List<Entry> entries;

    private ApiKeys(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /** @throws EdgeException naming the file and line of the first bad line */
    public static ApiKeys read(Path file) throws EdgeException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new EdgeException(file + ": cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        List<Entry> entries = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Set<String> hashes = new HashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String where = file + ":" + (i + 1) + ": ";
            String[] parts = line.split("\\s+");
            if (parts.length != 2 || !NAME.matcher(parts[0]).matches() || !HASH.matcher(parts[1]).matches()) {
                throw new EdgeException(where + "must be NAME SHA256-HEX (a name of letters, digits, . _ -, and the"
                        + " 64 hex digits of the key's SHA-256), never the key itself");
            }
            if (!names.add(parts[0])) {
                throw new EdgeException(where + "the name '" + parts[0] + "' is given twice");
            }
            if (!hashes.add(parts[1].toLowerCase())) {
                throw new EdgeException(where + "the same key hash is given twice");
            }
            entries.add(new Entry(parts[0], HexFormat.of().parseHex(parts[1])));
        }
        if (entries.isEmpty()) {
            throw new EdgeException(file + ": holds no key (one NAME SHA256-HEX per line)");
        }
        return new ApiKeys(entries);
    }

    /** How many keys there are. */
    public int size() {
        return entries.size();
    }

    /** The name of {@code presented}, when it is one of the keys. */
    public Optional<String> nameOf(String presented) {
        byte[] hash = sha256(presented);
        String found = null;
        for (Entry e : entries) {
            if (MessageDigest.isEqual(hash, e.hash()) && found == null) {
                found = e.name();
            }
        }
        return Optional.ofNullable(found);
    }

    private static byte[] sha256(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
