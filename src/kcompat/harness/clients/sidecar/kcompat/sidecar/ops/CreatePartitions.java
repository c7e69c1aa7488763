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
import kcompat.sidecar.Reflect;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/** CreatePartitions (KIP-195, 1.0+), by reflection: 0.11 has neither NewPartitions nor the call. */
public final class CreatePartitions extends AdminOperation {
    private static final int CREATE_PARTITIONS = 37; // ApiKeys.CREATE_PARTITIONS, which 0.11 lacks

    public CreatePartitions() {
        super(CREATE_PARTITIONS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Class<?> newPartitions;
        Class<?> optionsType;
        try {
            newPartitions = Class.forName("org.apache.kafka.clients.admin.NewPartitions");
            optionsType = Class.forName("org.apache.kafka.clients.admin.CreatePartitionsOptions");
        } catch (ClassNotFoundException e) {
            call.threw(new UnsupportedOperationException("kafka-clients " + Reflect.clientVersion()
                + " has no createPartitions (KIP-195 arrived in 1.0)"));
            return;
        }
        Map<String, Object> request = new LinkedHashMap<String, Object>();
        for (JsonElement element : args.getAsJsonArray("partitions")) {
            JsonObject item = element.getAsJsonObject();
            int count = item.get("total_count").getAsInt();
            Object value;
            if (item.has("assignments") && !item.get("assignments").isJsonNull()) {
                List<List<Integer>> assignments = new ArrayList<List<Integer>>();
                for (JsonElement ids : item.getAsJsonArray("assignments")) {
                    assignments.add(Json.ints(ids.getAsJsonArray()));
                }
                value = newPartitions.getMethod("increaseTo", int.class, List.class).invoke(null, count, assignments);
            } else {
                value = newPartitions.getMethod("increaseTo", int.class).invoke(null, count);
            }
            request.put(item.get("topic").getAsString(), value);
        }
        Object options = optionsType.getConstructor().newInstance();
        optionsType.getMethod("validateOnly", boolean.class).invoke(options, args.get("validate_only").getAsBoolean());
        Object result = AdminClient.class.getMethod("createPartitions", Map.class, optionsType)
            .invoke(client, request, options);
        @SuppressWarnings("unchecked")
        Map<String, KafkaFuture<Void>> values =
            (Map<String, KafkaFuture<Void>>) result.getClass().getMethod("values").invoke(result);
        for (Map.Entry<String, KafkaFuture<Void>> item : values.entrySet()) {
            call.resources.add(Json.outcome(item.getKey(), item.getValue()));
        }
    }
}
