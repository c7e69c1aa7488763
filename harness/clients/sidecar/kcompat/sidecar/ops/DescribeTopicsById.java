package kcompat.sidecar.ops;

import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import kcompat.sidecar.AdminOperation;
import kcompat.sidecar.Call;
import kcompat.sidecar.Json;
import kcompat.sidecar.Reflect;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.common.KafkaFuture;

/**
 * describeTopics(TopicCollection.ofTopicIds(...)) (3.1+), by reflection: a release without TopicCollection records
 * NoSuchMethodException.  Each result is named by its id as a UUID's usual text, like every client here.
 */
public final class DescribeTopicsById extends AdminOperation {
    private static final int METADATA = 3;

    public DescribeTopicsById() {
        super(METADATA);
    }

    @Override
    protected void call(AdminClient client, JsonObject args, Call call) throws Exception {
        Class<?> collection;
        Class<?> uuid;
        try {
            collection = Class.forName("org.apache.kafka.common.TopicCollection");
            uuid = Class.forName("org.apache.kafka.common.Uuid");
        } catch (ClassNotFoundException e) {
            call.threw(new NoSuchMethodException("kafka-clients " + Reflect.clientVersion()
                + " has no describeTopics(TopicCollection) (topic ids arrived in 3.1)"));
            return;
        }
        List<Object> ids = new ArrayList<Object>();
        for (String id : DeleteTopics.strings(args, "topic_ids")) {
            java.util.UUID parsed = java.util.UUID.fromString(id);
            ids.add(uuid.getConstructor(long.class, long.class)
                .newInstance(parsed.getMostSignificantBits(), parsed.getLeastSignificantBits()));
        }
        Object topics = collection.getMethod("ofTopicIds", Collection.class).invoke(null, ids);
        Object result = AdminClient.class.getMethod("describeTopics", collection).invoke(client, topics);
        Map<?, ?> futures = (Map<?, ?>) result.getClass().getMethod("topicIdValues").invoke(result);
        call.resultFields.add("name");
        call.resultFields.add("partitions");
        for (Map.Entry<?, ?> item : futures.entrySet()) {
            KafkaFuture<?> future = (KafkaFuture<?>) item.getValue();
            JsonObject entry = Json.outcome(DeleteTopics.label(item.getKey()), future);
            if (entry.get("error_code").getAsInt() == 0 && entry.get("exception").isJsonNull()) {
                Object description = future.get(Json.TIMEOUT_SECONDS, TimeUnit.SECONDS);
                JsonObject fields = entry.getAsJsonObject("fields");
                fields.addProperty("name", String.valueOf(Reflect.invoke(description, "name")));
                fields.addProperty("partitions", ((List<?>) Reflect.invoke(description, "partitions")).size());
            }
            call.resources.add(entry);
        }
    }
}
