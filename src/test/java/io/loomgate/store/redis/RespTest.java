package io.loomgate.store.redis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** RESP2 read strictly, without sockets. */
class RespTest {

    private static Reply read(String wire) throws IOException {
        return new Resp(1024).read(new ByteArrayInputStream(wire.getBytes(StandardCharsets.ISO_8859_1)));
    }

    @Test
    void writesACommandAsAnArrayOfBulkStrings() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Resp.write(out, Resp.args("SET", "k", "é"));
        assertEquals("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2\r\né\r\n", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void readsTheFiveTypes() throws IOException {
        assertEquals(new Reply.Simple("OK"), read("+OK\r\n"));
        assertEquals("NOSCRIPT", ((Reply.Error) read("-NOSCRIPT No matching script\r\n")).code());
        assertEquals(new Reply.Int(-42), read(":-42\r\n"));
        assertArrayEquals("a\r\nb".getBytes(StandardCharsets.UTF_8), ((Reply.Bulk) read("$4\r\na\r\nb\r\n")).bytes());
        assertEquals(null, ((Reply.Bulk) read("$-1\r\n")).bytes());
        assertEquals(null, ((Reply.Array) read("*-1\r\n")).items());
        Reply.Array a = (Reply.Array) read("*2\r\n:1\r\n$3\r\n0.5\r\n");
        assertEquals(new Reply.Int(1), a.items().get(0));
        assertEquals("0.5", ((Reply.Bulk) a.items().get(1)).text());
        assertEquals(List.of(), ((Reply.Array) read("*0\r\n")).items());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "%1\r\n",                 // RESP3, never asked for
        "_\r\n",                  // RESP3 null
        "+OK\n",                  // a bare LF
        "+O\rK\r\n",              // a CR inside a line
        ":+1\r\n",                // a sign RESP does not write
        ":01\r\n",                // a leading zero
        ":-0\r\n",
        ":1e3\r\n",
        ":99999999999999999999\r\n",  // past a long
        "$-2\r\n",                // no such length
        "$2000\r\n",              // past the bound
        "$3\r\nabcd\r\n",         // longer than it said
        "*2000\r\n",              // more items than allowed
        "*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n:1\r\n",  // nested too deep
        "$ 3\r\nabc\r\n",
    })
    void refusesWhatBreaksTheProtocolOrABound(String wire) {
        assertThrows(Resp.MalformedReply.class, () -> read(wire));
    }

    @Test
    void refusesALineLongerThanTheBound() {
        assertThrows(Resp.MalformedReply.class, () -> read("+" + "x".repeat(Resp.MAX_LINE + 1) + "\r\n"));
    }

    @Test
    void aReplyCutShortIsAnEndOfStreamNotAValue() {
        assertThrows(EOFException.class, () -> read(""));
        assertThrows(EOFException.class, () -> read("+OK"));
        assertThrows(EOFException.class, () -> read("$5\r\nab"));
        assertThrows(EOFException.class, () -> read("*2\r\n:1\r\n"));
    }
}
