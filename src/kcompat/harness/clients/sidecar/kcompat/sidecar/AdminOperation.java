package kcompat.sidecar;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.AdminClient;

/**
 * An op that is one AdminClient call: the request version it sent is read from {@link RequestLog},
 * and what the client threw is recorded in the result.
 */
public abstract class AdminOperation implements Operation {
    private final int apiKey;
    private static int[] requested = new int[0];

    /** {@code apiKey}: the API whose request version the result reports where a request names none. */
    protected AdminOperation(int apiKey) {
        this.apiKey = apiKey;
    }

    /** The API keys the request being answered names (protocol 3's {@code api_keys}); null or empty: none. */
    static void requested(JsonArray keys) {
        int[] found = new int[keys == null ? 0 : keys.size()];
        for (int i = 0; i < found.length; i++) {
            found[i] = keys.get(i).getAsInt();
        }
        requested = found;
    }

    protected abstract void call(AdminClient client, JsonObject args, Call call) throws Exception;

    @Override
    public final JsonObject run(JsonObject connection, JsonObject args) throws Exception {
        if (connection == null) {
            throw new IllegalArgumentException("this op needs a connection");
        }
        Call call = new Call();
        int mark = RequestLog.mark();
        long started = System.nanoTime();
        try {
            call(Connections.client(connection), args, call);
        } catch (IllegalStateException e) {
            throw e; // a request this sidecar can't parse (gson): the harness's fault, not the client's
        } catch (Throwable t) {
            call.threw(t);
        }
        int[] keys = requested.length > 0 ? requested : new int[] {apiKey};
        call.result.add("request_version", RequestLog.sentSince(mark, keys));
        if (System.nanoTime() - started >= Json.TIMEOUT_SECONDS * 1_000_000_000L || waitedOut(call.result)) {
            call.result.addProperty("deadline_reached", Json.TIMEOUT_SECONDS);
        }
        return call.result;
    }

    /**
     * Whether a wait of ours ran out: {@code java.util.concurrent.TimeoutException} comes only from this sidecar's
     * bounded {@code future.get} (the client's own timeouts throw Kafka's {@code TimeoutException}).
     */
    static boolean waitedOut(JsonObject result) {
        if (WAITED_OUT.equals(text(result, "exception"))) {
            return true;
        }
        for (JsonElement resource : result.getAsJsonArray("resources")) {
            if (resource.isJsonObject() && WAITED_OUT.equals(text(resource.getAsJsonObject(), "exception"))) {
                return true;
            }
        }
        return false;
    }

    private static final String WAITED_OUT = TimeoutException.class.getName();

    private static String text(JsonObject object, String key) {
        JsonElement value = object.get(key);
        return value == null || value.isJsonNull() ? null : value.getAsString();
    }
}
