package kcompat.sidecar;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * Result objects of admin calls newer than the oldest kafka-clients release, read by getter name
 * ({@link Reflect#invoke}) and written as JSON: an absent getter is left out, an empty Optional is null.
 */
public final class Values {
    private Values() {
    }

    /** A value as JSON: optionals unwrapped, a TopicPartition as "topic:partition", enums by their toString. */
    public static JsonElement json(Object value) {
        if (value instanceof Optional) {
            Optional<?> optional = (Optional<?>) value;
            return optional.isPresent() ? json(optional.get()) : JsonNull.INSTANCE;
        }
        if (value instanceof OptionalLong) {
            OptionalLong optional = (OptionalLong) value;
            return optional.isPresent() ? new JsonPrimitive(optional.getAsLong()) : JsonNull.INSTANCE;
        }
        if (value instanceof OptionalInt) {
            OptionalInt optional = (OptionalInt) value;
            return optional.isPresent() ? new JsonPrimitive(optional.getAsInt()) : JsonNull.INSTANCE;
        }
        if (value == null) {
            return JsonNull.INSTANCE;
        }
        if (value instanceof Number) {
            return new JsonPrimitive((Number) value);
        }
        if (value instanceof Boolean) {
            return new JsonPrimitive((Boolean) value);
        }
        if (value instanceof TopicPartition) {
            TopicPartition partition = (TopicPartition) value;
            return new JsonPrimitive(partition.topic() + ":" + partition.partition());
        }
        if (value instanceof Collection) {
            JsonArray list = new JsonArray();
            for (Object item : (Collection<?>) value) {
                list.add(json(item));
            }
            return list;
        }
        if (value instanceof Map) {
            JsonObject object = new JsonObject();
            for (Map.Entry<?, ?> item : ((Map<?, ?>) value).entrySet()) {
                object.add(String.valueOf(item.getKey()), json(item.getValue()));
            }
            return object;
        }
        return new JsonPrimitive(value.toString());
    }

    /** The getters' values of {@code target} under the given keys (getter, key, getter, key...), where it has them. */
    public static JsonObject getters(Object target, String... getterThenKey) {
        JsonObject out = new JsonObject();
        for (int i = 0; i + 1 < getterThenKey.length; i += 2) {
            if (Reflect.method(target.getClass(), getterThenKey[i]) != null) {
                out.add(getterThenKey[i + 1], json(Reflect.invoke(target, getterThenKey[i])));
            }
        }
        return out;
    }

    /**
     * A resource entry for one future ({@link Json#outcome}), its "fields" the getters of the value it
     * completed with; null when it failed (the entry says how).
     */
    public static Object outcome(JsonObject entry, KafkaFuture<?> future) throws Exception {
        if (entry.get("error_code").getAsInt() != 0 || !entry.get("exception").isJsonNull()) {
            return null;
        }
        return future.get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /**
     * The AdminClient method {@code name} taking {@code params} arguments; NoSuchMethodException (the result's
     * exception, as data) in a release that lacks it, so one source compiles against every release.
     */
    public static Method adminMethod(String name, int params) throws NoSuchMethodException {
        for (Method method : org.apache.kafka.clients.admin.AdminClient.class.getMethods()) {
            if (method.getName().equals(name) && method.getParameterTypes().length == params) {
                return method;
            }
        }
        throw new NoSuchMethodException("kafka-clients " + Reflect.clientVersion() + " has no Admin." + name);
    }

    /** A resource entry for a value the client listed (no future of its own): error NONE, these fields. */
    public static JsonObject listed(String resource, JsonObject fields) {
        JsonObject entry = new JsonObject();
        entry.addProperty("resource", resource);
        entry.add("fields", fields);
        entry.addProperty("error_code", 0);
        entry.addProperty("error_name", "NONE");
        entry.add("error_message", JsonNull.INSTANCE);
        entry.add("exception", JsonNull.INSTANCE);
        return entry;
    }

    /** A call's result (a getter of the result object with no arguments), by name: null when absent. */
    public static KafkaFuture<?> future(Object result, String getter) throws Exception {
        return (KafkaFuture<?>) result.getClass().getMethod(getter).invoke(result);
    }
}
