package kcompat.sidecar.ops;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.Base64;
import kcompat.sidecar.Operation;
import kcompat.sidecar.Reflect;

/**
 * {"results": [{"data": base64} or {"error", "stage"}]} for args
 * {"messages": [{"class", "version", "data"}]}:
 * each message's bytes read by this release's generated class ({@code org.apache.kafka.common.message.<class>},
 * e.g. CreateTopicsRequestData or RequestHeaderData) at that version, then written again.  A failure says its
 * stage: read or write.  The oracle of
 * kcompat's codec (src/kcompat/harness/codec/).  By reflection: the read/write signatures changed in 2.4
 * (ObjectSerializationCache), and releases before 2.2 have no generated classes.
 */
public final class MessageRoundTrip implements Operation {
    private static final String MESSAGES = "org.apache.kafka.common.message.";
    private static final String PROTOCOL = "org.apache.kafka.common.protocol.";

    @Override
    public JsonObject run(JsonObject connection, JsonObject args) throws Exception {
        JsonArray results = new JsonArray();
        for (JsonElement each : args.getAsJsonArray("messages")) {
            JsonObject message = each.getAsJsonObject();
            JsonObject result = new JsonObject();
            String name = message.get("class").getAsString();
            short version = message.get("version").getAsShort();
            Object read = null;
            try {
                Class<?> type = Class.forName(MESSAGES + name);
                read = read(type, version, Base64.getDecoder().decode(message.get("data").getAsString()));
                result.addProperty("data", Base64.getEncoder().encodeToString(write(read, version)));
            } catch (Throwable t) {
                Throwable cause = Reflect.unwrap(t);
                result.addProperty("error", cause.getClass().getSimpleName() + ": " + cause.getMessage());
                result.addProperty("stage", read == null ? "read" : "write");
            }
            results.add(result);
        }
        JsonObject answer = new JsonObject();
        answer.add("results", results);
        return answer;
    }

    /** The message's bytes read by its class at {@code version}; every byte must be read. */
    private static Object read(Class<?> type, short version, byte[] data) throws Exception {
        Object message = type.getConstructor().newInstance();
        Class<?> readable = Class.forName(PROTOCOL + "Readable");
        ByteBuffer in = ByteBuffer.wrap(data);
        type.getMethod("read", readable, short.class).invoke(message, readable(in), version);
        if (in.hasRemaining()) {
            throw new IllegalStateException(in.remaining() + " bytes left unread");
        }
        return message;
    }

    /** size() then write() with one cache, as the client's serializer does. */
    private static byte[] write(Object message, short version) throws Exception {
        Class<?> type = message.getClass();
        Class<?> writable = Class.forName(PROTOCOL + "Writable");
        Object cache = cache();
        ByteBuffer out;
        if (cache == null) {
            out = ByteBuffer.allocate((Integer) type.getMethod("size", short.class).invoke(message, version));
            type.getMethod("write", writable, short.class).invoke(message, accessor(out), version);
        } else {
            Method size = type.getMethod("size", cache.getClass(), short.class);
            out = ByteBuffer.allocate((Integer) size.invoke(message, cache, version));
            type.getMethod("write", writable, cache.getClass(), short.class)
                .invoke(message, accessor(out), cache, version);
        }
        if (out.hasRemaining()) {
            throw new IllegalStateException("size() said " + out.capacity() + " bytes, write() wrote " + out.position());
        }
        return out.array();
    }

    /** 2.7's generated classes read records only through a RecordsReadable; the others take the plain accessor. */
    private static Object readable(ByteBuffer buffer) throws Exception {
        try {
            return Class.forName(PROTOCOL + "RecordsReadable").getConstructor(ByteBuffer.class).newInstance(buffer);
        } catch (ClassNotFoundException e) {
            return accessor(buffer);
        }
    }

    private static Object accessor(ByteBuffer buffer) throws Exception {
        Constructor<?> accessor = Class.forName(PROTOCOL + "ByteBufferAccessor").getConstructor(ByteBuffer.class);
        return accessor.newInstance(buffer);
    }

    /** A fresh ObjectSerializationCache (2.4+; size() fills it and write() reads it), or null before 2.4. */
    private static Object cache() throws Exception {
        try {
            return Class.forName(PROTOCOL + "ObjectSerializationCache").getConstructor().newInstance();
        } catch (ClassNotFoundException e) {
            return null;
        }
    }
}
