package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import kcompat.sidecar.Operation;
import kcompat.sidecar.Reflect;
import org.apache.kafka.common.protocol.ApiKeys;

/** {"api_versions": {ApiKeys name: latest version}}: the newest request version this release can send, per API. */
public final class ApiVersions implements Operation {
    @Override
    public JsonObject run(JsonObject connection, JsonObject args) {
        JsonObject versions = new JsonObject();
        for (ApiKeys key : ApiKeys.values()) {
            int latest = Reflect.latestVersion(key.name());
            if (latest >= 0) {
                versions.addProperty(key.name(), latest);
            }
        }
        JsonObject result = new JsonObject();
        result.add("api_versions", versions);
        return result;
    }
}
