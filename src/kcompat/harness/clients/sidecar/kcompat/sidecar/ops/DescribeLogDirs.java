package kcompat.sidecar.ops;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
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
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.Errors;

/**
 * describeLogDirs (KIP-113, 1.0+), by reflection: descriptions() of LogDirDescription from 2.7, values() of
 * LogDirInfo (public fields) before, removed in 4.0; 0.11 has no such call (NoSuchMethodException).
 */
public final class DescribeLogDirs extends AdminOperation {
    private static final int DESCRIBE_LOG_DIRS = 35;

    public DescribeLogDirs() {
        super(DESCRIBE_LOG_DIRS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        List<Integer> brokers = Json.ints(args.getAsJsonArray("brokers"));
        Object result = AdminClient.class.getMethod("describeLogDirs", Collection.class).invoke(client, brokers);
        Object values;
        try {
            values = result.getClass().getMethod("descriptions").invoke(result);
        } catch (NoSuchMethodException e) {
            values = result.getClass().getMethod("values").invoke(result);
        }
        @SuppressWarnings("unchecked")
        Map<Integer, KafkaFuture<?>> futures = (Map<Integer, KafkaFuture<?>>) values;
        boolean volumes = false;
        for (Integer broker : brokers) {
            KafkaFuture<?> future = futures.get(broker);
            JsonObject whole = Json.outcome(broker + ":*", future);
            if (whole.get("error_code").getAsInt() != 0) {
                call.resources.add(whole);
                continue;
            }
            Map<?, ?> dirs = (Map<?, ?>) future.get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            for (Map.Entry<?, ?> dir : dirs.entrySet()) {
                call.resources.add(describe(broker + ":" + dir.getKey(), dir.getValue()));
                volumes |= Outcomes.member(dir.getValue(), "totalBytes") != null;
            }
        }
        call.resultFields.add("replicas");
        if (volumes) {
            call.resultFields.add("total_bytes");
            call.resultFields.add("usable_bytes");
        }
    }

    /** One log dir: its error (an exception from 2.7, an Errors field before) and its replicas. */
    private static JsonObject describe(String resource, Object dir) {
        Object error = Outcomes.member(dir, "error");
        JsonObject entry = error instanceof Errors ? Outcomes.entry(resource, (Errors) error)
            : Outcomes.entry(resource, (Throwable) error);
        JsonObject fields = entry.getAsJsonObject("fields");
        JsonArray replicas = new JsonArray();
        Map<?, ?> infos = (Map<?, ?>) Outcomes.member(dir, "replicaInfos");
        for (Map.Entry<?, ?> info : infos.entrySet()) {
            TopicPartition partition = (TopicPartition) info.getKey();
            JsonObject replica = new JsonObject();
            replica.addProperty("topic", partition.topic());
            replica.addProperty("partition", partition.partition());
            replica.add("size", Outcomes.json(Outcomes.member(info.getValue(), "size")));
            replica.add("offset_lag", Outcomes.json(Outcomes.member(info.getValue(), "offsetLag")));
            replica.add("is_future", Outcomes.json(Outcomes.member(info.getValue(), "isFuture")));
            replicas.add(replica);
        }
        fields.add("replicas", replicas);
        for (String[] volume : new String[][] {{"totalBytes", "total_bytes"}, {"usableBytes", "usable_bytes"}}) {
            Object bytes = Outcomes.member(dir, volume[0]); // OptionalLong, 3.3+
            if (bytes != null) {
                Object present = Outcomes.member(bytes, "isPresent");
                fields.add(volume[1], Boolean.TRUE.equals(present)
                    ? Outcomes.json(Outcomes.member(bytes, "getAsLong")) : Outcomes.json(null));
            }
        }
        return entry;
    }
}
