package io.loomgate.http;

import java.io.IOException;

/**
 * Where an interim answer ({@code 102 Processing}, {@code 103 Early Hints}: any {@code 1xx} but
 * {@code 100} and {@code 101}) goes ahead of the final one: to the client, when the server and the
 * protocol can send one ({@link Exchange#interim}), or nowhere ({@link #NONE}).
 */
@FunctionalInterface
public interface Interim {

    /** Drops what it is given: the JDK's server, an HTTP/1.0 client, a call no client waits on. */
    Interim NONE = (status, fields) -> {
    };

    void send(int status, Headers fields) throws IOException;
}
