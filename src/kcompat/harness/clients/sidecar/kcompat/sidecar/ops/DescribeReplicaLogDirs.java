package kcompat.sidecar.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Outcomes;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/** describeReplicaLogDirs (KIP-113, 1.0+), by reflection: 0.11 has neither the call nor TopicPartitionReplica. */
public final class DescribeReplicaLogDirs extends AdminOperation {
    private static final int DESCRIBE_LOG_DIRS = 35;

    public DescribeReplicaLogDirs() {
        super(DESCRIBE_LOG_DIRS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        java.lang.reflect.Method describe = AdminClient.class.getMethod("describeReplicaLogDirs", Collection.class);
        List<Object> replicas = new ArrayList<Object>();
        List<String> labels = new ArrayList<String>();
        for (JsonElement element : args.getAsJsonArray("replicas")) {
            replicas.add(replica(element.getAsJsonObject()));
            labels.add(label(element.getAsJsonObject()));
        }
        Object result = describe.invoke(client, replicas);
        Map<?, ?> futures = (Map<?, ?>) result.getClass().getMethod("values").invoke(result);
        for (int i = 0; i < replicas.size(); i++) {
            KafkaFuture<?> future = (KafkaFuture<?>) futures.get(replicas.get(i));
            JsonObject entry = Json.outcome(labels.get(i), future);
            if (entry.get("error_code").getAsInt() == 0) {
                Object info = future.get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS);
                JsonObject fields = entry.getAsJsonObject("fields");
                fields.add("current_log_dir", Outcomes.json(Outcomes.member(info, "getCurrentReplicaLogDir")));
                fields.add("current_offset_lag", Outcomes.json(Outcomes.member(info, "getCurrentReplicaOffsetLag")));
                fields.add("future_log_dir", Outcomes.json(Outcomes.member(info, "getFutureReplicaLogDir")));
                fields.add("future_offset_lag", Outcomes.json(Outcomes.member(info, "getFutureReplicaOffsetLag")));
            }
            call.resources.add(entry);
        }
        for (String name : new String[] {"current_log_dir", "current_offset_lag", "future_log_dir",
                                         "future_offset_lag"}) {
            call.resultFields.add(name);
        }
    }

    /** A TopicPartitionReplica (1.0+) of {topic, partition, broker}. */
    static Object replica(JsonObject item) throws Exception {
        return Class.forName("org.apache.kafka.common.TopicPartitionReplica")
            .getConstructor(String.class, int.class, int.class)
            .newInstance(item.get("topic").getAsString(), item.get("partition").getAsInt(),
                         item.get("broker").getAsInt());
    }

    /** How every client names a replica's result: {@code topic-0@1}. */
    static String label(JsonObject item) {
        return item.get("topic").getAsString() + "-" + item.get("partition").getAsInt() + "@"
            + item.get("broker").getAsInt();
    }
}
