package io.loomgate.http;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * Header fields, as loomgate holds them everywhere outside the server adapter: a request's, an
 * answer's, a call's and an upstream's. Names compare without regard to case and keep the spelling
 * they came with; a name may have several values, each its own field line, in the order they came.
 * Immutable: {@link #with} and {@link #plus} make a new one. A handful of fields is the common case,
 * so they are kept as two arrays and looked up by a scan, with no map or hashing per request; a
 * 64-bit summary of the names ({@link NameBits}) answers most lookups of a name that is not there,
 * the common case, without the scan. Each field is checked against the grammar ({@link FieldText})
 * once, when it is added, and the set knows whether all of its fields passed ({@link #wellFormed}):
 * fields read from the wire and passed on are not checked again.
 *
 * <pre>{@code
 * Headers h = Headers.of("Content-Type", "application/json", "Vary", "Accept-Encoding");
 * h.first("content-type");              // "application/json"
 * h.plus("Vary", "Origin").all("vary");  // ["Accept-Encoding", "Origin"]
 * }</pre>
 */
public final class Headers {

    public static final Headers EMPTY = new Headers(new String[0], new String[0], true);

    private final String[] names;
    private final String[] values;
    /** A bit per name held ({@link NameBits}): a name whose bit is clear is not here. */
    private final long summary;
    /** Every name a token and every value a field value ({@link FieldText}), as each was checked when added. */
    private final boolean wellFormed;

    private Headers(String[] names, String[] values, boolean wellFormed) {
        this.names = names;
        this.values = values;
        this.wellFormed = wellFormed;
        this.summary = NameBits.of(names);
    }

    /** Fields from name, value, name, value, ... */
    public static Headers of(String... nameValues) {
        if (nameValues.length % 2 != 0) {
            throw new IllegalArgumentException("names and values come in pairs: " + nameValues.length + " strings");
        }
        Builder b = builder();
        for (int i = 0; i < nameValues.length; i += 2) {
            b.add(nameValues[i], nameValues[i + 1]);
        }
        return b.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The first value of {@code name}, or null when it has none. */
    public String first(String name) {
        if ((summary & NameBits.of(name)) == 0) {
            return null;
        }
        for (int i = 0; i < names.length; i++) {
            if (names[i].equalsIgnoreCase(name)) {
                return values[i];
            }
        }
        return null;
    }

    /** Every value of {@code name}, each field line's, in order; empty when it has none. */
    public List<String> all(String name) {
        if ((summary & NameBits.of(name)) == 0) {
            return List.of();
        }
        List<String> found = null;
        for (int i = 0; i < names.length; i++) {
            if (names[i].equalsIgnoreCase(name)) {
                if (found == null) {
                    found = new ArrayList<>(2);
                }
                found.add(values[i]);
            }
        }
        return found == null ? List.of() : Collections.unmodifiableList(found);
    }

    public boolean contains(String name) {
        return first(name) != null;
    }

    /**
     * Whether every name is a token and every value a field value ({@link FieldText}): what a head may
     * carry. Known without a scan, from the checks each field had when it was added; a writer that
     * finds it true has nothing to check field by field.
     */
    public boolean wellFormed() {
        return wellFormed;
    }

    /** Field lines held (a name with two values counts twice). */
    public int size() {
        return names.length;
    }

    public boolean isEmpty() {
        return names.length == 0;
    }

    /** Each field line, in order: its name as it came, and its value. */
    public void forEach(BiConsumer<String, String> field) {
        for (int i = 0; i < names.length; i++) {
            field.accept(names[i], values[i]);
        }
    }

    /** The names, each once, as first spelt, in order. */
    public List<String> names() {
        List<String> seen = new ArrayList<>(names.length);
        next:
        for (String n : names) {
            for (String earlier : seen) {
                if (earlier.equalsIgnoreCase(n)) {
                    continue next;
                }
            }
            seen.add(n);
        }
        return Collections.unmodifiableList(seen);
    }

    /**
     * The same lines with each name's together, in the order the names first came, each spelt as it
     * first was: how a head lists them. These fields themselves when no name comes twice.
     */
    public Headers grouped() {
        List<String> distinct = names();
        if (distinct.size() == names.length) {
            return this;
        }
        String[] n = new String[names.length];
        String[] v = new String[values.length];
        int at = 0;
        for (String name : distinct) {
            for (int i = 0; i < names.length; i++) {
                if (names[i].equalsIgnoreCase(name)) {
                    n[at] = name;
                    v[at++] = values[i];
                }
            }
        }
        return new Headers(n, v, wellFormed);
    }

    /** These fields with {@code name} set to {@code value} alone, in place of any it had. */
    public Headers with(String name, String value) {
        return without(n -> n.equalsIgnoreCase(name)).plus(name, value);
    }

    /** These fields with one more line, {@code name: value}, after any it had. */
    public Headers plus(String name, String value) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        String[] n = Arrays.copyOf(names, names.length + 1);
        String[] v = Arrays.copyOf(values, values.length + 1);
        n[names.length] = name;
        v[values.length] = value;
        return new Headers(n, v, wellFormed && FieldText.isField(name, value));
    }

    /** These fields and then {@code more}'s. */
    public Headers plus(Headers more) {
        if (more.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return more;
        }
        String[] n = Arrays.copyOf(names, names.length + more.names.length);
        String[] v = Arrays.copyOf(values, values.length + more.values.length);
        System.arraycopy(more.names, 0, n, names.length, more.names.length);
        System.arraycopy(more.values, 0, v, values.length, more.values.length);
        return new Headers(n, v, wellFormed && more.wellFormed);
    }

    /** These fields less every line whose lower-case name {@code dropped} accepts. */
    public Headers without(Predicate<String> dropped) {
        Builder b = builder().addAll(this, n -> !dropped.test(n.toLowerCase(Locale.ROOT)));
        return b.size() == names.length ? this : b.build();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Headers h && Arrays.equals(names, h.names) && Arrays.equals(values, h.values);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(names) + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        forEach((n, v) -> sb.append(sb.length() > 1 ? ", " : "").append(n).append(": ").append(v));
        return sb.append('}').toString();
    }

    /** Collects fields in order; not thread-safe, and used up by {@link #build}. */
    public static final class Builder {
        private String[] names = new String[8];
        private String[] values = new String[8];
        private int size;
        private boolean wellFormed = true;

        private Builder() {
        }

        /** One more field line, well formed or not ({@link Headers#wellFormed} tells). */
        public Builder add(String name, String value) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
            wellFormed &= FieldText.isField(name, value);
            put(name, value);
            return this;
        }

        /**
         * One more field line if its name is a token and its value a field value ({@link FieldText}),
         * as a parser adds what it reads: the one check the field gets.
         *
         * @return false, with nothing added, when it is not
         */
        public boolean addIfWellFormed(String name, String value) {
            if (!FieldText.isField(name, value)) {
                return false;
            }
            put(name, value);
            return true;
        }

        /** Every line of {@code more}. */
        public Builder addAll(Headers more) {
            return addAll(more, name -> true);
        }

        /** The lines of {@code more} whose name, as spelt there, {@code kept} accepts: as checked as they were there. */
        public Builder addAll(Headers more, Predicate<String> kept) {
            for (int i = 0; i < more.names.length; i++) {
                if (kept.test(more.names[i])) {
                    put(more.names[i], more.values[i]);
                    wellFormed &= more.wellFormed;
                }
            }
            return this;
        }

        private void put(String name, String value) {
            if (size == names.length) {
                names = Arrays.copyOf(names, size * 2);
                values = Arrays.copyOf(values, size * 2);
            }
            names[size] = name;
            values[size] = value;
            size++;
        }

        /** A line per entry of {@code fields}, in their order. */
        public Builder addAll(java.util.Map<String, String> fields) {
            fields.forEach(this::add);
            return this;
        }

        public int size() {
            return size;
        }

        public Headers build() {
            return size == 0 ? EMPTY : new Headers(Arrays.copyOf(names, size), Arrays.copyOf(values, size), wellFormed);
        }
    }
}
