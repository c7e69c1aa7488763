package kcompat.sidecar.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Outcomes;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * listPartitionReassignments (KIP-455, 2.4+), by reflection: one entry per reassignment in flight; a failure
 * of the whole call is an entry named "*"; older releases lack the call (NoSuchMethodException).
 */
public final class ListPartitionReassignments extends AdminOperation {
    private static final int LIST_PARTITION_REASSIGNMENTS = 46;

    public ListPartitionReassignments() {
        super(LIST_PARTITION_REASSIGNMENTS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Object result;
        if (!args.has("partitions") || args.get("partitions").isJsonNull()) {
            result = AdminClient.class.getMethod("listPartitionReassignments").invoke(client);
        } else {
            Set<TopicPartition> partitions = new LinkedHashSet<TopicPartition>();
            for (JsonElement element : args.getAsJsonArray("partitions")) {
                JsonObject item = element.getAsJsonObject();
                partitions.add(new TopicPartition(item.get("topic").getAsString(), item.get("partition").getAsInt()));
            }
            result = AdminClient.class.getMethod("listPartitionReassignments", Set.class).invoke(client, partitions);
        }
        KafkaFuture<?> all = (KafkaFuture<?>) result.getClass().getMethod("reassignments").invoke(result);
        for (String name : new String[] {"replicas", "adding_replicas", "removing_replicas"}) {
            call.resultFields.add(name);
        }
        JsonObject whole = Json.outcome("*", all);
        if (whole.get("error_code").getAsInt() != 0) {
            call.resources.add(whole);
            return;
        }
        Map<?, ?> found = (Map<?, ?>) all.get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        for (Map.Entry<?, ?> item : found.entrySet()) {
            TopicPartition partition = (TopicPartition) item.getKey();
            JsonObject entry = Outcomes.entry(partition.topic() + "-" + partition.partition(), (Throwable) null);
            JsonObject fields = entry.getAsJsonObject("fields");
            fields.add("replicas", Outcomes.json(Outcomes.member(item.getValue(), "replicas")));
            fields.add("adding_replicas", Outcomes.json(Outcomes.member(item.getValue(), "addingReplicas")));
            fields.add("removing_replicas", Outcomes.json(Outcomes.member(item.getValue(), "removingReplicas")));
            call.resources.add(entry);
        }
    }
}
