package kcompat.sidecar.ops;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/**
 * describeTopics of named topics: DescribeTopicPartitions (KIP-966) from kafka-clients 3.8 where the broker
 * has it, Metadata otherwise; the request version reported is DescribeTopicPartitions', null when not sent.
 */
public final class DescribeTopics extends AdminOperation {
    private static final int DESCRIBE_TOPIC_PARTITIONS = 75; // ApiKeys.DESCRIBE_TOPIC_PARTITIONS, 3.8+ only

    public DescribeTopics() {
        super(DESCRIBE_TOPIC_PARTITIONS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        List<String> names = new ArrayList<String>();
        for (JsonElement name : args.getAsJsonArray("topics")) {
            names.add(name.getAsString());
        }
        Object result = AdminClient.class.getMethod("describeTopics", Collection.class).invoke(client, names);
        Object values;
        try { // values() was deprecated in 3.1 for topicNameValues() and removed in 4.0
            values = result.getClass().getMethod("topicNameValues").invoke(result);
        } catch (NoSuchMethodException e) {
            values = result.getClass().getMethod("values").invoke(result);
        }
        @SuppressWarnings("unchecked")
        Map<String, KafkaFuture<?>> futures = (Map<String, KafkaFuture<?>>) values;
        for (String name : names) {
            call.resources.add(Json.outcome(name, futures.get(name)));
        }
    }
}
