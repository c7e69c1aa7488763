package kcompat.sidecar.ops;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Reflect;
import kcompat.sidecar.Values;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * describeTopics of named topics: DescribeTopicPartitions (KIP-966) from kafka-clients 3.8 where the broker
 * has it, Metadata otherwise; the request version reported is DescribeTopicPartitions', null when not sent.
 * Each description's fields: its partition count, each partition's leader, replicas and ISR, and its topic id
 * (TopicDescription.topicId, kafka-clients 3.0+: absent before).
 */
public final class DescribeTopics extends AdminOperation {
    private static final int DESCRIBE_TOPIC_PARTITIONS = 75; // ApiKeys.DESCRIBE_TOPIC_PARTITIONS, 3.8+ only

    public DescribeTopics() {
        super(DESCRIBE_TOPIC_PARTITIONS);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        List<String> names = new ArrayList<String>();
        for (JsonElement name : args.getAsJsonArray("names")) {
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
            KafkaFuture<?> future = futures.get(name);
            JsonObject entry = Json.outcome(name, future);
            Object description = Values.outcome(entry, future);
            if (description instanceof TopicDescription) {
                entry.add("fields", fields((TopicDescription) description));
            }
            call.resources.add(entry);
        }
    }

    private static JsonObject fields(TopicDescription description) {
        JsonObject fields = new JsonObject();
        fields.addProperty("partitions", description.partitions().size());
        fields.addProperty("internal", description.isInternal());
        JsonArray info = new JsonArray();
        for (TopicPartitionInfo partition : description.partitions()) {
            JsonObject item = new JsonObject();
            item.addProperty("partition", partition.partition());
            item.addProperty("leader", partition.leader() == null ? -1 : partition.leader().id());
            item.add("replicas", ids(partition.replicas()));
            item.add("isr", ids(partition.isr()));
            info.add(item);
        }
        fields.add("partition_info", info);
        if (Reflect.method(description.getClass(), "topicId") != null) {
            Object topicId = Reflect.invoke(description, "topicId");
            String text = topicId == null ? null : DeleteTopics.label(topicId);
            boolean none = text == null || "00000000-0000-0000-0000-000000000000".equals(text);
            fields.add("topic_id", none ? JsonNull.INSTANCE : new JsonPrimitive(text));
        }
        return fields;
    }

    private static JsonArray ids(List<Node> nodes) {
        JsonArray ids = new JsonArray();
        for (Node node : nodes) {
            ids.add(new JsonPrimitive(node.id()));
        }
        return ids;
    }
}
