package kcompat.sidecar;

import com.google.gson.JsonObject;

/** One op of the sidecar's protocol: class {@code ops.CreateTopics} is op {@code create_topics} ({@link Operations}). */
public interface Operation {
    /**
     * The "result" of an answer.  {@code connection} is null when the request carried none (ops that
     * only ask this kafka-clients release about itself).  A thrown exception becomes a "failure" answer.
     */
    JsonObject run(JsonObject connection, JsonObject args) throws Exception;
}
