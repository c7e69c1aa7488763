package kcompat.sidecar.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Reflect;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;

/** incrementalAlterConfigs (KIP-339, 2.3+), by reflection: AlterConfigOp is absent before 2.3. */
public final class IncrementalAlterConfigs extends AdminOperation {
    private static final int INCREMENTAL_ALTER_CONFIGS = 44;

    public IncrementalAlterConfigs() {
        super(INCREMENTAL_ALTER_CONFIGS);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Class<?> op;
        Class<? extends Enum> opType;
        try {
            op = Class.forName("org.apache.kafka.clients.admin.AlterConfigOp");
            opType = (Class<? extends Enum>) Class.forName("org.apache.kafka.clients.admin.AlterConfigOp$OpType");
        } catch (ClassNotFoundException e) {
            call.threw(new NoSuchMethodException("kafka-clients " + Reflect.clientVersion()
                + " has no incrementalAlterConfigs (KIP-339 arrived in 2.3)"));
            return;
        }
        Map<ConfigResource, Collection<Object>> request = new LinkedHashMap<ConfigResource, Collection<Object>>();
        for (JsonElement element : args.getAsJsonArray("resources")) {
            JsonObject item = element.getAsJsonObject();
            List<Object> ops = new ArrayList<Object>();
            for (JsonElement change : item.getAsJsonArray("ops")) {
                JsonObject o = change.getAsJsonObject();
                ConfigEntry entry = new ConfigEntry(o.get("name").getAsString(), Json.text(o, "value"));
                ops.add(op.getConstructor(ConfigEntry.class, opType)
                    .newInstance(entry, Enum.valueOf(opType, o.get("op").getAsString())));
            }
            request.put(AlterConfigs.resource(item.getAsJsonObject("target")), ops);
        }
        AlterConfigsOptions options = new AlterConfigsOptions().validateOnly(args.get("validate_only").getAsBoolean());
        Object result = AdminClient.class.getMethod("incrementalAlterConfigs", Map.class, AlterConfigsOptions.class)
            .invoke(client, request, options);
        AlterConfigs.addOutcomes(call, (Map<?, ?>) result.getClass().getMethod("values").invoke(result));
    }
}
