package kcompat.sidecar.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Reflect;
import kcompat.sidecar.Values;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/** describeTransactions (KIP-664, kafka-clients 2.8+), by reflection: each transactional id's state. */
public final class DescribeTransactions extends AdminOperation {
    private static final int DESCRIBE_TRANSACTIONS = 65;

    public DescribeTransactions() {
        super(DESCRIBE_TRANSACTIONS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        List<String> ids = new ArrayList<String>();
        for (JsonElement id : args.getAsJsonArray("transactional_ids")) {
            ids.add(id.getAsString());
        }
        Object result = Values.adminMethod("describeTransactions", 1).invoke(client, ids);
        Method description = result.getClass().getMethod("description", String.class);
        for (String field : new String[] {"state", "producer_id", "producer_epoch", "timeout_ms", "start_time_ms",
                                          "partitions"}) {
            call.resultFields.add(field);
        }
        for (String id : ids) {
            KafkaFuture<?> future = (KafkaFuture<?>) description.invoke(result, id);
            JsonObject entry = Json.outcome(id, future);
            Object found = Values.outcome(entry, future);
            if (found != null) {
                JsonObject fields = Values.getters(found, "state", "state", "producerId", "producer_id",
                    "producerEpoch", "producer_epoch", "transactionTimeoutMs", "timeout_ms",
                    "transactionStartTimeMs", "start_time_ms");
                TreeSet<String> partitions = new TreeSet<String>();
                for (JsonElement partition : Values.json(Reflect.invoke(found, "topicPartitions")).getAsJsonArray()) {
                    partitions.add(partition.getAsString());
                }
                fields.add("partitions", Values.json(partitions));
                entry.add("fields", fields);
            }
            call.resources.add(entry);
        }
    }
}
