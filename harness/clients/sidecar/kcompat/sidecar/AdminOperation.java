package kcompat.sidecar;

import com.google.gson.JsonObject;
import org.apache.kafka.clients.admin.AdminClient;

/**
 * An op that is one AdminClient call: the request version it sent is read from {@link RequestLog},
 * and what the client threw is recorded in the result.
 */
public abstract class AdminOperation implements Operation {
    private final int apiKey;

    /** {@code apiKey}: the API whose request version the result reports (a number: not every release names it). */
    protected AdminOperation(int apiKey) {
        this.apiKey = apiKey;
    }

    protected abstract void call(AdminClient client, JsonObject args, Call call) throws Exception;

    @Override
    public final JsonObject run(JsonObject connection, JsonObject args) throws Exception {
        if (connection == null) {
            throw new IllegalArgumentException("this op needs a connection");
        }
        Call call = new Call();
        int mark = RequestLog.mark();
        try {
            call(Connections.client(connection), args, call);
        } catch (IllegalStateException e) {
            throw e; // a request this sidecar can't parse (gson): the harness's fault, not the client's
        } catch (Throwable t) {
            call.threw(t);
        }
        call.result.add("request_version", RequestLog.sentSince(mark, apiKey));
        return call.result;
    }
}
