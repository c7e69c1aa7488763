package kcompat.sidecar.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/** alterReplicaLogDirs (KIP-113, 1.0+), by reflection: 0.11 has neither the call nor TopicPartitionReplica. */
public final class AlterReplicaLogDirs extends AdminOperation {
    private static final int ALTER_REPLICA_LOG_DIRS = 34;

    public AlterReplicaLogDirs() {
        super(ALTER_REPLICA_LOG_DIRS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        java.lang.reflect.Method alter = AdminClient.class.getMethod("alterReplicaLogDirs", Map.class);
        Map<Object, String> moves = new LinkedHashMap<Object, String>();
        Map<Object, String> labels = new LinkedHashMap<Object, String>();
        for (JsonElement element : args.getAsJsonArray("moves")) {
            JsonObject move = element.getAsJsonObject();
            Object replica = DescribeReplicaLogDirs.replica(move.getAsJsonObject("replica"));
            moves.put(replica, move.get("log_dir").getAsString());
            labels.put(replica, DescribeReplicaLogDirs.label(move.getAsJsonObject("replica")));
        }
        Object result = alter.invoke(client, moves);
        Map<?, ?> futures = (Map<?, ?>) result.getClass().getMethod("values").invoke(result);
        for (Map.Entry<Object, String> label : labels.entrySet()) {
            call.resources.add(Json.outcome(label.getValue(), (KafkaFuture<?>) futures.get(label.getKey())));
        }
    }
}
