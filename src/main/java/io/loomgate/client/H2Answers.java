package io.loomgate.client;

import io.loomgate.http2.ErrorCode;
import io.loomgate.http2.Frame;
import io.loomgate.http2.FrameReader;
import io.loomgate.http2.HeaderBlocks;
import io.loomgate.http2.Http2Exception;
import io.loomgate.http2.hpack.HpackDecoder;
import io.loomgate.http2.hpack.HpackException;
import java.io.EOFException;
import java.io.IOException;

/**
 * What an upstream's HTTP/2 frames do to the calls of an {@link H2Session}, read on its reader's thread:
 * a header block is an answer's head (interim {@code 1xx} ones skipped) or its trailers; DATA goes
 * to the call's body within the receive windows; RST_STREAM, SETTINGS, PING, GOAWAY and
 * WINDOW_UPDATE as RFC 9113 says. An answer that breaks the protocol fails its call as a
 * {@link MalformedResponse} and resets its stream: the client never sees it as a whole answer.
 */
final class H2Answers {

    private H2Answers() {
    }

    /**
     * Reads the upstream's frames until its connection ends, and hands each to its call: its
     * SETTINGS first, as its preface; then header blocks, DATA and the connection's frames. Returns
     * why it ended: the upstream's close, a connection error (answered with GOAWAY), or the read's.
     */
    static IOException readAll(H2Session s, FrameReader reader, HeaderBlocks blocks, HpackDecoder hpack, int maxList) {
        try {
            Frame first = reader.read();
            if (!(first instanceof Frame.Settings settings) || settings.ack()) {
                throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "the upstream's preface must be SETTINGS");
            }
            s.out().settings(settings);
            for (Frame f = reader.read(); f != null; f = reader.read()) {
                try {
                    HeaderBlocks.Block block = f instanceof Frame.Headers h ? blocks.headers(h) : blocks.next(f);
                    if (block != null) {
                        block(s, block, decode(hpack, block, maxList));
                    } else if (!(f instanceof Frame.Headers || f instanceof Frame.Continuation)) {
                        frame(s, f);
                    }
                } catch (Http2Exception e) {
                    if (e.connectionError()) {
                        throw e;
                    }
                    s.streamError(e.streamId(), e.code(), new MalformedResponse(e.getMessage()));
                }
            }
            return new EOFException("the upstream closed its HTTP/2 connection");
        } catch (Http2Exception e) {
            s.out().goAway(0, e.code(), e.getMessage());
            return new MalformedResponse(e.getMessage());
        } catch (IOException e) {
            return e;
        }
    }

    /** A header block decoded; one past {@code maxList} octets is a stream error, HPACK that cannot be decoded a connection error. */
    static HpackDecoder.Block decode(HpackDecoder hpack, HeaderBlocks.Block block, int maxList) throws Http2Exception {
        try {
            HpackDecoder.Block decoded = hpack.decode(block.block(), 0, block.block().length);
            if (decoded.tooLarge()) {
                throw Http2Exception.stream(ErrorCode.PROTOCOL_ERROR, block.streamId(), "an answer's fields past " + maxList + " octets");
            }
            return decoded;
        } catch (HpackException e) {
            throw Http2Exception.connection(ErrorCode.COMPRESSION_ERROR, e.getMessage());
        }
    }

    static void block(H2Session s, HeaderBlocks.Block block, HpackDecoder.Block decoded) {
        int id = block.streamId();
        H2Call call = s.call(id);
        if (call == null) {
            return;   // a stream this side has ended: what is still in flight for it is dropped
        }
        try {
            if (!call.hasHead()) {
                ResponseHead head = H2Fields.response(decoded.fields());
                if (head.status() < 200) {
                    if (head.status() == 101 || block.endStream()) {
                        throw new MalformedResponse("an HTTP/2 " + head.status() + (block.endStream() ? " that ends the stream" : ""));
                    }
                    if (head.status() > 101) {
                        call.interim(head);   // 102, 103: passed on by the caller; a 100 is not
                    }
                    return;   // the final answer follows
                }
                String method = call.method;
                long declared = H2Fields.declaredLength(head);
                boolean noBody = method.equals("HEAD") || head.status() == 204 || head.status() == 304;
                call.head(head, H2Fields.framing(method, head, block.endStream(), declared), noBody ? 0 : declared);
                if (block.endStream()) {
                    call.data(new byte[0], true);
                }
            } else {
                if (!block.endStream()) {
                    throw new MalformedResponse("HTTP/2 trailers that do not end the stream");
                }
                call.trailers(H2Fields.trailers(decoded.fields()));
            }
        } catch (MalformedResponse e) {
            s.streamError(id, ErrorCode.PROTOCOL_ERROR, e);
        }
    }

    static void frame(H2Session s, Frame f) throws IOException {
        switch (f) {
            case Frame.Data d -> data(s, d);
            case Frame.RstStream r -> {
                H2Call call = s.call(r.streamId());
                if (call != null) {
                    call.localDone = true;   // nothing more goes out on it, not even a reset
                    if (!call.remoteDone) {   // a reset after the whole answer (NO_ERROR: "stop sending") takes nothing from it
                        call.fail(new IOException("the upstream reset HTTP/2 stream " + r.streamId() + " (" + r.code() + ")"),
                                r.code() == ErrorCode.REFUSED_STREAM);
                        s.done(call);
                    }
                }
            }
            case Frame.Settings st -> {
                if (!st.ack()) {
                    s.out().settings(st);
                }
            }
            case Frame.Ping p -> {
                if (!p.ack()) {
                    s.out().frame(new Frame.Ping(true, p.data()));
                }
            }
            case Frame.GoAway g -> s.goAway(g.lastStreamId(), g.code());
            case Frame.WindowUpdate w -> s.out().windowUpdate(w);
            case Frame.PushPromise p -> throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "a PUSH_PROMISE, though push is disabled");
            default -> {
                // PRIORITY and frames of unknown types are ignored (RFC 9113 sections 5.3.2 and 5.5)
            }
        }
    }

    private static void data(H2Session s, Frame.Data d) throws IOException {
        int id = d.streamId();
        s.receiving().consume(id, d.flowLength());   // past either window: FLOW_CONTROL_ERROR
        H2Call call = s.call(id);
        if (call == null) {
            s.receiving().credit(id, d.flowLength(), true);   // a stream this side ended: nobody reads it
            return;
        }
        int padding = d.flowLength() - d.data().length;
        if (padding > 0) {
            s.receiving().credit(id, padding, d.endStream());
        }
        if (!call.hasHead()) {
            s.streamError(id, ErrorCode.PROTOCOL_ERROR, new MalformedResponse("HTTP/2 DATA before the answer's head"));
            return;
        }
        try {
            call.data(d.data(), d.endStream());
        } catch (MalformedResponse e) {
            s.streamError(id, ErrorCode.PROTOCOL_ERROR, e);
        }
    }
}
