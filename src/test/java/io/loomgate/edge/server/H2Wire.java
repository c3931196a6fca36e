package io.loomgate.edge.server;

import io.loomgate.http2.ErrorCode;
import io.loomgate.http2.Frame;
import io.loomgate.http2.FrameReader;
import io.loomgate.http2.FrameWriter;
import io.loomgate.http2.hpack.HeaderField;
import io.loomgate.http2.hpack.HpackDecoder;
import io.loomgate.http2.hpack.HpackEncoder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One HTTP/2 client connection written frame by frame, for tests: the preface and an empty
 * SETTINGS, then whatever frames a test sends, good or hostile, and the frames the server answers,
 * its header blocks decoded. Its reads give up after 20 s, a bound no loaded machine reaches.
 */
final class H2Wire implements AutoCloseable {

    /** A stream's answer: its fields (pseudo-headers included), its body, and how it ended. */
    record Answer(Map<String, String> fields, byte[] body, Frame.RstStream reset) {
        int status() {
            return Integer.parseInt(fields.get(":status"));
        }
    }

    private final Socket socket;
    private final OutputStream out;
    private final FrameReader reader;
    private final HpackEncoder encoder = new HpackEncoder(4_096, true, HpackEncoder.Indexing.ALL);
    private final HpackDecoder decoder = new HpackDecoder(4_096, 1 << 20);
    /** The server's SETTINGS, as it sent them first. */
    final Frame.Settings serverSettings;

    H2Wire(InetSocketAddress address) throws IOException {
        this(address, List.of());
    }

    /** Connects, sends the preface with {@code settings}, and reads the server's SETTINGS. */
    H2Wire(InetSocketAddress address, List<Frame.Setting> settings) throws IOException {
        socket = new Socket();
        socket.connect(address, 5_000);
        socket.setSoTimeout(20_000);
        out = socket.getOutputStream();
        reader = new FrameReader(socket.getInputStream());
        out.write(FrameReader.PREFACE);
        send(new Frame.Settings(false, settings));
        Frame first = reader.read();
        if (!(first instanceof Frame.Settings s) || s.ack()) {
            throw new IOException("the server's first frame was " + first);
        }
        serverSettings = s;
    }

    void send(Frame f) throws IOException {
        out.write(FrameWriter.encode(f));
        out.flush();
    }

    /** Bytes as they are, frames or not. */
    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** The rapid-reset attack (CVE-2023-44487): {@code count} GETs of {@code path}, each reset at once, in one write. */
    void sendRapidResets(int count, String path) throws IOException {
        ByteArrayOutputStream burst = new ByteArrayOutputStream();
        for (int i = 0; i < count; i++) {
            int id = 1 + 2 * i;
            burst.writeBytes(FrameWriter.encode(new Frame.Headers(id, block("GET", path), true, true, null)));
            burst.writeBytes(FrameWriter.encode(new Frame.RstStream(id, ErrorCode.CANCEL)));
        }
        sendRaw(burst.toByteArray());
    }

    /** A request's header block in one HEADERS frame. */
    void request(int id, String method, String path, boolean endStream, String... nameValues) throws IOException {
        send(new Frame.Headers(id, block(method, path, nameValues), endStream, true, null));
    }

    byte[] block(String method, String path, String... nameValues) {
        List<HeaderField> fields = new ArrayList<>(List.of(new HeaderField(":method", method),
                new HeaderField(":scheme", "http"), new HeaderField(":authority", "example.test"), new HeaderField(":path", path)));
        for (int i = 0; i < nameValues.length; i += 2) {
            fields.add(new HeaderField(nameValues[i], nameValues[i + 1]));
        }
        return encoder.encode(fields);
    }

    /**
     * The next frame but SETTINGS (acknowledged on the way) and WINDOW_UPDATE; null when the server
     * closed the connection. Every header block is decoded as it comes, so HPACK's table stays in step.
     */
    Frame next() throws IOException {
        while (true) {
            Frame f = reader.read();
            if (f instanceof Frame.Settings s && !s.ack()) {
                send(new Frame.Settings(true, List.of()));
                continue;
            }
            if (f instanceof Frame.Settings || f instanceof Frame.WindowUpdate) {
                continue;
            }
            if (f instanceof Frame.Headers h) {
                Map<String, String> fields = pending.computeIfAbsent(h.streamId(), k -> new LinkedHashMap<>());
                for (HeaderField field : decoder.decode(h.block(), 0, h.block().length).fields()) {
                    fields.put(field.name(), field.value());
                    if (field.name().equals(":status")) {
                        statuses.computeIfAbsent(h.streamId(), k -> new java.util.ArrayList<>()).add(field.value());
                    }
                }
            }
            return f;
        }
    }

    private final Map<Integer, Map<String, String>> pending = new java.util.HashMap<>();
    private final Map<Integer, List<String>> statuses = new java.util.HashMap<>();

    /** Every {@code :status} stream {@code id} was sent, in order: interim answers, then the final one. */
    List<String> statuses(int id) {
        return statuses.getOrDefault(id, List.of());
    }

    /** The fields decoded so far on stream {@code id} by {@link #next}, its trailers' too. */
    Map<String, String> fields(int id) {
        return pending.getOrDefault(id, Map.of());
    }
    private final Map<Integer, ByteArrayOutputStream> bodies = new java.util.HashMap<>();
    private final Map<Integer, Answer> ended = new java.util.HashMap<>();

    /** Reads frames until stream {@code id} ends (END_STREAM or RST_STREAM), keeping what other streams get for later. */
    Answer answer(int id) throws IOException {
        while (!ended.containsKey(id)) {
            Frame f = next();
            if (f == null) {
                throw new IOException("the connection closed before stream " + id + " ended");
            }
            if (f instanceof Frame.GoAway g && g.code() != ErrorCode.NO_ERROR) {
                throw new IOException("GOAWAY " + g.code() + ": " + new String(g.debug()));
            }
            int at = f.streamId();
            ByteArrayOutputStream body = bodies.computeIfAbsent(at, k -> new ByteArrayOutputStream());
            switch (f) {
                case Frame.Headers h -> {
                    if (h.endStream()) {
                        finish(at, null);
                    }
                }
                case Frame.Data d -> {
                    body.writeBytes(d.data());
                    if (d.data().length > 0) {
                        send(new Frame.WindowUpdate(0, d.data().length));
                        if (!d.endStream()) {
                            send(new Frame.WindowUpdate(at, d.data().length));
                        }
                    }
                    if (d.endStream()) {
                        finish(at, null);
                    }
                }
                case Frame.RstStream r -> finish(at, r);
                default -> {
                }
            }
        }
        return ended.remove(id);
    }

    private void finish(int id, Frame.RstStream reset) {
        ByteArrayOutputStream body = bodies.remove(id);
        Map<String, String> fields = pending.remove(id);
        ended.put(id, new Answer(fields == null ? Map.of() : fields, body == null ? new byte[0] : body.toByteArray(), reset));
    }

    /** Reads frames until the server's GOAWAY; null if it closed without one. */
    Frame.GoAway goAway() throws IOException {
        for (Frame f = next(); f != null; f = next()) {
            if (f instanceof Frame.GoAway g) {
                return g;
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
