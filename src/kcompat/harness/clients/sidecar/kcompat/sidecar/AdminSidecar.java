package kcompat.sidecar;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The Java AdminClient, driven over JSON lines on stdin/stdout by kcompat (src/kcompat/harness/clients/java.py).
 *
 * The first line out is {"ready": "<kafka-clients version>", "protocol": PROTOCOL}; the harness refuses
 * a sidecar whose protocol differs from its own.  Then one request per line:
 * {"id", "op", "connection": {bootstrap, username, password}, "args"}, and one answer per line:
 * {"id", "result": {...}} or {"id", "failure": {"class", "message"}} when the sidecar itself could not
 * run the op (an unknown op, a request it can't parse).  A Kafka error or an exception from the client
 * is data and goes into "result".  Operations are found by name by {@link Operations}.
 */
public final class AdminSidecar {
    /** Bumped whenever a request or answer changes shape; java.py's SIDECAR_PROTOCOL must match. */
    public static final int PROTOCOL = 3;

    private AdminSidecar() {
    }

    public static void main(String[] args) throws Exception {
        RequestLog.install();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, true, "UTF-8");
        System.setOut(System.err); // nothing but answers on the real stdout
        JsonObject ready = new JsonObject();
        ready.addProperty("ready", Reflect.clientVersion());
        ready.addProperty("protocol", PROTOCOL);
        out.println(ready);
        String line;
        while ((line = in.readLine()) != null) {
            if (!line.trim().isEmpty()) {
                out.println(answer(line));
            }
        }
        Connections.closeAll();
    }

    /** One answer line for one request line; whatever goes wrong becomes a failure answer, never a crash. */
    static JsonObject answer(String line) {
        JsonObject answer = new JsonObject();
        try {
            JsonObject request = JsonParser.parseString(line).getAsJsonObject();
            answer.add("id", request.get("id"));
            String op = request.get("op").getAsString();
            Operation operation = Operations.find(op);
            JsonObject args = request.has("args") && request.get("args").isJsonObject()
                ? request.getAsJsonObject("args") : new JsonObject();
            JsonObject connection = request.has("connection") && request.get("connection").isJsonObject()
                ? request.getAsJsonObject("connection") : null;
            AdminOperation.requested(request.has("api_keys") && request.get("api_keys").isJsonArray()
                ? request.getAsJsonArray("api_keys") : null);
            answer.add("result", operation.run(connection, args));
        } catch (Throwable t) {
            answer.add("failure", Json.failure(t));
        }
        return answer;
    }
}
