package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import kcompat.sidecar.Connections;
import kcompat.sidecar.Operation;

/** {}: closes the connection's AdminClient; the sidecar itself keeps serving. */
public final class Close implements Operation {
    @Override
    public JsonObject run(JsonObject connection, JsonObject args) {
        if (connection != null) {
            Connections.close(connection);
        }
        return new JsonObject();
    }
}
