package kcompat.sidecar;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.protocol.Errors;

/** The shapes of the answers, shared by every op (java.py reads exactly these keys). */
public final class Json {
    public static final long TIMEOUT_SECONDS = 60;

    private Json() {
    }

    /** A "failure" answer: the sidecar could not run the op at all. */
    public static JsonObject failure(Throwable t) {
        JsonObject failure = new JsonObject();
        failure.addProperty("class", t.getClass().getName());
        failure.addProperty("message", String.valueOf(t.getMessage()).replace('\n', ' '));
        return failure;
    }

    /** Waits for one resource's future; the outcome (error or value) goes into a resource entry. */
    public static JsonObject outcome(String resource, KafkaFuture<?> future) {
        JsonObject entry = new JsonObject();
        entry.addProperty("resource", resource);
        entry.add("fields", new JsonObject());
        try {
            future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            entry.addProperty("error_code", 0);
            entry.addProperty("error_name", "NONE");
            entry.add("error_message", JsonNull.INSTANCE);
            entry.add("exception", JsonNull.INSTANCE);
        } catch (Exception e) {
            failed(entry, Reflect.unwrap(e));
        }
        return entry;
    }

    public static void failed(JsonObject entry, Throwable cause) {
        Errors error = Errors.forException(cause);
        entry.addProperty("error_code", error.code());
        entry.addProperty("error_name", error.name());
        entry.addProperty("error_message", String.valueOf(cause.getMessage()));
        entry.addProperty("exception", cause.getClass().getName());
    }

    /** A config entry with what this release knows of it (source, synonyms, KIP-569 type/documentation). */
    public static JsonObject configEntry(ConfigEntry entry) {
        JsonObject out = new JsonObject();
        out.addProperty("name", entry.name());
        out.addProperty("value", entry.value());
        out.addProperty("read_only", entry.isReadOnly());
        Object source = Reflect.invoke(entry, "source");
        if (source != null) {
            out.addProperty("source", source.toString());
        }
        out.addProperty("is_default", entry.isDefault());
        out.addProperty("sensitive", entry.isSensitive());
        Object synonyms = Reflect.invoke(entry, "synonyms");
        if (synonyms instanceof Collection) {
            JsonArray list = new JsonArray();
            for (Object synonym : (Collection<?>) synonyms) {
                JsonObject item = new JsonObject();
                item.addProperty("name", String.valueOf(Reflect.invoke(synonym, "name")));
                Object value = Reflect.invoke(synonym, "value");
                item.addProperty("value", value == null ? null : value.toString());
                item.addProperty("source", String.valueOf(Reflect.invoke(synonym, "source")));
                list.add(item);
            }
            out.add("synonyms", list);
        }
        for (String name : new String[] {"type", "documentation"}) {
            if (Reflect.method(entry.getClass(), name) != null) {
                Object value = Reflect.invoke(entry, name);
                out.addProperty(name, value == null ? null : value.toString());
            }
        }
        return out;
    }

    /** A string member, or null when absent or JSON null. */
    public static String text(JsonObject object, String name) {
        return object.has(name) && !object.get(name).isJsonNull() ? object.get(name).getAsString() : null;
    }

    public static List<Integer> ints(JsonArray array) {
        List<Integer> values = new ArrayList<Integer>();
        for (JsonElement element : array) {
            values.add(element.getAsInt());
        }
        return values;
    }
}
