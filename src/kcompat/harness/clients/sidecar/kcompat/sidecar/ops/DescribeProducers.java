package kcompat.sidecar.ops;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Reflect;
import kcompat.sidecar.Values;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/** describeProducers (KIP-664, kafka-clients 2.8+), by reflection: each partition's active producers. */
public final class DescribeProducers extends AdminOperation {
    private static final int DESCRIBE_PRODUCERS = 61;

    public DescribeProducers() {
        super(DESCRIBE_PRODUCERS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        String topic = args.get("topic").getAsString();
        List<TopicPartition> partitions = new ArrayList<TopicPartition>();
        for (JsonElement index : args.getAsJsonArray("partitions")) {
            partitions.add(new TopicPartition(topic, index.getAsInt()));
        }
        Object result = Values.adminMethod("describeProducers", 1).invoke(client, partitions);
        Method partitionResult = result.getClass().getMethod("partitionResult", TopicPartition.class);
        call.resultFields.add("producers");
        for (TopicPartition partition : partitions) {
            KafkaFuture<?> future = (KafkaFuture<?>) partitionResult.invoke(result, partition);
            JsonObject entry = Json.outcome(topic + ":" + partition.partition(), future);
            Object state = Values.outcome(entry, future);
            if (state != null) {
                JsonArray producers = new JsonArray();
                for (Object producer : (Collection<?>) Reflect.invoke(state, "activeProducers")) {
                    producers.add(Values.getters(producer, "producerId", "producer_id", "producerEpoch",
                        "producer_epoch", "lastSequence", "last_sequence", "lastTimestamp", "last_timestamp",
                        "coordinatorEpoch", "coordinator_epoch", "currentTransactionStartOffset",
                        "current_txn_start_offset"));
                }
                entry.getAsJsonObject("fields").add("producers", producers);
            }
            call.resources.add(entry);
        }
    }
}
