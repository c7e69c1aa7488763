package kcompat.sidecar.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;

/** The legacy alterConfigs (0.11+, deprecated in 2.3), by reflection: a release that dropped it says so. */
public final class AlterConfigs extends AdminOperation {
    private static final int ALTER_CONFIGS = 33;

    public AlterConfigs() {
        super(ALTER_CONFIGS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Map<ConfigResource, Config> request = new LinkedHashMap<ConfigResource, Config>();
        for (JsonElement element : args.getAsJsonArray("resources")) {
            JsonObject item = element.getAsJsonObject();
            List<ConfigEntry> entries = new ArrayList<ConfigEntry>();
            for (Map.Entry<String, JsonElement> config : item.getAsJsonObject("configs").entrySet()) {
                entries.add(new ConfigEntry(config.getKey(), config.getValue().getAsString()));
            }
            request.put(resource(item.getAsJsonObject("target")), new Config(entries));
        }
        AlterConfigsOptions options = new AlterConfigsOptions().validateOnly(args.get("validate_only").getAsBoolean());
        Object result = AdminClient.class.getMethod("alterConfigs", Map.class, AlterConfigsOptions.class)
            .invoke(client, request, options);
        addOutcomes(call, (Map<?, ?>) result.getClass().getMethod("values").invoke(result));
    }

    static ConfigResource resource(JsonObject target) {
        ConfigResource.Type type = ConfigResource.Type.valueOf(target.get("resource_type").getAsString().toUpperCase());
        return new ConfigResource(type, target.get("name").getAsString());
    }

    static void addOutcomes(Call call, Map<?, ?> futures) {
        for (Map.Entry<?, ?> item : futures.entrySet()) {
            ConfigResource resource = (ConfigResource) item.getKey();
            call.resources.add(Json.outcome(resource.type().name().toLowerCase() + ":" + resource.name(),
                                            (KafkaFuture<?>) item.getValue()));
        }
    }
}
