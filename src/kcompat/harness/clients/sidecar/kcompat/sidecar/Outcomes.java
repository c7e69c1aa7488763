package kcompat.sidecar;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.lang.reflect.Field;
import java.util.Collection;
import org.apache.kafka.common.protocol.Errors;

/**
 * Resource entries of calls whose answer is not one future per resource (a map in one future, a field
 * of a description), and the members of result types that moved between releases (a public field in
 * old ones, a getter in new ones), read by name so one source compiles against every release.
 */
public final class Outcomes {
    private Outcomes() {
    }

    /** A resource entry with the error of {@code cause} (null: none), shaped as {@link Json#outcome}'s. */
    public static JsonObject entry(String resource, Throwable cause) {
        JsonObject entry = new JsonObject();
        entry.addProperty("resource", resource);
        entry.add("fields", new JsonObject());
        if (cause == null) {
            entry.addProperty("error_code", 0);
            entry.addProperty("error_name", "NONE");
            entry.add("error_message", JsonNull.INSTANCE);
            entry.add("exception", JsonNull.INSTANCE);
        } else {
            Json.failed(entry, Reflect.unwrap(cause));
        }
        return entry;
    }

    /** A resource entry with a Kafka error as old releases give it ({@code Errors}, not an exception). */
    public static JsonObject entry(String resource, Errors error) {
        if (error == null || error == Errors.NONE) {
            return entry(resource, (Throwable) null);
        }
        return entry(resource, error.exception());
    }

    /** {@code target.name()}, else the public field {@code name}; null when it has neither. */
    public static Object member(Object target, String name) {
        if (target == null) {
            return null;
        }
        if (Reflect.method(target.getClass(), name) != null) {
            return Reflect.invoke(target, name);
        }
        try {
            Field field = target.getClass().getField(name);
            return field.get(target);
        } catch (Exception e) {
            return null;
        }
    }

    /** A Java value as JSON: numbers, strings, booleans, collections of them; others by their text. */
    public static JsonElement json(Object value) {
        if (value == null) {
            return JsonNull.INSTANCE;
        }
        if (value instanceof Number) {
            return new JsonPrimitive((Number) value);
        }
        if (value instanceof Boolean) {
            return new JsonPrimitive((Boolean) value);
        }
        if (value instanceof Collection) {
            JsonArray list = new JsonArray();
            for (Object item : (Collection<?>) value) {
                list.add(json(item));
            }
            return list;
        }
        return new JsonPrimitive(value.toString());
    }
}
