package io.loomgate.store.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/** A Lua script Redis runs atomically, and its SHA-1, by which {@code EVALSHA} names it. */
public record LuaScript(String source, String sha1) {

    public static LuaScript of(String source) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
            return new LuaScript(source, HexFormat.of().formatHex(d));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-1", e);
        }
    }

    /** {@code EVALSHA sha1 N keys... args...}, or {@code EVAL source N ...}. */
    byte[][] command(String verb, List<String> keys, List<String> args) {
        String[] all = new String[3 + keys.size() + args.size()];
        all[0] = verb;
        all[1] = verb.equals("EVAL") ? source : sha1;
        all[2] = Integer.toString(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            all[3 + i] = keys.get(i);
        }
        for (int i = 0; i < args.size(); i++) {
            all[3 + keys.size() + i] = args.get(i);
        }
        return Resp.args(all);
    }
}
