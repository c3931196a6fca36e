package io.loomgate.tls;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Objects;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The listener's certificate and key, which a reload replaces: every handshake asks the keys in
 * use at that moment, so new connections get the new certificate and open connections keep the one
 * they were made with. Works on either server, since both take the listener's {@code SSLContext}
 * once, at start.
 */
public final class ReloadableKeys extends X509ExtendedKeyManager {

    private volatile X509ExtendedKeyManager keys;

    ReloadableKeys(X509ExtendedKeyManager keys) {
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    /** From the next handshake on, {@code next}'s certificate and key. */
    public void use(ReloadableKeys next) {
        this.keys = next.keys;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return keys.getClientAliases(keyType, issuers);
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return keys.chooseClientAlias(keyType, issuers, socket);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return keys.getServerAliases(keyType, issuers);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return keys.chooseServerAlias(keyType, issuers, socket);
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return keys.chooseEngineServerAlias(keyType, issuers, engine);
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
        return keys.chooseEngineClientAlias(keyType, issuers, engine);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return keys.getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return keys.getPrivateKey(alias);
    }
}
