package kcompat.sidecar.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Reflect;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * listOffsets (KIP-396, 2.5+) by reflection: OffsetSpec is absent before 2.5, OffsetSpec.maxTimestamp() before
 * 3.0 (KIP-734); either is recorded as NoSuchMethodException.
 */
public final class ListOffsets extends AdminOperation {
    private static final int LIST_OFFSETS = 2;

    public ListOffsets() {
        super(LIST_OFFSETS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Class<?> offsetSpec;
        try {
            offsetSpec = Class.forName("org.apache.kafka.clients.admin.OffsetSpec");
        } catch (ClassNotFoundException e) {
            call.threw(new NoSuchMethodException("kafka-clients " + Reflect.clientVersion()
                + " has no listOffsets (OffsetSpec arrived in 2.5)"));
            return;
        }
        Map<TopicPartition, Object> request = new LinkedHashMap<TopicPartition, Object>();
        for (JsonElement element : args.getAsJsonArray("queries")) {
            JsonObject query = element.getAsJsonObject();
            String spec = query.get("spec").getAsString();
            Object value;
            if ("timestamp".equals(spec)) {
                value = offsetSpec.getMethod("forTimestamp", long.class).invoke(null, query.get("timestamp").getAsLong());
            } else {
                value = offsetSpec.getMethod("max_timestamp".equals(spec) ? "maxTimestamp" : spec).invoke(null);
            }
            request.put(new TopicPartition(query.get("topic").getAsString(), query.get("partition").getAsInt()), value);
        }
        Object result = AdminClient.class.getMethod("listOffsets", Map.class).invoke(client, request);
        for (String field : new String[] {"offset", "timestamp", "leader_epoch"}) {
            call.resultFields.add(field);
        }
        for (TopicPartition partition : request.keySet()) {
            KafkaFuture<?> future = (KafkaFuture<?>) result.getClass().getMethod("partitionResult", TopicPartition.class)
                .invoke(result, partition);
            JsonObject entry = Json.outcome(partition.topic() + ":" + partition.partition(), future);
            if (entry.get("error_code").getAsInt() == 0 && entry.get("exception").isJsonNull()) {
                Object info = future.get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS);
                JsonObject fields = entry.getAsJsonObject("fields");
                fields.addProperty("offset", (Number) Reflect.invoke(info, "offset"));
                fields.addProperty("timestamp", (Number) Reflect.invoke(info, "timestamp"));
                Object epoch = Reflect.invoke(info, "leaderEpoch");
                if (epoch instanceof java.util.Optional && ((java.util.Optional<?>) epoch).isPresent()) {
                    fields.addProperty("leader_epoch", (Number) ((java.util.Optional<?>) epoch).get());
                }
            }
            call.resources.add(entry);
        }
    }
}
