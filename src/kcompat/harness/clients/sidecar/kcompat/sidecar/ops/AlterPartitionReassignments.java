package kcompat.sidecar.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/** alterPartitionReassignments (KIP-455, 2.4+), by reflection: older releases lack the call (NoSuchMethodException). */
public final class AlterPartitionReassignments extends AdminOperation {
    private static final int ALTER_PARTITION_REASSIGNMENTS = 45;

    public AlterPartitionReassignments() {
        super(ALTER_PARTITION_REASSIGNMENTS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        java.lang.reflect.Method alter = AdminClient.class.getMethod("alterPartitionReassignments", Map.class);
        Class<?> target = Class.forName("org.apache.kafka.clients.admin.NewPartitionReassignment");
        Map<TopicPartition, Optional<?>> request = new LinkedHashMap<TopicPartition, Optional<?>>();
        for (JsonElement element : args.getAsJsonArray("reassignments")) {
            JsonObject item = element.getAsJsonObject();
            JsonObject at = item.getAsJsonObject("partition");
            TopicPartition partition = new TopicPartition(at.get("topic").getAsString(), at.get("partition").getAsInt());
            request.put(partition, item.get("replicas").isJsonNull() ? Optional.empty() : Optional.of(
                target.getConstructor(java.util.List.class).newInstance(Json.ints(item.getAsJsonArray("replicas")))));
        }
        Object result = alter.invoke(client, request);
        Map<?, ?> futures = (Map<?, ?>) result.getClass().getMethod("values").invoke(result);
        for (TopicPartition partition : request.keySet()) {
            call.resources.add(Json.outcome(partition.topic() + "-" + partition.partition(),
                                            (KafkaFuture<?>) futures.get(partition)));
        }
    }
}
