package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import kcompat.sidecar.Operation;
import kcompat.sidecar.Reflect;

/** {"version": "<kafka-clients release>"}: the release this sidecar runs. */
public final class Version implements Operation {
    @Override
    public JsonObject run(JsonObject connection, JsonObject args) {
        JsonObject result = new JsonObject();
        result.addProperty("version", Reflect.clientVersion());
        return result;
    }
}
