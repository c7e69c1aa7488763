package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import kcompat.sidecar.Operation;
import kcompat.sidecar.Reflect;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * {"api_versions": {ApiKeys name: latest version}, "oldest_versions": {ApiKeys name: oldest version},
 * "api_keys": {ApiKeys name: its key}}: the range of request versions this release can send, per API; the keys
 * because a release may name an API otherwise (4.1 renamed LIST_CLIENT_METRICS_RESOURCES, key 74).
 */
public final class ApiVersions implements Operation {
    @Override
    public JsonObject run(JsonObject connection, JsonObject args) {
        JsonObject versions = new JsonObject();
        JsonObject oldest = new JsonObject();
        JsonObject keys = new JsonObject();
        for (ApiKeys key : ApiKeys.values()) {
            keys.addProperty(key.name(), key.id);
            int latest = Reflect.latestVersion(key.name());
            if (latest >= 0) {
                versions.addProperty(key.name(), latest);
            }
            int first = Reflect.oldestVersion(key.name());
            if (first >= 0) {
                oldest.addProperty(key.name(), first);
            }
        }
        JsonObject result = new JsonObject();
        result.add("api_versions", versions);
        result.add("oldest_versions", oldest);
        result.add("api_keys", keys);
        return result;
    }
}
