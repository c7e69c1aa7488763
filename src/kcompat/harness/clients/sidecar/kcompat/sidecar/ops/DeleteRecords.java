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

/** deleteRecords (KIP-107, 1.1+), by reflection: RecordsToDelete is absent before 1.1. */
public final class DeleteRecords extends AdminOperation {
    private static final int DELETE_RECORDS = 21;

    public DeleteRecords() {
        super(DELETE_RECORDS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Class<?> recordsToDelete;
        try {
            recordsToDelete = Class.forName("org.apache.kafka.clients.admin.RecordsToDelete");
        } catch (ClassNotFoundException e) {
            call.threw(new NoSuchMethodException("kafka-clients " + Reflect.clientVersion()
                + " has no deleteRecords (RecordsToDelete arrived in 1.1)"));
            return;
        }
        Map<TopicPartition, Object> request = new LinkedHashMap<TopicPartition, Object>();
        for (JsonElement element : args.getAsJsonArray("before")) {
            JsonObject item = element.getAsJsonObject();
            request.put(new TopicPartition(item.get("topic").getAsString(), item.get("partition").getAsInt()),
                        recordsToDelete.getMethod("beforeOffset", long.class)
                            .invoke(null, item.get("offset").getAsLong()));
        }
        Object result = AdminClient.class.getMethod("deleteRecords", Map.class).invoke(client, request);
        Map<?, ?> futures = (Map<?, ?>) result.getClass().getMethod("lowWatermarks").invoke(result);
        call.resultFields.add("low_watermark");
        for (Map.Entry<?, ?> item : futures.entrySet()) {
            TopicPartition partition = (TopicPartition) item.getKey();
            KafkaFuture<?> future = (KafkaFuture<?>) item.getValue();
            JsonObject entry = Json.outcome(partition.topic() + ":" + partition.partition(), future);
            if (entry.get("error_code").getAsInt() == 0 && entry.get("exception").isJsonNull()) {
                Object deleted = future.get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS);
                entry.getAsJsonObject("fields").addProperty("low_watermark",
                    (Number) Reflect.invoke(deleted, "lowWatermark"));
            }
            call.resources.add(entry);
        }
    }
}
