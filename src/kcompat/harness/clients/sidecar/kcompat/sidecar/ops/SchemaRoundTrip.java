package kcompat.sidecar.ops;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.Base64;
import kcompat.sidecar.Operation;
import kcompat.sidecar.Reflect;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * {"apis": {key: {"name", "oldest", "latest"}}, "results": [{"data": base64} or {"error", "stage"}]} for args
 * {"messages": [{"api_key", "version", "kind": "request"|"response", "data"}]}: each message's bytes read by this
 * release's hand-written protocol {@code Schema} of that API and version, then written again by it.  The oracle of
 * kcompat's codec for releases before 2.2, which have no generated message classes.  By reflection, so one source
 * compiles against every release: 0.10.2 keeps the schemas behind {@code ProtoUtils.requestSchema(int, int)}, 0.11
 * onwards on each {@code ApiKeys} constant ({@code requestSchema(short)}); {@code Schema.read}, {@code sizeOf} and
 * {@code write} are the same in all.  A release whose schemas are gone (3.0 removed them) answers an error per message.
 */
public final class SchemaRoundTrip implements Operation {
    private static final String PROTOCOL = "org.apache.kafka.common.protocol.";

    @Override
    public JsonObject run(JsonObject connection, JsonObject args) throws Exception {
        JsonArray results = new JsonArray();
        for (JsonElement each : args.getAsJsonArray("messages")) {
            results.add(roundTrip(each.getAsJsonObject()));
        }
        JsonObject answer = new JsonObject();
        answer.add("apis", apis());
        answer.add("results", results);
        return answer;
    }

    private static JsonObject roundTrip(JsonObject message) {
        JsonObject result = new JsonObject();
        String stage = "schema";
        try {
            Object schema = schema(message.get("api_key").getAsInt(), message.get("version").getAsShort(),
                "request".equals(message.get("kind").getAsString()));
            stage = "read";
            ByteBuffer in = ByteBuffer.wrap(Base64.getDecoder().decode(message.get("data").getAsString()));
            Object struct = schema.getClass().getMethod("read", ByteBuffer.class).invoke(schema, in);
            if (in.hasRemaining()) {
                throw new IllegalStateException(in.remaining() + " bytes left unread");
            }
            stage = "write";
            result.addProperty("data", Base64.getEncoder().encodeToString(write(schema, struct)));
        } catch (Throwable t) {
            Throwable cause = Reflect.unwrap(t);
            result.addProperty("error", cause.getClass().getSimpleName() + ": " + cause.getMessage());
            result.addProperty("stage", stage);
        }
        return result;
    }

    /** sizeOf() then write(), as the release's own request and response serialization does. */
    private static byte[] write(Object schema, Object struct) throws Exception {
        Method size = schema.getClass().getMethod("sizeOf", Object.class);
        ByteBuffer out = ByteBuffer.allocate((Integer) size.invoke(schema, struct));
        schema.getClass().getMethod("write", ByteBuffer.class, Object.class).invoke(schema, out, struct);
        if (out.hasRemaining()) {
            throw new IllegalStateException("sizeOf() said " + out.capacity() + " bytes, write() wrote " + out.position());
        }
        return out.array();
    }

    /** The release's schema of an API version: on its ApiKeys constant (0.11+), else through ProtoUtils (0.10.2). */
    private static Object schema(int apiKey, short version, boolean request) throws Exception {
        String getter = request ? "requestSchema" : "responseSchema";
        ApiKeys key = ApiKeys.forId(apiKey);
        Method onKey = Reflect.method(ApiKeys.class, getter, short.class);
        Object schema = onKey != null ? onKey.invoke(key, version)
            : Class.forName(PROTOCOL + "ProtoUtils").getMethod(getter, int.class, int.class)
                .invoke(null, apiKey, (int) version);
        if (schema == null) {
            throw new IllegalArgumentException("no schema of " + key + " v" + version);
        }
        return schema;
    }

    /** Each ApiKeys constant's key, name and version range (ProtoUtils' in 0.10.2, the constant's own later). */
    private static JsonObject apis() throws Exception {
        JsonObject apis = new JsonObject();
        for (ApiKeys key : ApiKeys.values()) {
            JsonObject api = new JsonObject();
            api.addProperty("name", key.name());
            api.addProperty("oldest", version(key, "oldestVersion"));
            api.addProperty("latest", version(key, "latestVersion"));
            apis.add(String.valueOf(key.id), api);
        }
        return apis;
    }

    private static int version(ApiKeys key, String getter) throws Exception {
        Method onKey = Reflect.method(ApiKeys.class, getter);
        Object found = onKey != null ? onKey.invoke(key)
            : Class.forName(PROTOCOL + "ProtoUtils").getMethod(getter, int.class).invoke(null, (int) key.id);
        return ((Number) found).intValue();
    }
}
